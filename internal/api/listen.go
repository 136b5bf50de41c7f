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
	if !loopbackName(host) {
		return fmt.Errorf("%w (address %s)", ErrInsecureListen, addr)
	}
	return nil
}

// loopbackName reports whether host (no port) is "localhost" or a loopback address.
func loopbackName(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
