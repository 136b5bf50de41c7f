package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/codemode/codemode/internal/interp"
)

// Extension is a global of the embedder's own that programs call directly (fetch(url),
// fs.readFile(path)), unlike tools: extensions are not in the catalog, not described to the
// model, not counted against maxToolCalls and not journaled as tool calls. A program may also
// reach one as a Node module by its name (import fs from "node:fs", require("fs"); see
// docs/language.md).
//
// Values cross the boundary as copies. A function's arguments are the program's values copied
// as JSON data (nil, bool, float64, string, []any, map[string]any), except that an argument
// that is a Uint8Array arrives as a []byte (inside other values a Uint8Array is data as
// JSON.stringify writes it: an object of its elements); what it returns is copied into the
// program and may be any of those, another number type, []byte (a Uint8Array), json.RawMessage, a value encoding/json can marshal, or a *Func: a function inside a
// returned value is callable from the program like the extension's own, and its calls go
// through the same hooks, named after the call that returned it ("fs.open().read").
//
// A returned value holding functions has no data form: once the run is saved and restored
// (Suspend and Resume, or Options.RoundTrip), calling its functions throws a TypeError,
// unless the extension has SnapshotHooks.
type Extension struct {
	// Name is the global: an identifier that is not already a global of the language
	// (JSON, Math, console, ...) or of the runtime (tools, search, input, require).
	Name string
	// Value is what the global holds: a *Func, or a map[string]any whose values are *Func,
	// nested maps and constant data (fs with fs.readFile and fs.promises.readFile).
	Value any
	// Snapshot, when set, carries the values holding functions that the extension returned
	// across a save and restore.
	Snapshot *SnapshotHooks
}

// Func is a host function of an extension.
type Func struct {
	// Async makes calls return a promise, settled when Call returns (Call runs in its own
	// goroutine); a synchronous Call runs on the goroutine driving the run, which waits.
	Async bool
	// Call is the function. An error makes a synchronous call throw, and an asynchronous
	// call's promise reject, with an Error carrying the error's message.
	Call func(ctx context.Context, args []any) (any, error)
}

// SyncFunc returns a synchronous Func.
func SyncFunc(call func(ctx context.Context, args []any) (any, error)) *Func {
	return &Func{Call: call}
}

// AsyncFunc returns an asynchronous Func.
func AsyncFunc(call func(ctx context.Context, args []any) (any, error)) *Func {
	return &Func{Async: true, Call: call}
}

// SnapshotHooks turn values an extension returned into plain data and back, so that the
// functions inside them stay callable after the run is saved and restored. Each is called
// once per value per save or restore.
type SnapshotHooks struct {
	// Encode returns the data standing for value: nil, bool, numbers, string, []byte, []any
	// and map[string]any. An error fails the save (Suspend returns it; a checkpoint is
	// skipped) and leaves the run as it was.
	Encode func(value any) (any, error)
	// Decode returns a value of the same shape as the one encoded (its functions at the same
	// places) from data.
	Decode func(data any) (any, error)
}

// ExtensionCall describes a call of an extension function, for the hooks.
type ExtensionCall struct {
	// Extension is the extension's global name ("fs").
	Extension string
	// Name is the function's path as the program reaches it: "fs.readFile",
	// "fs.promises.readFile", or "fs.open().read" for a function inside a returned value.
	Name string
	// Args are copies of the program's arguments.
	Args []any
}

// ErrExtensionState is wrapped by a save that extension state prevents: an extension's Encode
// failed, or extension calls were still in progress.
var ErrExtensionState = errors.New("extension state cannot be saved")

// runtimeGlobals are the globals the runtime itself defines besides the language's.
var runtimeGlobals = []string{"tools", "search", "input"}

// extensionSet is a runtime's extensions, checked, with their functions by host function id.
type extensionSet struct {
	byName map[string]*Extension
	names  []string         // sorted
	funcs  map[string]*Func // "ext:<path>" → the function of the extension's Value
}

