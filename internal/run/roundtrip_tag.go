//go:build codemode_roundtrip

package run

// Built with the codemode_roundtrip tag (tests only): every run is saved and restored at every
// safe point (Options.RoundTrip).
func init() { buildRoundTrip = true }
