package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// memFS is an extension "fs" over files in memory: fs.readFile and fs.promises.readFile,
// fs.readBytes, fs.open returning a handle whose read and close are functions, and a few
// functions for the edge cases. With hooks, its handles survive a save and restore.
type memFS struct {
	files    map[string]string
	release  chan struct{} // fs.promises.wait returns once it is closed
	rejected chan struct{} // closed as fs.promises.reject returns

	mu       sync.Mutex
	encoded  int
	decoded  int
	encodeOK bool
	greeters map[*Func]string // the functions fs.greeter returned, by the name they greet
}

// greeter is what fs.greeter returns: a function itself.
func (m *memFS) greeter(name string) *Func {
	f := AsyncFunc(func(context.Context, []any) (any, error) { return "hello " + name, nil })
	m.mu.Lock()
	m.greeters[f] = name
	m.mu.Unlock()
	return f
}

func newMemFS() *memFS {
	return &memFS{files: map[string]string{"a.txt": "hello", "b.txt": "bye"}, encodeOK: true, release: make(chan struct{}), rejected: make(chan struct{}), greeters: map[*Func]string{}}
}

func (m *memFS) read(path any) (any, error) {
	p, _ := path.(string)
	s, ok := m.files[p]
	if !ok {
		return nil, fmt.Errorf("ENOENT: no such file or directory, open '%s'", p)
	}
	return s, nil
}

// handle is what fs.open returns: data and functions.
func (m *memFS) handle(path string) map[string]any {
	return map[string]any{
		"path": path,
		"read": SyncFunc(func(context.Context, []any) (any, error) { return m.read(path) }),
		"close": AsyncFunc(func(context.Context, []any) (any, error) {
			return map[string]any{"closed": path}, nil
		}),
	}
}

func arg(args []any, i int) any {
	if i < len(args) {
		return args[i]
	}
	return nil
}