// newExtensionSet checks the extensions: names that are identifiers and shadow no global,
// values made of functions, maps and data, and complete snapshot hooks.
func newExtensionSet(exts []Extension) (*extensionSet, error) {
	set := &extensionSet{byName: map[string]*Extension{}, funcs: map[string]*Func{}}
	if len(exts) == 0 {
		return set, nil
	}
	probe := interp.New(interp.Config{})
	global := probe.Global()
	for i := range exts {
		x := &exts[i]
		switch {
		case !identifierRE.MatchString(x.Name):
			return nil, fmt.Errorf("extension %q: the name must be an identifier", x.Name)
		case set.byName[x.Name] != nil:
			return nil, fmt.Errorf("extension %q: another extension has the same name", x.Name)
		case slices.Contains(runtimeGlobals, x.Name):
			return nil, fmt.Errorf("extension %q: the runtime's global %s cannot be replaced", x.Name, x.Name)
		}
		if v, _ := probe.Get(global, x.Name); !v.IsUndefined() || x.Name == "undefined" {
			return nil, fmt.Errorf("extension %q: it would shadow the language's global %s", x.Name, x.Name)
		}
		if x.Snapshot != nil && (x.Snapshot.Encode == nil || x.Snapshot.Decode == nil) {
			return nil, fmt.Errorf("extension %q: snapshot hooks need both Encode and Decode", x.Name)
		}
		if err := checkValue(x.Value, x.Name, 0); err != nil {
			return nil, fmt.Errorf("extension %q: %w", x.Name, err)
		}
		if err := walkFuncs(x.Value, x.Name, 0, func(path string, f *Func) error {
			if f.Call == nil {
				return fmt.Errorf("extension %q: function %s has no Call", x.Name, path)
			}
			set.funcs[hostExtPrefix+path] = f
			return nil
		}); err != nil {
			return nil, err
		}
		set.byName[x.Name] = x
		set.names = append(set.names, x.Name)
	}
	slices.Sort(set.names)
	return set, nil
}

// walkFuncs calls fn for every function in v, with its path from base: ".key" for a map's
// member, "[i]" for a slice's element. Map keys are visited in sorted order.
func walkFuncs(v any, base string, depth int, fn func(path string, f *Func) error) error {
	if depth > MaxValueDepth {
		return fmt.Errorf("%s: nested more than %d levels deep", base, MaxValueDepth)
	}
	switch x := v.(type) {
	case *Func:
		if x == nil {
			return nil
		}
		return fn(base, x)
	case map[string]any:
		for _, k := range sortedKeys(x) {
			if err := walkFuncs(x[k], base+"."+k, depth+1, fn); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := walkFuncs(e, fmt.Sprintf("%s[%d]", base, i), depth+1, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkValue reports whether an extension's Value is made of functions, maps of them and data
// the program can be given a copy of.
func checkValue(v any, path string, depth int) error {
	if depth > MaxValueDepth {
		return fmt.Errorf("%s: nested more than %d levels deep", path, MaxValueDepth)
	}
	switch x := v.(type) {
	case *Func, nil, bool, string, float64, json.Number, json.RawMessage, []byte:
		return nil
	case map[string]any:
		for _, k := range sortedKeys(x) {
			if err := checkValue(x[k], path+"."+k, depth+1); err != nil {
				return err
			}
		}
		return nil
	case []any:
		for i, el := range x {
			if err := checkValue(el, fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32:
		return nil
	}
	if _, err := json.Marshal(v); err != nil {
		return fmt.Errorf("%s: a %T is no value a program can be given (functions are *run.Func): %w", path, v, err)
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// lastSegment is the function name of a path's last member ("readFile" of "fs.readFile").
func lastSegment(path string) string {
	if i := strings.LastIndexAny(path, ".["); i >= 0 {
		return strings.Trim(path[i+1:], "]")
	}
	return path
}
