package client

import "time"

// SetReconnectPause sets the pause of Events before it opens a stream again, for a test, and
// returns what restores it.
func SetReconnectPause(d time.Duration) (restore func()) {
	old := reconnectPause
	reconnectPause = d
	return func() { reconnectPause = old }
}
