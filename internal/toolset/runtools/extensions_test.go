package runtools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolset"
	"github.com/codemode/codemode/internal/toolset/runtools"
)

// extManifest declares a tool and two extensions: fs (readFile, promises.readFile) and fetch,
// a global async function.
const extManifest = `{"tools": [{"path": "echo"}],
 "extensions": [
  {"name": "fs", "functions": [{"path": "readFile"}, {"path": "promises.readFile", "async": true}]},
  {"name": "fetch", "async": true}
 ]}`

// extServer serves extManifest and answers extension calls over HTTP, recording them.
type extServer struct {
	url  string
	mu   sync.Mutex
	seen []string
}

func newExtServer(t *testing.T) *extServer {
	t.Helper()
	s := &extServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			_, _ = io.WriteString(w, extManifest)
			return
		}
		var req struct {
			Extension, Function, RunID string
			Args                       []any
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		s.mu.Lock()
		s.seen = append(s.seen, fmt.Sprintf("%s|%s|%v|%s|key=%q", req.Extension, req.Function, req.Args, req.RunID, r.Header.Get("Idempotency-Key")))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case req.Extension == "fetch":
			_ = json.NewEncoder(w).Encode(map[string]any{"output": map[string]any{"status": 200, "url": req.Args[0]}})
		case req.Args[0] == "secret.txt":
			w.WriteHeader(http.StatusForbidden)
			_, _ = io.WriteString(w, `{"error": {"message": "EACCES: permission denied"}}`)
		case req.Args[0] == "notes.txt":
			_ = json.NewEncoder(w).Encode(map[string]any{"output": "buy milk"})
		default:
			_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": fmt.Sprintf("ENOENT: %v", req.Args[0])}})
		}
	}))
	t.Cleanup(srv.Close)
	s.url = srv.URL
	return s
}

// A manifest's extensions become globals whose functions call the toolset over HTTP.
func TestManifestExtensions(t *testing.T) {
	t.Parallel()
	for _, roundTrip := range []bool{false, true} {
		t.Run(fmt.Sprintf("roundtrip=%v", roundTrip), func(t *testing.T) {
			t.Parallel()
			s := newExtServer(t)
			c, err := toolset.New(toolset.Config{URL: s.url, Name: "files", Backoff: fast})
			require.NoError(t, err)
			ts, err := runtools.LoadFrom(context.Background(), c)
			require.NoError(t, err)
			rt, err := run.New(run.Options{Tools: ts.Tools, Namespaces: ts.Namespaces, Extensions: ts.Extensions,
				RoundTrip: roundTrip || os.Getenv("CODEMODE_ROUNDTRIP") == "1"})
			require.NoError(t, err)
			e, err := rt.Execute(context.Background(), `import { readFile } from "node:fs/promises"
const out = [fs.readFile("notes.txt"), await readFile("notes.txt"), await fetch("https://x")]
try { fs.readFile("nope.txt") } catch (e) { out.push(e.message) }
try { await readFile("secret.txt") } catch (e) { out.push(e.message) }
return out`, run.ExecOptions{RunID: "r1"})
			require.NoError(t, err)
			res, done := e.Result()
			require.True(t, done)
			require.True(t, res.OK, "%+v", res.Error)
			require.JSONEq(t, `["buy milk", "buy milk", {"status": 200, "url": "https://x"}, "ENOENT: nope.txt", "EACCES: permission denied"]`, string(res.Value))
			require.Empty(t, res.ToolCalls)
			require.Equal(t, []string{
				`fs|readFile|[notes.txt]|r1|key=""`,
				`fs|promises.readFile|[notes.txt]|r1|key=""`,
				`fetch||[https://x]|r1|key=""`,
				`fs|readFile|[nope.txt]|r1|key=""`,
				`fs|promises.readFile|[secret.txt]|r1|key=""`,
			}, s.seen)
		})
	}
}

// The runtime's rules for extensions apply to a manifest's: names and paths it refuses make the
// manifest invalid.
func TestManifestExtensionsChecked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ manifest, err string }{
		{`{"tools": [], "extensions": [{"name": "JSON"}]}`, `extension "JSON": it would shadow the language's global JSON`},
		{`{"tools": [], "extensions": [{"name": "a", "async": true}, {"name": "a"}]}`, `extension "a": another extension has the same name`},
		{`{"tools": [], "extensions": [{"name": "fs", "functions": [{"path": "a"}, {"path": "a.b"}]}]}`, `extension fs: function path "a.b": a is a function`},
		{`{"tools": [], "extensions": [{"name": "fs", "functions": [{"path": "a..b"}]}]}`, `extension fs: function path "a..b" has an empty segment`},
		{`{"tools": [], "extensions": [{"name": "fs", "functions": [{"path": "x"}, {"path": "x"}]}]}`, `extension fs: function path "x" is declared twice, or is also an object of functions`},
	} {
		_, err := runtools.ParseManifest([]byte(tc.manifest))
		require.ErrorIs(t, err, toolset.ErrInvalidManifest)
		require.ErrorContains(t, err, tc.err)
	}
}

// The functions of a deleted toolset's extensions fail with the reason.
func TestUnreachableExtensions(t *testing.T) {
	t.Parallel()
	m, err := runtools.ParseManifest([]byte(extManifest))
	require.NoError(t, err)
	c, err := toolset.New(toolset.Config{URL: "http://deleted.invalid/"})
	require.NoError(t, err)
	exts := runtools.Unreachable(runtools.FromManifest(c, m).Extensions, fmt.Errorf("gone"))
	rt, err := run.New(run.Options{Extensions: exts})
	require.NoError(t, err)
	e, err := rt.Execute(context.Background(), `const out = []
try { fs.readFile("a") } catch (e) { out.push(e.message) }
await fs.promises.readFile("a").catch(e => out.push(e.message))
await fetch("a").catch(e => out.push(e.message))
return out`, run.ExecOptions{})
	require.NoError(t, err)
	res, _ := e.Result()
	require.JSONEq(t, `["gone", "gone", "gone"]`, string(res.Value))
}