func (m *memFS) extension(hooks bool) Extension {
	x := Extension{Name: "fs", Value: map[string]any{
		"readFile": SyncFunc(func(_ context.Context, args []any) (any, error) { return m.read(arg(args, 0)) }),
		"readBytes": SyncFunc(func(_ context.Context, args []any) (any, error) {
			s, err := m.read(arg(args, 0))
			b, _ := s.(string)
			return []byte(b), err
		}),
		"echo": SyncFunc(func(_ context.Context, args []any) (any, error) { return args, nil }),
		"bad":  SyncFunc(func(context.Context, []any) (any, error) { return make(chan int), nil }),
		"open": SyncFunc(func(_ context.Context, args []any) (any, error) {
			if _, err := m.read(arg(args, 0)); err != nil {
				return nil, err
			}
			return m.handle(arg(args, 0).(string)), nil
		}),
		"constants": map[string]any{"F_OK": 0},
		"greeter": SyncFunc(func(_ context.Context, args []any) (any, error) {
			name, _ := arg(args, 0).(string)
			return m.greeter(name), nil
		}),
		// fs.rejected waits until fs.promises.reject has returned, and a little more for its
		// outcome to reach the run.
		"rejected": SyncFunc(func(context.Context, []any) (any, error) {
			<-m.rejected
			time.Sleep(50 * time.Millisecond)
			return nil, nil
		}),
		"promises": map[string]any{
			"readFile": AsyncFunc(func(_ context.Context, args []any) (any, error) { return m.read(arg(args, 0)) }),
			"reject": AsyncFunc(func(context.Context, []any) (any, error) {
				defer close(m.rejected)
				return nil, errors.New("rejected on purpose")
			}),
			"wait": AsyncFunc(func(ctx context.Context, _ []any) (any, error) {
				select {
				case <-m.release:
					return "released", nil
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}),
		},
	}}
	if hooks {
		x.Snapshot = &SnapshotHooks{
			Encode: func(v any) (any, error) {
				m.mu.Lock()
				defer m.mu.Unlock()
				m.encoded++
				if !m.encodeOK {
					return nil, errors.New("handles cannot be saved today")
				}
				if f, ok := v.(*Func); ok {
					return []any{"greeter", m.greeters[f]}, nil
				}
				h := v.(map[string]any)
				return map[string]any{"path": h["path"], "raw": []byte(h["path"].(string))}, nil
			},
			Decode: func(data any) (any, error) {
				m.mu.Lock()
				m.decoded++
				m.mu.Unlock()
				if g, ok := data.([]any); ok {
					return m.greeter(g[1].(string)), nil
				}
				d := data.(map[string]any)
				if string(d["raw"].([]byte)) != d["path"] {
					return nil, errors.New("the byte array did not survive")
				}
				return m.handle(d["path"].(string)), nil
			},
		}
	}
	return x
}

// fetchExt is a global function: fetch(url) answers {status, body}.
func fetchExt() Extension {
	return Extension{Name: "fetch", Value: AsyncFunc(func(_ context.Context, args []any) (any, error) {
		u, _ := arg(args, 0).(string)
		if !strings.HasPrefix(u, "https://") {
			return nil, fmt.Errorf("fetch failed: %s is not https", u)
		}
		return map[string]any{"status": 200, "body": "got " + u}, nil
	})}
}

// hookLog records the extension hooks' calls.
type hookLog struct {
	mu    sync.Mutex
	lines []string
	deny  string // a name the before-hook denies
}

func (l *hookLog) hooks() Hooks {
	return Hooks{
		ExtensionBefore: func(_ context.Context, c ExtensionCall) error {
			l.add(fmt.Sprintf("before %s %s %s", c.Extension, c.Name, hookJSON(c.Args)))
			if c.Name == l.deny {
				return errors.New("not today")
			}
			return nil
		},
		ExtensionAfter: func(_ context.Context, c ExtensionCall, v any, err error) {
			if err != nil {
				l.add(fmt.Sprintf("after %s error %s", c.Name, err))
				return
			}
			l.add(fmt.Sprintf("after %s %s", c.Name, hookJSON(v)))
		},
	}
}

func (l *hookLog) add(s string) {
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
}

func hookJSON(v any) string {
	if m, ok := v.(map[string]any); ok {
		// handles hold functions: show their data members only
		plain := map[string]any{}
		for k, x := range m {
			if _, fn := x.(*Func); !fn {
				plain[k] = x
			}
		}
		v = plain
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// extRuntime makes a runtime with the test tools of setup and the extensions, in the given mode.
func extRuntime(t *testing.T, roundTrip bool, limits Limits, hooks Hooks, exts ...Extension) *Runtime {
	t.Helper()
	b, _ := setup(t, limits, Hooks{})
	opts := b.rt.opts
	opts.Extensions = exts
	opts.Hooks = hooks
	opts.RoundTrip = roundTrip || envRoundTrip
	rt, err := New(opts)
	require.NoError(t, err)
	return rt
}

// bothModes runs f in process and with Options.RoundTrip.
func bothModes(t *testing.T, f func(t *testing.T, roundTrip bool)) {
	for _, rtMode := range []bool{false, true} {
		t.Run(fmt.Sprintf("roundtrip=%v", rtMode), func(t *testing.T) {
			t.Parallel()
			f(t, rtMode)
		})
	}
}

func runExt(t *testing.T, rt *Runtime, src string) *Result {
	t.Helper()
	e, err := rt.Execute(context.Background(), src, ExecOptions{RunID: "r1"})
	require.NoError(t, err)
	return resultOf(t, e)
}

func TestExtensions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, want string
		err             string // the run's error message, when it fails
	}{
		{name: "sync function", src: `return fs.readFile("a.txt")`, want: `"hello"`},
		{name: "async function", src: `const p = fs.promises.readFile("b.txt"); return [p instanceof Promise, await p]`, want: `[true, "bye"]`},
		{name: "global function", src: `const r = await fetch("https://example.test/x"); return r`, want: `{"status": 200, "body": "got https://example.test/x"}`},
		{name: "constant data", src: `return fs.constants.F_OK`, want: `0`},
		{name: "sync failure throws an Error", src: `try { fs.readFile("nope") } catch (e) { return [e instanceof Error, e.message] }`,
			want: `[true, "ENOENT: no such file or directory, open 'nope'"]`},
		{name: "async failure rejects", src: `try { await fs.promises.readFile("nope"); return "no" } catch (e) { return [e instanceof Error, e.message] }`,
			want: `[true, "ENOENT: no such file or directory, open 'nope'"]`},
		{name: "uncaught failure ends the run", src: `fs.readFile("nope")`, err: "uncaught Error: ENOENT: no such file or directory, open 'nope' (line 1, column 4)"},
		{name: "global function failure", src: `return await fetch("http://x").catch(e => e.message)`, want: `"fetch failed: http://x is not https"`},
		{name: "bytes", src: `const b = fs.readBytes("a.txt"); return [b instanceof Uint8Array, Array.from(b)]`, want: `[true, [104, 101, 108, 108, 111]]`},
		{name: "bytes round trip", src: `const b = fs.echo(new TextEncoder().encode("hé"), [1])[0]; return [b instanceof Uint8Array, new TextDecoder().decode(b)]`, want: `[true, "hé"]`},
		{name: "nested bytes are JSON data", src: `return fs.echo({b: Uint8Array.of(7, 8)})`, want: `[{"b": {"0": 7, "1": 8}}]`},
		{name: "arguments are copies", src: `const o = {a: [1]}; const [r] = fs.echo(o, undefined); r.a.push(2); return [o, r, fs.echo(1, undefined, "x")]`,
			want: `[{"a": [1]}, {"a": [1, 2]}, [1, null, "x"]]`},
		{name: "an argument that is no data", src: `try { fs.echo(() => 1) } catch (e) { return e.message }`,
			want: `"fs.echo: a function at argument 1 is not data"`},
		{name: "a result that is no data", src: `try { fs.bad() } catch (e) { return e.message }`,
			want: `"the result of fs.bad cannot be copied into the program: a Go chan int is not a value (functions are *run.Func)"`},
		{name: "functions inside a returned value", src: `const h = fs.open("a.txt"); const c = await h.close(); return [h.path, h.read(), c, typeof h.read, h.read.name]`,
			want: `["a.txt", "hello", {"closed": "a.txt"}, "function", "read"]`},
		{name: "a returned function", src: `const g = fs.greeter("ana"); const first = await g(); await tools.util.sleep({ms: 1}); return [typeof g, first, await g()]`,
			want: `["function", "hello ana", "hello ana"]`},
		{name: "imports", src: `import fs2, { readFile } from "node:fs"
import { readFile as readAsync } from "fs/promises"
import * as ns from "fs"
const req = require("node:fs")
const dyn = await import("fs")
return [readFile("a.txt"), await readAsync("b.txt"), fs2 === fs, ns === fs, req === fs, dyn === fs, typeof require("fetch")]`,
			want: `["hello", "bye", true, true, true, true, "function"]`},
		{name: "unknown module", src: `try { require("path") } catch (e) { return e.message }`,
			want: `"Cannot find module 'path'. A program has no module system: a module is one of the runtime's globals, by its name with or without \"node:\". Available modules: fetch, fs, fs/promises, url, util"`},
		{name: "extension calls are not tool calls", src: `fs.readFile("a.txt"); await fs.promises.readFile("a.txt"); await fetch("https://a"); return (await tools.math.add({a: 1, b: 2})).sum`, want: `3`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bothModes(t, func(t *testing.T, roundTrip bool) {
				m := newMemFS()
				rt := extRuntime(t, roundTrip, Limits{MaxToolCalls: 1}, Hooks{}, m.extension(true), fetchExt())
				res := runExt(t, rt, tc.src)
				if tc.err != "" {
					require.False(t, res.OK)
					require.Equal(t, tc.err, res.Error.Message)
					return
				}
				require.True(t, res.OK, "%+v", res.Error)
				require.JSONEq(t, tc.want, string(res.Value))
				for _, c := range res.ToolCalls {
					require.Contains(t, []string{"math.add", "util.sleep"}, c.Path, "only tools are recorded as tool calls")
				}
			})
		})
	}
}

