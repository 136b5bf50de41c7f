package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset"
	"github.com/codemode/codemode/internal/toolset/mcp"
	"github.com/codemode/codemode/internal/toolset/mcp/mcptest"
)

const token = "mcp-token"

// Against each implementation of the test server: the manifest lists every tool (across
// pages) under its normalised path with its schemas, and the tools' calls map each kind of
// result to an output or a tool error.
func TestListAndCall(t *testing.T) {
	for name, start := range mcptest.Servers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			cfg := mcp.Config{URL: start(t, token), Auth: &toolset.AuthConfig{Type: "bearer", Token: token}}

			raw, err := mcp.List(ctx, cfg)
			require.NoError(t, err)
			m, err := mcp.ParseManifest(raw)
			require.NoError(t, err)
			byPath := map[string]mcp.ManifestTool{}
			var paths []string
			for _, tool := range m.Tools {
				byPath[tool.Path] = tool
				paths = append(paths, tool.Path)
			}
			sort.Strings(paths)
			require.Equal(t, []string{"add", "docs.search", "echo", "fail", "keyed", "pair", "resolve_library_id", "slow"}, paths)
			require.Equal(t, "resolve-library-id", byPath["resolve_library_id"].Name)
			require.Equal(t, "Add: Add two numbers", byPath["add"].Description)
			require.Equal(t, "Add", byPath["add"].Title)
			require.NotEmpty(t, byPath["add"].Output, "add declares an output schema")
			require.Empty(t, byPath["echo"].Output)
			require.Contains(t, string(byPath["echo"].Input), `"text"`)

			// The manifest is one the runtime accepts (as every catalog reads it).
			_, err = toolset.DecodeManifest(raw)
			require.NoError(t, err)

			var pool mcp.Pool
			defer pool.Close()
			tools, ns := mcp.Toolset{Name: "m", Description: "test server", Config: cfg, Manifest: m}.Tools(&pool)
			require.Equal(t, []run.Namespace{{Path: "m", Description: "test server"}}, ns)
			_, err = run.NewToolbox(tools, ns)
			require.NoError(t, err, "the schemas compile")
			exec := map[string]run.Tool{}
			for _, tool := range tools {
				exec[tool.Path] = tool
			}
			call := func(path, input string, callID int64) (json.RawMessage, error) {
				c := toolcall.Call{RunID: "r1", CallID: callID, Key: toolcall.Key("r1", callID), Path: path}
				return exec[path].Execute(ctx, json.RawMessage(input), c)
			}
			for _, tt := range []struct {
				path, input, want, fails string
			}{
				{path: "m.add", input: `{"a":2,"b":40}`, want: `{"sum":42}`},
				{path: "m.echo", input: `{"text":"hi"}`, want: `"hi"`},
				{path: "m.pair", input: `{}`, want: `[{"type":"text","text":"one"},{"type":"text","text":"two"}]`},
				{path: "m.resolve_library_id", input: `{"name":"x"}`, want: `"/lib/x"`},
				{path: "m.docs.search", input: `{"q":"y"}`, want: `"found y"`},
				{path: "m.keyed", input: `{}`, want: `{"key":"r1:7","seen":1}`},
				{path: "m.fail", input: `{"message":"nope"}`, fails: "nope"},
			} {
				out, err := call(tt.path, tt.input, 7)
				if tt.fails != "" {
					var te *toolcall.ToolError
					require.True(t, errors.As(err, &te), "%s: %v", tt.path, err)
					require.Contains(t, te.Message, tt.fails)
					continue
				}
				require.NoError(t, err, tt.path)
				require.JSONEq(t, tt.want, string(out), tt.path)
			}

			// A tool the server no longer has (the stored manifest is older): the server's
			// refusal is the tool's failure, and the session stays usable.
			ghost := mcp.Manifest{Tools: []mcp.ManifestTool{{ManifestTool: toolset.ManifestTool{Path: "ghost"}, Name: "ghost"}}}
			gone, _ := mcp.Toolset{Name: "m", Config: cfg, Manifest: &ghost}.Tools(&pool)
			_, err = gone[0].Execute(ctx, json.RawMessage(`{}`), toolcall.Call{RunID: "r1", CallID: 8, Key: "r1:8", Path: "m.ghost"})
			var te *toolcall.ToolError
			require.True(t, errors.As(err, &te), "%v", err)
			require.Contains(t, te.Message, "ghost")
			out, err := call("m.echo", `{"text":"still"}`, 9)
			require.NoError(t, err)
			require.JSONEq(t, `"still"`, string(out))

			// A call without an answer in time fails once, without being sent again.
			short := cfg
			short.Timeout = 300 * time.Millisecond
			slow, _ := mcp.Toolset{Name: "m", Config: short, Manifest: m}.Tools(&pool)
			for _, tool := range slow {
				if tool.Path != "m.slow" {
					continue
				}
				began := time.Now()
				_, err := tool.Execute(ctx, json.RawMessage(`{"ms":1500}`), toolcall.Call{RunID: "r1", CallID: 10, Key: "r1:10", Path: "m.slow"})
				require.ErrorContains(t, err, "no answer within 300ms")
				require.Less(t, time.Since(began), 550*time.Millisecond, "not sent again")
			}
		})
	}
}

