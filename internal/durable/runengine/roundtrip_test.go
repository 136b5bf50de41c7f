package runengine

import "os"

// envRoundTrip is CODEMODE_ROUNDTRIP=1: the engines of this package's tests, in process and in
// the worker processes they start (which inherit the environment), then run every program with
// Config.RoundTrip (CI runs the suite both ways).
var envRoundTrip = os.Getenv("CODEMODE_ROUNDTRIP") == "1"

// newTestEngine is New with RoundTrip set as the environment asks.
func newTestEngine(c Config) *Engine {
	c.RoundTrip = c.RoundTrip || envRoundTrip
	return New(c)
}