// The hooks see every extension call with its name and arguments, and how it ended; a
// before-hook's error denies the call.
func TestExtensionHooks(t *testing.T) {
	t.Parallel()
	bothModes(t, func(t *testing.T, roundTrip bool) {
		m := newMemFS()
		log := &hookLog{deny: "fs.promises.readFile"}
		rt := extRuntime(t, roundTrip, Limits{}, log.hooks(), m.extension(true), fetchExt())
		res := runExt(t, rt, `const h = fs.open("a.txt")
const out = [h.read(), await fetch("https://x")]
try { fs.readFile("zz") } catch (e) { out.push(e.message) }
try { await fs.promises.readFile("a.txt") } catch (e) { out.push(e.message) }
return out`)
		require.True(t, res.OK, "%+v", res.Error)
		require.JSONEq(t, `["hello", {"status": 200, "body": "got https://x"}, "ENOENT: no such file or directory, open 'zz'", "call denied: not today"]`, string(res.Value))
		require.Equal(t, []string{
			`before fs fs.open ["a.txt"]`,
			`after fs.open {"path":"a.txt"}`,
			`before fs fs.open().read []`,
			`after fs.open().read "hello"`,
			`before fetch fetch ["https://x"]`,
			`after fetch {"body":"got https://x","status":200}`,
			`before fs fs.readFile ["zz"]`,
			`after fs.readFile error ENOENT: no such file or directory, open 'zz'`,
			`before fs fs.promises.readFile ["a.txt"]`,
			`after fs.promises.readFile error call denied: not today`,
		}, log.lines)
	})
	t.Run("a denied sync call throws", func(t *testing.T) {
		t.Parallel()
		log := &hookLog{deny: "fs.readFile"}
		rt := extRuntime(t, false, Limits{}, log.hooks(), newMemFS().extension(false))
		res := runExt(t, rt, `try { fs.readFile("a.txt") } catch (e) { return e.message }`)
		require.JSONEq(t, `"call denied: not today"`, string(res.Value))
	})
}

