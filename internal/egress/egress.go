// Package egress is the policy every outgoing HTTP request of the service obeys: toolset
// manifest fetches, tool calls, cancels and webhook deliveries. It stops a client from turning
// the service against the network it runs in (server-side request forgery).
//
// The address is checked after name resolution, when the connection is made (net.Dialer's
// Control), so a name that resolves to a refused address, or a name whose address changes
// between a check and the connection (DNS rebinding), is refused too. An address is:
//
//  1. refused when it is in a denied network (Policy.Deny);
//  2. else allowed when it is in an allowed network (Policy.Allow, which may name the keywords
//     "loopback" and "private");
//  3. else refused when it is in a restricted range: loopback (127.0.0.0/8, ::1), private
//     (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10, fc00::/7), link-local
//     (169.254.0.0/16, fe80::/10, where cloud metadata services answer), the metadata
//     addresses outside it (fd00:ec2::254, 100.100.100.200), unspecified (0.0.0.0/8, ::),
//     multicast and broadcast;
//  4. else (a public address) allowed.
//
// Redirects are followed only for GET and HEAD, to the same host (scheme, name and port), at
// most five times; a redirect answering a POST is not followed (the caller sees the 3xx). The
// policy's clients use no proxy from the environment: a proxy would make the check meaningless.
package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// ErrDenied is wrapped by the error of a connection the policy refuses.
var ErrDenied = errors.New("address not allowed by the egress policy")

// ErrRedirect is wrapped by the error of a redirect the policy refuses.
var ErrRedirect = errors.New("redirect not allowed by the egress policy")

var (
	loopback = []netip.Prefix{mustPrefix("127.0.0.0/8"), mustPrefix("::1/128")}
	private  = []netip.Prefix{
		mustPrefix("10.0.0.0/8"), mustPrefix("172.16.0.0/12"), mustPrefix("192.168.0.0/16"),
		mustPrefix("100.64.0.0/10"), mustPrefix("fc00::/7"),
	}
	// restricted is refused unless allowed; loopback and private are in it.
	restricted = append(append(append([]netip.Prefix{}, loopback...), private...),
		mustPrefix("169.254.0.0/16"), mustPrefix("fe80::/10"), // link-local, metadata services
		mustPrefix("fd00:ec2::254/128"), mustPrefix("100.100.100.200/32"), // metadata outside it
		mustPrefix("0.0.0.0/8"), mustPrefix("::/128"), // unspecified: reaches the local host
		mustPrefix("224.0.0.0/4"), mustPrefix("ff00::/8"), mustPrefix("255.255.255.255/32"),
		mustPrefix("192.0.0.0/24"), mustPrefix("198.18.0.0/15"), mustPrefix("240.0.0.0/4"),
	)
)

func mustPrefix(s string) netip.Prefix { return netip.MustParsePrefix(s) }

// Policy says which addresses outgoing requests may reach. The zero Policy is the default:
// public addresses only.
type Policy struct {
	// Allow lists networks allowed even when restricted (loopback, private, or any CIDR).
	Allow []netip.Prefix
	// Deny lists networks refused even when allowed or public.
	Deny []netip.Prefix
	// open allows every address not in Deny.
	open bool
}

// Local is the policy of codemode dev and of tests: loopback and private networks allowed
// as well as public ones (link-local and metadata addresses stay refused).
func Local() Policy {
	return Policy{Allow: append(append([]netip.Prefix{}, loopback...), private...)}
}

// Open is a policy that allows every address; its clients still obey the redirect rule.
// It is for tools the user points at their own machine (codemode eval), not for the service.
func Open() Policy { return Policy{open: true} }

// Parse reads a comma-separated allow list and deny list. Each entry is the keyword
// "loopback" or "private", a CIDR ("10.1.0.0/16") or an address ("10.1.2.3"); the deny list
// takes CIDRs and addresses only.
func Parse(allow, deny string) (Policy, error) {
	var p Policy
	for _, e := range split(allow) {
		switch strings.ToLower(e) {
		case "loopback":
			p.Allow = append(p.Allow, loopback...)
		case "private":
			p.Allow = append(p.Allow, private...)
		default:
			pfx, err := parsePrefix(e)
			if err != nil {
				return Policy{}, fmt.Errorf("egress allow list: %w", err)
			}
			p.Allow = append(p.Allow, pfx)
		}
	}
	for _, e := range split(deny) {
		pfx, err := parsePrefix(e)
		if err != nil {
			return Policy{}, fmt.Errorf("egress deny list: %w", err)
		}
		p.Deny = append(p.Deny, pfx)
	}
	return p, nil
}

