package api

import (
	"fmt"
	"net"
	"net/netip"
)

// CheckListen returns ErrInsecureListen when addr ("host:port") is not a loopback address and
// token is empty. An empty host (all interfaces) is not loopback; "localhost" is.
func CheckListen(addr, token string) error {
	if token != "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.IsLoopback() {
		return fmt.Errorf("%w (address %s)", ErrInsecureListen, addr)
	}
	return nil
}