// New refuses extensions that would shadow a global, each other, or are malformed.
func TestExtensionNames(t *testing.T) {
	t.Parallel()
	f := SyncFunc(func(context.Context, []any) (any, error) { return nil, nil })
	for _, tc := range []struct {
		exts []Extension
		err  string
	}{
		{[]Extension{{Name: "JSON", Value: f}}, `extension "JSON": it would shadow the language's global JSON`},
		{[]Extension{{Name: "Math", Value: f}}, `extension "Math": it would shadow the language's global Math`},
		{[]Extension{{Name: "console", Value: f}}, `extension "console": it would shadow the language's global console`},
		{[]Extension{{Name: "require", Value: f}}, `extension "require": it would shadow the language's global require`},
		{[]Extension{{Name: "tools", Value: f}}, `extension "tools": the runtime's global tools cannot be replaced`},
		{[]Extension{{Name: "input", Value: f}}, `extension "input": the runtime's global input cannot be replaced`},
		{[]Extension{{Name: "fs", Value: f}, {Name: "fs", Value: f}}, `extension "fs": another extension has the same name`},
		{[]Extension{{Name: "a-b", Value: f}}, `extension "a-b": the name must be an identifier`},
		{[]Extension{{Name: "fs", Value: map[string]any{"c": make(chan int)}}}, `extension "fs": fs.c: a chan int is no value a program can be given (functions are *run.Func): json: unsupported type: chan int`},
		{[]Extension{{Name: "fs", Value: map[string]any{"f": Func{}}}}, `extension "fs": fs.f: a run.Func is no value a program can be given (functions are *run.Func): json: unsupported type: func(context.Context, []interface {}) (interface {}, error)`},
		{[]Extension{{Name: "fs", Value: map[string]any{"x": &Func{}}}}, `extension "fs": function fs.x has no Call`},
		{[]Extension{{Name: "fs", Value: f, Snapshot: &SnapshotHooks{Encode: func(any) (any, error) { return nil, nil }}}}, `extension "fs": snapshot hooks need both Encode and Decode`},
	} {
		_, err := New(Options{Extensions: tc.exts})
		require.EqualError(t, err, tc.err)
	}
}