// A server refusing the credentials cannot be listed.
func TestListRefusedWithoutAuth(t *testing.T) {
	url := mcptest.StartGo(t, token)
	_, err := mcp.List(context.Background(), mcp.Config{URL: url})
	require.Error(t, err)
	_, err = mcp.List(context.Background(), mcp.Config{URL: url, Auth: &toolset.AuthConfig{Type: "bearer", Token: "wrong"}})
	require.Error(t, err)
}

// echoTool lists the server at cfg and returns its echo tool, called over pool, and the
// manifest.
func echoTool(tb testing.TB, cfg mcp.Config, pool *mcp.Pool) (run.Tool, *mcp.Manifest) {
	tb.Helper()
	raw, err := mcp.List(context.Background(), cfg)
	require.NoError(tb, err)
	m, err := mcp.ParseManifest(raw)
	require.NoError(tb, err)
	tools, _ := mcp.Toolset{Name: "m", Config: cfg, Manifest: m}.Tools(pool)
	for _, tool := range tools {
		if tool.Path == "m.echo" {
			return tool, m
		}
	}
	tb.Fatal("the server has no echo tool")
	return run.Tool{}, m
}

// Calls share a pooled session; one the server forgot (it restarted) is replaced and the call
// made again.
func TestSessionReconnects(t *testing.T) {
	ctx := context.Background()
	url := mcptest.StartGo(t, "")
	cfg := mcp.Config{URL: url}
	var pool mcp.Pool
	defer pool.Close()
	echo, m := echoTool(t, cfg, &pool)
	c := toolcall.Call{RunID: "r", CallID: 1, Key: "r:1", Path: "m.echo"}
	out, err := echo.Execute(ctx, json.RawMessage(`{"text":"a"}`), c)
	require.NoError(t, err)
	require.JSONEq(t, `"a"`, string(out))
	first := pool.SessionsForTest()
	require.Len(t, first, 1)

	// The tools of another runtime over the same server share the session.
	again, _ := mcp.Toolset{Name: "m", Config: cfg, Manifest: m}.Tools(&pool)
	for _, tool := range again {
		if tool.Path == "m.echo" {
			_, err = tool.Execute(ctx, json.RawMessage(`{"text":"a"}`), c)
			require.NoError(t, err)
		}
	}
	require.Equal(t, first, pool.SessionsForTest())

	// End the session on the server's side, as a restarted server would have lost it.
	require.NoError(t, pool.DeleteSessionForTest(ctx, url))
	out, err = echo.Execute(ctx, json.RawMessage(`{"text":"b"}`), c)
	require.NoError(t, err)
	require.JSONEq(t, `"b"`, string(out))
	require.Len(t, pool.SessionsForTest(), 1)
	require.NotEqual(t, first, pool.SessionsForTest(), "a new session replaced the one the server ended")
}

// BenchmarkCall measures one tools/call over the pooled session against the Go test server
// process (text result).
func BenchmarkCall(b *testing.B) {
	ctx := context.Background()
	cfg := mcp.Config{URL: mcptest.StartGo(b, "")}
	var pool mcp.Pool
	defer pool.Close()
	echo, _ := echoTool(b, cfg, &pool)
	c := toolcall.Call{RunID: "r", CallID: 1, Key: "r:1", Path: "m.echo"}
	b.ResetTimer()
	for b.Loop() {
		if _, err := echo.Execute(ctx, json.RawMessage(`{"text":"a"}`), c); err != nil {
			b.Fatal(err)
		}
	}
}