// FromEnv reads CODEMODE_EGRESS_ALLOW and CODEMODE_EGRESS_DENY (see Parse) and adds them to
// base.
func FromEnv(getenv func(string) string, base Policy) (Policy, error) {
	p, err := Parse(getenv("CODEMODE_EGRESS_ALLOW"), getenv("CODEMODE_EGRESS_DENY"))
	if err != nil {
		return Policy{}, err
	}
	base.Allow = append(append([]netip.Prefix{}, base.Allow...), p.Allow...)
	base.Deny = append(append([]netip.Prefix{}, base.Deny...), p.Deny...)
	return base, nil
}

func split(s string) []string {
	var out []string
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

func parsePrefix(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, fmt.Errorf("%q is not loopback, private, a CIDR or an address", s)
		}
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("%q is not loopback, private, a CIDR or an address", s)
	}
	return netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()), nil
}

func contains(list []netip.Prefix, a netip.Addr) bool {
	for _, p := range list {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Check returns nil when the policy allows connecting to ip, else an error wrapping ErrDenied.
func (p Policy) Check(ip netip.Addr) error {
	ip = ip.Unmap().WithZone("")
	switch {
	case contains(p.Deny, ip):
	case p.open, contains(p.Allow, ip):
		return nil
	case !contains(restricted, ip):
		return nil
	}
	return fmt.Errorf("%w: %s", ErrDenied, ip)
}

// control is the net.Dialer Control function: it sees the resolved address of each
// connection attempt.
func (p Policy) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: unparsable address %q", ErrDenied, address)
	}
	return p.Check(ap.Addr())
}

// Dialer returns a dialer that refuses connections the policy does not allow.
func (p Policy) Dialer() *net.Dialer {
	return &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: p.control}
}

// MaxIdleConnsPerHost is how many idle connections a Transport keeps to each host. A worker
// drives many runs at once, often against one toolset host; with net/http's default of 2,
// every call beyond the second in flight would dial a new connection and close it after.
const MaxIdleConnsPerHost = 256

// Transport returns an HTTP transport whose connections obey the policy (and no proxy), and
// which keeps up to MaxIdleConnsPerHost idle connections to each host for reuse.
func (p Policy) Transport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.MaxIdleConnsPerHost = MaxIdleConnsPerHost
	t.MaxIdleConns = 4 * MaxIdleConnsPerHost
	d := p.Dialer()
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}
	return t
}

// Client returns an HTTP client that obeys the policy and its redirect rule, with the given
// overall timeout per request (0: none).
func (p Policy) Client(timeout time.Duration) *http.Client {
	return &http.Client{Transport: p.Transport(), Timeout: timeout, CheckRedirect: CheckRedirect}
}

// CheckRedirect is the redirect rule, as an http.Client CheckRedirect function: a redirect of
// a GET or HEAD is followed to the same scheme, host and port, at most five times; any other
// redirect is refused, and a redirect answering another method is returned to the caller as
// the response (http.ErrUseLastResponse).
func CheckRedirect(req *http.Request, via []*http.Request) error {
	first := via[0]
	if first.Method != http.MethodGet && first.Method != http.MethodHead {
		return http.ErrUseLastResponse
	}
	if req.URL.Scheme != first.URL.Scheme || req.URL.Host != first.URL.Host {
		return fmt.Errorf("%w: from %s to another host", ErrRedirect, first.URL.Host)
	}
	if len(via) >= 5 {
		return fmt.Errorf("%w: more than 5 redirects", ErrRedirect)
	}
	return nil
}

// IsDenied reports whether err comes from the policy (a refused address or redirect).
func IsDenied(err error) bool { return errors.Is(err, ErrDenied) || errors.Is(err, ErrRedirect) }
