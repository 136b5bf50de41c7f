package runtools

import (
	"context"
	"fmt"
	"strings"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolset"
)

// Extensions a manifest declares become run.Extensions whose functions call the toolset
// (toolset.Client.CallExtension); they are globals, not mounted under the toolset's name.

// extensionsOf makes the extensions of a manifest, their functions made by fn.
func extensionsOf(m *toolset.Manifest, fn func(ext, path string, async bool) *run.Func) ([]run.Extension, error) {
	out := make([]run.Extension, 0, len(m.Extensions))
	for _, me := range m.Extensions {
		x := run.Extension{Name: me.Name}
		if len(me.Functions) == 0 {
			x.Value = fn(me.Name, "", me.Async)
			out = append(out, x)
			continue
		}
		tree := map[string]any{}
		for _, f := range me.Functions {
			if err := insertFunc(tree, f.Path, fn(me.Name, f.Path, f.Async)); err != nil {
				return nil, fmt.Errorf("extension %s: %w", me.Name, err)
			}
		}
		x.Value = tree
		out = append(out, x)
	}
	return out, nil
}

// insertFunc puts f at the dotted path in tree, making the maps on the way.
func insertFunc(tree map[string]any, path string, f *run.Func) error {
	segs := strings.Split(path, ".")
	for _, s := range segs {
		if s == "" {
			return fmt.Errorf("function path %q has an empty segment", path)
		}
	}
	node := tree
	for i, s := range segs[:len(segs)-1] {
		switch next := node[s].(type) {
		case nil:
			m := map[string]any{}
			node[s] = m
			node = m
		case map[string]any:
			node = next
		default:
			return fmt.Errorf("function path %q: %s is a function", path, strings.Join(segs[:i+1], "."))
		}
	}
	last := segs[len(segs)-1]
	if node[last] != nil {
		return fmt.Errorf("function path %q is declared twice, or is also an object of functions", path)
	}
	node[last] = f
	return nil
}

// checkExtensions reports whether the runtime accepts a manifest's extensions (see
// run.Extension): well-formed paths, names that are identifiers shadowing no global or each
// other.
func checkExtensions(m *toolset.Manifest) error {
	exts, err := extensionsOf(m, func(string, string, bool) *run.Func { return run.SyncFunc(noCall) })
	if err != nil {
		return err
	}
	if _, err := run.New(run.Options{Extensions: exts}); err != nil {
		return err
	}
	return nil
}

func noCall(context.Context, []any) (any, error) { return nil, nil }

// extensionFunc calls the toolset's extension function.
func extensionFunc(c *toolset.Client) func(ext, path string, async bool) *run.Func {
	return func(ext, path string, async bool) *run.Func {
		return &run.Func{Async: async, Call: func(ctx context.Context, args []any) (any, error) {
			out, err := c.CallExtension(ctx, ext, path, args, run.CallRunID(ctx))
			if err != nil {
				return nil, err
			}
			return out, nil
		}}
	}
}

// Unreachable returns copies of exts whose functions all fail with err (a toolset that can no
// longer be called).
func Unreachable(exts []run.Extension, err error) []run.Extension {
	fail := func(context.Context, []any) (any, error) { return nil, err }
	var redo func(v any) any
	redo = func(v any) any {
		switch x := v.(type) {
		case *run.Func:
			return &run.Func{Async: x.Async, Call: fail}
		case map[string]any:
			m := make(map[string]any, len(x))
			for k, el := range x {
				m[k] = redo(el)
			}
			return m
		}
		return v
	}
	out := make([]run.Extension, len(exts))
	for i, x := range exts {
		out[i] = run.Extension{Name: x.Name, Value: redo(x.Value), Snapshot: x.Snapshot}
	}
	return out
}