// approvalProgramExt opens a handle, waits for an approval (the run suspends), then reads
// through the handle.
const approvalProgramExt = `const h = fs.open("a.txt")
const ok = await tools.approvals.request({what: "read"})
try { return [ok, h.read(), await h.close()] } catch (e) { return [ok, e.name, e.message] }`

func suspendExt(t *testing.T, rt *Runtime) *Suspension {
	t.Helper()
	e, err := rt.Execute(context.Background(), approvalProgramExt, ExecOptions{RunID: "r1"})
	require.NoError(t, err)
	require.Equal(t, StateSuspended, e.State())
	s, err := e.Suspend()
	require.NoError(t, err)
	return s
}

var approved = []OutcomeFor{{Key: "r1:1", Outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`"yes"`)}}}

// With snapshot hooks, functions inside returned values survive a suspend and resume: Encode
// and Decode are called once per value; without, calling them throws a TypeError.
func TestExtensionValuesAcrossSuspend(t *testing.T) {
	t.Parallel()
	t.Run("with hooks", func(t *testing.T) {
		t.Parallel()
		bothModes(t, func(t *testing.T, roundTrip bool) {
			m := newMemFS()
			s := suspendExt(t, extRuntime(t, roundTrip, Limits{}, Hooks{}, m.extension(true)))
			encodedAtSuspend := m.encoded
			require.Positive(t, encodedAtSuspend)
			m2 := newMemFS()
			e, err := extRuntime(t, roundTrip, Limits{}, Hooks{}, m2.extension(true)).Resume(context.Background(), s.State, approved, ExecOptions{})
			require.NoError(t, err)
			res := resultOf(t, e)
			require.True(t, res.OK, "%+v", res.Error)
			require.JSONEq(t, `["yes", "hello", {"closed": "a.txt"}]`, string(res.Value))
			require.Positive(t, m2.decoded)
			if !roundTrip && !envRoundTrip {
				require.Equal(t, 1, encodedAtSuspend, "one value, one Encode")
				require.Equal(t, 1, m2.decoded, "one value, one Decode")
			}
		})
	})
	t.Run("without hooks", func(t *testing.T) {
		t.Parallel()
		bothModes(t, func(t *testing.T, roundTrip bool) {
			s := suspendExt(t, extRuntime(t, roundTrip, Limits{}, Hooks{}, newMemFS().extension(false)))
			e, err := extRuntime(t, roundTrip, Limits{}, Hooks{}, newMemFS().extension(false)).Resume(context.Background(), s.State, approved, ExecOptions{})
			require.NoError(t, err)
			res := resultOf(t, e)
			require.True(t, res.OK, "%+v", res.Error)
			require.JSONEq(t, `["yes", "TypeError", "fs.open().read is no longer callable: the run was saved and restored, and extension \"fs\" has no snapshot hooks to restore the value it belongs to"]`, string(res.Value))
		})
	})
	t.Run("a state saved with hooks needs them", func(t *testing.T) {
		t.Parallel()
		s := suspendExt(t, extRuntime(t, false, Limits{}, Hooks{}, newMemFS().extension(true)))
		for _, rt := range []*Runtime{
			extRuntime(t, false, Limits{}, Hooks{}, newMemFS().extension(false)),
			extRuntime(t, false, Limits{}, Hooks{}),
		} {
			_, err := rt.Resume(context.Background(), s.State, approved, ExecOptions{})
			var se *SnapshotError
			require.ErrorAs(t, err, &se)
			require.Equal(t, `SnapshotError: the state holds a value of extension "fs" (fs.open()) saved by its snapshot hooks; this runtime has no extension "fs" with snapshot hooks`, err.Error())
		}
	})
	t.Run("a failing Encode fails the suspend and harms nothing", func(t *testing.T) {
		t.Parallel()
		m := newMemFS()
		m.encodeOK = false
		e, err := extRuntime(t, false, Limits{}, Hooks{}, m.extension(true)).Execute(context.Background(), approvalProgramExt, ExecOptions{RunID: "r1"})
		require.NoError(t, err)
		require.Equal(t, StateSuspended, e.State())
		_, err = e.Suspend()
		require.ErrorIs(t, err, ErrExtensionState)
		require.EqualError(t, err, `extension state cannot be saved: extension "fs" cannot encode the value of fs.open(): handles cannot be saved today`)
		m.encodeOK = true
		s, err := e.Suspend()
		require.NoError(t, err)
		require.Len(t, s.Pending, 1)
	})
}

