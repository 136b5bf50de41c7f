package egress

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheck(t *testing.T) {
	def := Policy{}
	dev, err := Parse("loopback,private", "")
	require.NoError(t, err)
	custom, err := Parse("10.1.0.0/16, 192.168.1.7", "8.8.8.0/24")
	require.NoError(t, err)
	tests := []struct {
		policy Policy
		addr   string
		ok     bool
	}{
		{def, "93.184.216.34", true},
		{def, "2606:2800:220:1::1", true},
		{def, "127.0.0.1", false},
		{def, "::1", false},
		{def, "::ffff:127.0.0.1", false},
		{def, "0.0.0.0", false},
		{def, "::", false},
		{def, "10.0.0.1", false},
		{def, "172.16.5.4", false},
		{def, "192.168.0.1", false},
		{def, "fd12::1", false},
		{def, "169.254.169.254", false},
		{def, "fe80::1", false},
		{def, "fd00:ec2::254", false},
		{def, "100.100.100.200", false},
		{def, "224.0.0.1", false},
		{dev, "127.0.0.1", true},
		{dev, "10.0.0.1", true},
		{dev, "169.254.169.254", false},
		{dev, "fe80::1", false},
		{custom, "10.1.2.3", true},
		{custom, "10.2.0.1", false},
		{custom, "192.168.1.7", true},
		{custom, "192.168.1.8", false},
		{custom, "8.8.8.8", false},
		{custom, "1.1.1.1", true},
		{Open(), "169.254.169.254", true},
	}
	for _, tc := range tests {
		err := tc.policy.Check(netip.MustParseAddr(tc.addr))
		if tc.ok {
			require.NoError(t, err, tc.addr)
		} else {
			require.ErrorIs(t, err, ErrDenied, tc.addr)
		}
	}
	_, err = Parse("intranet", "")
	require.Error(t, err)
	_, err = Parse("", "private")
	require.Error(t, err, "the deny list takes networks only")
}

// A connection to a denied address is refused when it is made, on the resolved address: a
// name (localhost) is no way around it.
func TestClientRefusesDeniedAddress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hi") }))
	t.Cleanup(srv.Close)
	for _, url := range []string{srv.URL, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)} {
		_, err := Policy{}.Client(0).Get(url)
		require.ErrorIs(t, err, ErrDenied, url)
		require.True(t, IsDenied(err))
	}
	allowed, err := Parse("loopback", "")
	require.NoError(t, err)
	resp, err := allowed.Client(0).Get(srv.URL)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)

	denied, err := Parse("loopback", "127.0.0.0/8")
	require.NoError(t, err)
	_, err = denied.Client(0).Get(srv.URL)
	require.ErrorIs(t, err, ErrDenied, "the deny list wins over the allow list")
}

// A redirect to another host is refused; one to the same host is followed for a GET; a
// redirect answering a POST is returned as the response, not followed.
func TestClientRedirects(t *testing.T) {
	var otherHits int
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { otherHits++ }))
	t.Cleanup(other.Close)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/", http.StatusFound)
		case "/here":
			http.Redirect(w, r, "/final", http.StatusFound)
		case "/final":
			io.WriteString(w, "final")
		default:
			http.Redirect(w, r, "/final", http.StatusSeeOther)
		}
	}))
	t.Cleanup(srv.Close)
	p, err := Parse("loopback", "")
	require.NoError(t, err)
	c := p.Client(0)

	_, err = c.Get(srv.URL + "/away")
	require.ErrorIs(t, err, ErrRedirect)
	require.Zero(t, otherHits)

	resp, err := c.Get(srv.URL + "/here")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, "final", string(body))

	resp, err = c.Post(srv.URL+"/call", "application/json", strings.NewReader("{}"))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "not followed as a GET")
}

// Many calls in flight to one host, round after round, reuse their connections: a worker
// driving 16 runs against one toolset must not dial (and close) a connection per call.
func TestClientReusesConnectionsToOneHost(t *testing.T) {
	const inFlight, rounds = 16, 5
	var mu sync.Mutex
	opened := 0
	release := make(chan struct{})
	arrived := make(chan struct{}, inFlight)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-release
		io.WriteString(w, "ok")
	}))
	srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			mu.Lock()
			opened++
			mu.Unlock()
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	policy, err := Parse("loopback", "")
	require.NoError(t, err)
	client := policy.Client(0)
	for range rounds {
		var wg sync.WaitGroup
		for range inFlight {
			wg.Go(func() {
				resp, err := client.Get(srv.URL)
				if !assert.NoError(t, err) {
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			})
		}
		for range inFlight { // all in flight at once
			<-arrived
		}
		for range inFlight {
			release <- struct{}{}
		}
		wg.Wait()
	}
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, inFlight, opened, "connections opened for %d rounds of %d calls in flight", rounds, inFlight)
}
