package run

import "os"

// envRoundTrip is CODEMODE_ROUNDTRIP=1: this package's tests then run every program with
// Options.RoundTrip (CI runs the suite both ways).
var envRoundTrip = os.Getenv("CODEMODE_ROUNDTRIP") == "1"

// testOptions returns o with RoundTrip set as the environment asks.
func testOptions(o Options) Options {
	o.RoundTrip = o.RoundTrip || envRoundTrip
	return o
}