// Without hooks a value's functions work until the run is saved and restored: in process
// they still work after waiting on a tool; in roundtrip mode the wait restored the run.
func TestExtensionValuesWithoutHooksInOneDrive(t *testing.T) {
	t.Parallel()
	bothModes(t, func(t *testing.T, roundTrip bool) {
		rt := extRuntime(t, roundTrip, Limits{}, Hooks{}, newMemFS().extension(false))
		res := runExt(t, rt, `const h = fs.open("b.txt")
await tools.util.sleep({ms: 1})
try { return h.read() } catch (e) { return e.name }`)
		require.True(t, res.OK, "%+v", res.Error)
		if roundTrip || envRoundTrip {
			require.JSONEq(t, `"TypeError"`, string(res.Value))
		} else {
			require.JSONEq(t, `"bye"`, string(res.Value))
		}
	})
}

// A journaled run does not checkpoint while an extension call is in progress or when Encode
// fails (the run goes on, the log names the reason), and checkpoints again once it can.
func TestCheckpointsWithExtensions(t *testing.T) {
	t.Parallel()
	m := newMemFS()
	var logs strings.Builder
	var mu sync.Mutex
	b, _ := setup(t, Limits{}, Hooks{})
	opts := b.rt.opts
	opts.Extensions = []Extension{m.extension(true)}
	opts.Logger = newTestLogger(&mu, &logs)
	rt, err := New(opts)
	require.NoError(t, err)
	rec := newRecorder()
	e, err := rt.Execute(context.Background(), `const w = fs.promises.wait()
const a = await tools.math.add({a: 1, b: 2})
const r = await w
const b = await tools.math.add({a: 3, b: 4})
return [a.sum, r, b.sum]`, ExecOptions{RunID: "r1", Journal: &releasingJournal{recorder: rec, release: m.release}})
	require.NoError(t, err)
	res := resultOf(t, e)
	require.True(t, res.OK, "%+v", res.Error)
	require.JSONEq(t, `[3, "released", 7]`, string(res.Value))
	rec.mu.Lock()
	n := len(rec.checkpoints)
	rec.mu.Unlock()
	require.Equal(t, 1, n, "the first settled batch was not checkpointed, the second was")
	mu.Lock()
	require.Contains(t, logs.String(), "extension calls in progress: fs.promises.wait")
	mu.Unlock()
}

