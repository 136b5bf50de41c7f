package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
	cmmcp "github.com/codemode/codemode/internal/toolset/mcp"
)

// A server's answer larger than Config.MaxResponseBytes fails the call instead of being read
// whole into the worker's memory (the SDK reads a JSON answer without a bound), whether it
// comes as a JSON body or as an event stream; answers within the limit are read.
func TestResponseBodyBounded(t *testing.T) {
	for _, jsonResponse := range []bool{true, false} {
		t.Run(map[bool]string{true: "json", false: "sse"}[jsonResponse], func(t *testing.T) {
			t.Parallel()
			server := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "1"}, nil)
			server.AddTool(&mcp.Tool{Name: "big", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					var args struct{ N int }
					_ = json.Unmarshal(req.Params.Arguments, &args)
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", args.N)}}}, nil
				})
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
				&mcp.StreamableHTTPOptions{JSONResponse: jsonResponse})
			srv := httptest.NewServer(h)
			t.Cleanup(srv.Close)

			cfg := cmmcp.Config{URL: srv.URL, MaxResponseBytes: 64 << 10, Timeout: 10 * time.Second}
			raw, err := cmmcp.List(context.Background(), cfg)
			require.NoError(t, err)
			m, err := cmmcp.ParseManifest(raw)
			require.NoError(t, err)
			var pool cmmcp.Pool
			defer pool.Close()
			tools, _ := cmmcp.Toolset{Name: "b", Config: cfg, Manifest: m}.Tools(&pool)
			call := toolcall.Call{RunID: "r", CallID: 1, Key: toolcall.Key("r", 1)}

			out, err := tools[0].Execute(context.Background(), json.RawMessage(`{"N": 1000}`), call)
			require.NoError(t, err)
			require.Equal(t, `"`+strings.Repeat("x", 1000)+`"`, string(out))

			start := time.Now()
			_, err = tools[0].Execute(context.Background(), json.RawMessage(`{"N": 1048576}`), call)
			require.Error(t, err)
			require.Less(t, time.Since(start), 8*time.Second, "fails at once, not at the timeout")
		})
	}
}
