package runengine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

func toolPaths(rt *run.Runtime) []string {
	var paths []string
	for _, d := range rt.Catalog() {
		paths = append(paths, d.Path)
	}
	return paths
}

func TestRuntimesAreSharedPerToolsetVersion(t *testing.T) {
	t.Parallel()
	tools := toolsettest.New(t, toolsettest.Options{})
	e := newTestEngine(Config{Egress: egress.Local()})
	ctx := context.Background()
	ops := durable.Toolset{Name: "ops", URL: tools.URL, Manifest: json.RawMessage(toolsettest.Manifest)}
	one := json.RawMessage(`{"tools": [{"path": "only.one", "description": "The one tool."}]}`)

	first, err := e.runtime(ctx, []durable.Toolset{ops})
	require.NoError(t, err)
	again, err := e.runtime(ctx, []durable.Toolset{ops})
	require.NoError(t, err)
	require.Same(t, first, again, "same toolsets, same runtime")

	changed := ops
	changed.Manifest = one
	other, err := e.runtime(ctx, []durable.Toolset{changed})
	require.NoError(t, err)
	require.NotSame(t, first, other, "a re-registered toolset gets a new runtime")
	require.Equal(t, []string{"ops.only.one", "time.sleep", "time.sleepUntil"}, toolPaths(other), "its tools and the built-in timers")

	resigned := ops
	resigned.Secret = "whsec_" + "c2VjcmV0c2VjcmV0c2VjcmV0"
	signed, err := e.runtime(ctx, []durable.Toolset{resigned})
	require.NoError(t, err)
	require.NotSame(t, first, signed, "a new secret gets a new runtime")

	none, err := e.runtime(ctx, nil)
	require.NoError(t, err)
	require.Equal(t, []string{"time.sleep", "time.sleepUntil"}, toolPaths(none), "only the built-in timers")

	// Without a stored manifest the tools are read from the URL at every run.
	live := ops
	live.Manifest = nil
	a, err := e.runtime(ctx, []durable.Toolset{live})
	require.NoError(t, err)
	b, err := e.runtime(ctx, []durable.Toolset{live})
	require.NoError(t, err)
	require.NotSame(t, a, b)
	require.Equal(t, toolPaths(first), toolPaths(a))
}

func TestRuntimeCacheIsBounded(t *testing.T) {
	t.Parallel()
	var c runtimeCache
	rt, err := run.New(run.Options{})
	require.NoError(t, err)
	for i := range maxCachedRuntimes + 10 {
		key, ok := runtimeKey(nil, []durable.Toolset{{Name: "t", Manifest: json.RawMessage(`{"tools":[]}`), URL: string(rune('a' + i))}})
		require.True(t, ok)
		c.put(key, rt)
	}
	require.Len(t, c.entries, maxCachedRuntimes)
	require.Len(t, c.order, maxCachedRuntimes)
}

// BenchmarkRuntimeCached measures what a run pays to find its runtime in the cache: the
// toolsets are the test toolset's, in copies of their own as the store hands them to each run.
func BenchmarkRuntimeCached(b *testing.B) {
	tools := toolsettest.New(b, toolsettest.Options{})
	e := newTestEngine(Config{Egress: egress.Local()})
	ctx := context.Background()
	ts := durable.Toolset{Name: "loadgen", URL: tools.URL, Manifest: json.RawMessage(toolsettest.Manifest)}
	first, err := e.runtime(ctx, []durable.Toolset{ts})
	if err != nil {
		b.Fatal(err)
	}
	copies := make([][]durable.Toolset, 64)
	for i := range copies {
		fresh := ts
		fresh.URL = strings.Clone(ts.URL)
		fresh.Manifest = append(json.RawMessage(nil), ts.Manifest...)
		copies[i] = []durable.Toolset{fresh}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		rt, err := e.runtime(ctx, copies[i%len(copies)])
		if err != nil || rt != first {
			b.Fatalf("runtime %p, %v", rt, err)
		}
		i++
	}
}
