// Package ssetest helps test readers of server-sent event streams: a proxy that cuts a stream
// mid-way.
package ssetest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// Cut says how a CuttingProxy ends the stream it cuts.
type Cut int

const (
	// Abruptly closes the connection mid-response, as a crash or a reset would.
	Abruptly Cut = iota
	// Cleanly ends the response as if the stream were over, as a proxy's timeout may.
	Cleanly
)

// CuttingProxy is an HTTP proxy in front of target that passes every request on, but cuts the
// first event stream (text/event-stream) it relays after its first event. Streams counts the
// event streams relayed.
type CuttingProxy struct {
	URL     string
	Streams atomic.Int32
	how     Cut
}

// NewCuttingProxy starts a CuttingProxy in front of target that cuts as how says, closed when
// t ends.
func NewCuttingProxy(t testing.TB, target string, how Cut) *CuttingProxy {
	p := &CuttingProxy{how: how}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.relay(w, r, target)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

func (p *CuttingProxy) relay(w http.ResponseWriter, r *http.Request, target string) {
	out, err := http.NewRequestWithContext(r.Context(), r.Method, target+r.URL.RequestURI(), r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	out.Header = r.Header.Clone()
	resp, err := http.DefaultTransport.RoundTrip(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		_, _ = io.Copy(w, resp.Body)
		return
	}
	cut := p.Streams.Add(1) == 1
	rc := http.NewResponseController(w)
	var relayed []byte // with cut: what was relayed so far
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			if cut {
				relayed = append(relayed, chunk...)
				if end := bytes.Index(relayed, []byte("\n\n")); end >= 0 && bytes.Contains(relayed[:end], []byte("data:")) {
					// Up to the end of the first event, then the cut.
					_, _ = w.Write(chunk[:len(chunk)-(len(relayed)-end-2)])
					_ = rc.Flush()
					if p.how == Cleanly {
						return
					}
					panic(http.ErrAbortHandler) // the connection closes mid-response
				}
			}
			_, _ = w.Write(chunk)
			_ = rc.Flush()
		}
		if err != nil {
			return
		}
	}
}