// lockedWriter serialises writes to a strings.Builder.
type lockedWriter struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func newTestLogger(mu *sync.Mutex, b *strings.Builder) *slog.Logger {
	return slog.New(slog.NewTextHandler(lockedWriter{mu: mu, b: b}, nil))
}

// releasingJournal releases fs.promises.wait when the first call settles: the run decides
// whether to checkpoint that batch while the wait is still in progress.
type releasingJournal struct {
	*recorder
	once    sync.Once
	release chan struct{}
}

func (j *releasingJournal) CallSettled(ctx context.Context, c toolcall.Call, o toolcall.Outcome) error {
	j.once.Do(func() { close(j.release) })
	return j.recorder.CallSettled(ctx, c, o)
}

// A synchronous call holds the program up: its context ends with the run's time limit.
func TestSyncExtensionCallEndsWithTheTimeLimit(t *testing.T) {
	t.Parallel()
	bothModes(t, func(t *testing.T, roundTrip bool) {
		block := Extension{Name: "block", Value: SyncFunc(func(ctx context.Context, _ []any) (any, error) {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(10 * time.Second):
				return "the context did not end", nil
			}
		})}
		rt := extRuntime(t, roundTrip, Limits{TimeoutMs: 100}, Hooks{}, block)
		start := time.Now()
		res := runExt(t, rt, `try { return block() } catch (e) { return e.message }`)
		require.Less(t, time.Since(start), 5*time.Second)
		require.False(t, res.OK, "%s", res.Value)
		require.Equal(t, KindTimeoutExceeded, res.Error.Kind)
	})
}

// Asynchronous calls that settle after the program returned are handed to it like tool calls:
// a rejection nobody handled is a warning; nothing waits for calls still running.
func TestExtensionCallsLeftWhenTheProgramReturns(t *testing.T) {
	t.Parallel()
	bothModes(t, func(t *testing.T, roundTrip bool) {
		m := newMemFS()
		rt := extRuntime(t, roundTrip, Limits{}, Hooks{}, m.extension(true))
		res := runExt(t, rt, `fs.promises.reject(); fs.promises.wait(); fs.rejected(); return 1`)
		require.True(t, res.OK, "%+v", res.Error)
		require.JSONEq(t, `1`, string(res.Value))
		require.Len(t, res.Warnings, 1, "%+v", res.Warnings)
		require.Contains(t, res.Warnings[0].Message, "rejected on purpose")
	})
}

// An asynchronous extension call in progress holds the suspend back: a run waiting on an
// approval does not suspend until the call has settled (its result could not be saved), then
// suspends, and the resumed run has the call's result.
func TestAsyncExtensionCallHoldsTheSuspendBack(t *testing.T) {
	t.Parallel()
	bothModes(t, func(t *testing.T, roundTrip bool) {
		m := newMemFS()
		rt := extRuntime(t, roundTrip, Limits{}, Hooks{}, m.extension(true))
		const src = `const w = fs.promises.wait()
const ok = await tools.approvals.request({what: "read"})
return [ok, await w]`
		type executed struct {
			e   *Execution
			err error
		}
		done := make(chan executed, 1)
		go func() {
			e, err := rt.Execute(context.Background(), src, ExecOptions{RunID: "r1"})
			done <- executed{e, err}
		}()
		select {
		case x := <-done:
			t.Fatalf("the run stopped (%v, %v) while fs.promises.wait was in progress", x.e.State(), x.err)
		case <-time.After(300 * time.Millisecond):
		}
		close(m.release)
		x := <-done
		require.NoError(t, x.err)
		require.Equal(t, StateSuspended, x.e.State())
		s, err := x.e.Suspend()
		require.NoError(t, err)
		e2, err := rt.Resume(context.Background(), s.State, approved, ExecOptions{})
		require.NoError(t, err)
		res := resultOf(t, e2)
		require.True(t, res.OK, "%+v", res.Error)
		require.JSONEq(t, `["yes", "released"]`, string(res.Value))
	})
}
