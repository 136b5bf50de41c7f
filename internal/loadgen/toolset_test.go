package loadgen

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServedToolsetAnswersEchoAndTheRest calls the toolset serveToolset serves over HTTP:
// echo answered by the fast path, and every other request by the test toolset behind it.
func TestServedToolsetAnswersEchoAndTheRest(t *testing.T) {
	t.Parallel()
	url, stop, err := serveToolset("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(stop)

	tests := []struct {
		name       string
		method     string
		body       string
		key        string
		wantStatus int
		wantBody   string // the exact answer; empty: only wantIn is checked
		wantIn     string
	}{
		{name: "echo", method: http.MethodPost, body: `{"tool":"echo","input":{"i":3,"s":"\u0000"},"key":"r:1","runId":"r"}`,
			key: "r:1", wantStatus: http.StatusOK, wantBody: `{"output":{"i":3,"s":"\u0000"}}`},
		{name: "echo of nothing", method: http.MethodPost, body: `{"tool":"echo","key":"r:2","runId":"r"}`,
			key: "r:2", wantStatus: http.StatusOK, wantBody: `{"output":null}`},
		{name: "echo repeated under a key, answered afresh", method: http.MethodPost, body: `{"tool":"echo","input":[1],"key":"r:1","runId":"r"}`,
			key: "r:1", wantStatus: http.StatusOK, wantBody: `{"output":[1]}`},
		{name: "another tool", method: http.MethodPost, body: `{"tool":"math.add","input":{"a":2,"b":3},"key":"r:3","runId":"r"}`,
			key: "r:3", wantStatus: http.StatusOK, wantIn: `5`},
		{name: "echo with a key unlike the header's", method: http.MethodPost, body: `{"tool":"echo","input":1,"key":"r:4"}`,
			key: "r:5", wantStatus: http.StatusBadRequest, wantIn: "Idempotency-Key"},
		{name: "malformed", method: http.MethodPost, body: `{"tool":`, key: "r:6",
			wantStatus: http.StatusBadRequest, wantIn: "malformed"},
		{name: "manifest", method: http.MethodGet, wantStatus: http.StatusOK, wantIn: `"echo"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, url, strings.NewReader(tt.body))
			require.NoError(t, err)
			if tt.key != "" {
				req.Header.Set("Idempotency-Key", tt.key)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			assert.Equal(t, tt.wantStatus, resp.StatusCode, string(b))
			if tt.wantBody != "" {
				assert.Equal(t, tt.wantBody, string(b))
				assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			}
			assert.Contains(t, string(b), tt.wantIn)
		})
	}
}
