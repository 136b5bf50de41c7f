package cli

import "os"

// CODEMODE_ROUNDTRIP=1 runs this package's programs with run.Options.RoundTrip.
func init() { roundTrip = os.Getenv("CODEMODE_ROUNDTRIP") == "1" }
