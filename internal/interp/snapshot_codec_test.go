package interp

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// runWithSnapshots runs src pausing after every `every` instructions (MaxSteps),
// snapshotting (format 2) and restoring into a brand-new VM at each pause. It returns the
// completion like runProgram and the number of snapshots taken.
func runWithSnapshots(t *testing.T, src string, every int64) (string, bool, int) {
	t.Helper()
	return runSnapshotting(t, src, every, func(int) bool { return false })
}

// runWithSnapshotsIn is runWithSnapshots in a chosen snapshot format (1, JSON, or 2).
func runWithSnapshotsIn(t *testing.T, src string, every int64, format1 bool) (string, bool, int) {
	t.Helper()
	return runSnapshotting(t, src, every, func(int) bool { return format1 })
}

// runWithSnapshotsBoth is runWithSnapshots alternating the two snapshot formats: format 1,
// then 2, then 1, ...
func runWithSnapshotsBoth(t *testing.T, src string, every int64) (string, bool, int) {
	t.Helper()
	return runSnapshotting(t, src, every, func(i int) bool { return i%2 == 0 })
}

// runSnapshotting runs src, pausing every `every` instructions to encode the VM (in format 1
// when format1 says so for the pause's number, else format 2) and restore it into a new VM.
func runSnapshotting(t *testing.T, src string, every int64, format1 func(snap int) bool) (string, bool, int) {
	t.Helper()
	p, err := Compile(src)
	require.NoError(t, err)
	vm := New(Config{})
	require.NoError(t, vm.Start(p))
	snaps := 0
	for {
		st, err := vm.Run(context.Background(), RunOptions{MaxSteps: every})
		require.NoError(t, err)
		if st == StatusDone {
			break
		}
		if st == StatusWaiting {
			t.Fatal("program waits on host promises")
		}
		require.Equal(t, StatusPaused, st)
		var data []byte
		if format1(snaps) {
			data, err = vm.SnapshotFormat1()
		} else {
			data, err = vm.Snapshot()
		}
		require.NoError(t, err)
		vm, err = Restore(data, Config{})
		require.NoError(t, err, "restore after %d snapshots", snaps)
		snaps++
	}
	v, thrown := vm.Result()
	if thrown {
		name, msg, _, _ := vm.DescribeError(v)
		return name + ": " + msg, true, snaps
	}
	return vm.ToGoString(v), false, snaps
}

var snapshotPrograms = []struct {
	name string
	src  string
}{
	{name: "deep recursion", src: "function sum(n) { return n === 0 ? 0 : n + sum(n - 1) } sum(40)"},
	{name: "closures", src: "function mk() { let n = 0; return { inc: () => ++n, get: () => n } } const c = mk(); c.inc(); c.inc(); c.get()"},
	{name: "per-iteration closures", src: "const fs = []; for (let i = 0; i < 3; i++) fs.push(() => i * 10); let s = 0; for (const f of fs) s += f(); s"},
	{name: "generators", src: "function* g(n) { for (let i = 0; i < n; i++) { const x = yield i; if (x) return x } } let s = ''; const it = g(5); s += it.next().value; s += it.next().value; s += it.next(9).value; s"},
	{name: "yield delegate", src: "function* a() { yield 1; yield 2 } function* b() { yield* a(); yield 3 } let s = 0; for (const v of b()) s = s * 10 + v; s"},
	{name: "pending promises", src: "let log = ''; const p = new Promise(r => { log += 'x'; r(5) }); p.then(v => log += v); await null; log += (await p); log"},
	{name: "async functions", src: "async function f(x) { await null; return x * 2 } async function g() { let s = 0; for (let i = 0; i < 3; i++) s += await f(i); return s } await g()"},
	{name: "async generators", src: "async function* g() { yield 1; await null; yield 2 } let s = 0; for await (const v of g()) s += v; s"},
	{name: "classes", src: "class A { #n = 1; static count = 0; constructor() { A.count++ } get n() { return this.#n } bump() { this.#n *= 3; return this } } class B extends A { constructor() { super(); this.k = 2 } total() { return this.bump().n + this.k } } new B(); new B().total() + A.count"},
	{name: "try finally", src: "function f() { let log = ''; for (const x of [1, 2, 3]) { try { if (x === 2) continue; if (x === 3) return log + 'r'; log += x } finally { log += 'f' } } } f()"},
	{name: "exceptions", src: "let m = ''; function thrower(n) { if (n === 0) throw new TypeError('deep'); return thrower(n - 1) } try { thrower(5) } catch (e) { m = e.message + e.name } m"},
	{name: "objects and arrays", src: "const o = {a: [1, 2, {b: 3}], s: 'x'}; o.a.push(4); o.a[2].b += o.a.length; `${o.a[2].b}${o.s}${o.a.length}`"},
	{name: "destructuring and spread", src: "const {a, ...rest} = {a: 1, b: 2, c: 3}; const [x, , ...ys] = [1, 2, 3, 4]; const f = (...args) => args.length; a + Object.keys(rest).length + x + ys.length + f(...ys, 1)"},
	{name: "promise combinators", src: "const vs = await Promise.all([1, Promise.resolve(2), (async () => 3)()]); const r = await Promise.race([new Promise(() => {}), Promise.resolve(4)]); vs[0] + vs[1] + vs[2] + r"},
	{name: "labels and switch", src: "let n = 0; outer: for (let i = 0; i < 4; i++) { switch (i) { case 1: continue outer; case 3: break outer; default: n += i } } n"},
	{name: "template tags", src: "const tag = (s, ...v) => s.raw.join('|') + v.join(','); tag`a${1}b${2}c`"},
	{name: "getters and symbols", src: "const k = Symbol('k'); const o = {[k]: 5, get g() { return this[k] + 1 }}; o.g"},
	{name: "uncaught error", src: "await null; null.f()"},
	{name: "string building", src: "let s = ''; for (let i = 0; i < 20; i++) s += i % 10; s"},
	{name: "bound functions", src: "function f(a, b) { return this.x * a + b } const g = f.bind({x: 3}, 2); g(1) + f.call({x: 1}, 1, 1)"},
	{name: "generator return and throw", src: "function* g() { try { yield 1; yield 2 } finally { yield 'f' } } const it = g(); it.next(); let s = it.return(7).value; s += it.next().value; s += it.next().done; s"},
	{name: "arguments and defaults", src: "function f(a, b = a * 2, ...r) { return arguments.length + a + b + r.length } f(1) + f(1, 1, 1, 1)"},
}

func TestSnapshotEveryStep(t *testing.T) {
	t.Parallel()
	for _, tt := range snapshotPrograms {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want, wantThrown := runProgram(t, tt.src)
			got, thrown, snaps := runWithSnapshots(t, tt.src, 1)
			require.Equal(t, wantThrown, thrown, got)
			require.Equal(t, want, got)
			require.Positive(t, snaps)
		})
	}
}

func TestSnapshotHostPromises(t *testing.T) {
	t.Parallel()
	vm, h := newHostVM(t, "const a = await later(); const b = later(); a + (await b)")
	st, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusWaiting, st)
	data, err := vm.Snapshot()
	require.NoError(t, err)
	vm2, err := Restore(data, Config{Host: h})
	require.NoError(t, err)
	require.Equal(t, []uint64{1}, vm2.pendingHostPromises())
	require.NoError(t, vm2.SettleHostPromise(1, true, Number(40)))
	st, err = vm2.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusWaiting, st)
	require.Equal(t, []uint64{2}, vm2.pendingHostPromises())
	data, err = vm2.Snapshot()
	require.NoError(t, err)
	vm3, err := Restore(data, Config{Host: h})
	require.NoError(t, err)
	require.NoError(t, vm3.SettleHostPromise(2, true, Number(2)))
	st, err = vm3.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusDone, st)
	v, thrown := vm3.Result()
	require.False(t, thrown)
	require.Equal(t, 42.0, v.NumberValue())
}

func TestSnapshotRefusesChangedCode(t *testing.T) {
	t.Parallel()
	data, h := waitingSnapshot(t, "const a = await later(); a + 1")
	p, err := Compile("const a = await later(); a + 1")
	require.NoError(t, err)
	code := `"code":"` + p.CodeFingerprint() + `"`
	require.Contains(t, string(data), code)

	tests := []struct {
		name    string
		data    string
		wantErr error
	}{
		{name: "same code resumes", data: string(data)},
		{name: "no fingerprint (an older snapshot) resumes", data: strings.Replace(string(withoutCompiled(t, data)), code+",", "", 1)},
		{name: "other code without compiled code is refused",
			data: strings.Replace(string(withoutCompiled(t, data)), code, `"code":"0123456789abcdef0123456789abcdef"`, 1), wantErr: ErrCodeChanged},
		{name: "compiled code that is not the fingerprint's is refused",
			data: strings.Replace(string(data), code, `"code":"0123456789abcdef0123456789abcdef"`, 1), wantErr: ErrSnapshotCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.NotEqual(t, "", tt.data)
			vm2, err := Restore([]byte(tt.data), Config{Host: h})
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.NoError(t, vm2.SettleHostPromise(1, true, Number(41)))
			st, err := vm2.Run(context.Background(), RunOptions{})
			require.NoError(t, err)
			require.Equal(t, StatusDone, st)
			v, _ := vm2.Result()
			require.Equal(t, 42.0, v.NumberValue())
		})
	}
}

// TestRestoreSourceText checks how Restore finds a snapshot's program: by the source's JSON
// text when a cached program quotes it the same way, by its decoded text when it is written
// otherwise (other escapes), and with a clear error when it is not a JSON string.
func TestRestoreSourceText(t *testing.T) {
	t.Parallel()
	const src = "const a = await later(); a + 'é' + 1"
	data, h := waitingSnapshot(t, src)
	quoted := `"source":"const a = await later(); a + 'é' + 1"`
	require.Contains(t, string(data), quoted)

	tests := []struct {
		name    string
		source  string
		wantErr string
	}{
		{name: "as written", source: quoted},
		{name: "other escapes", source: `"source":"const a = await later(); a + '\u00e9' + \u0031"`},
		{name: "not a string", source: `"source":17`, wantErr: "expected a string"},
		{name: "bad escape", source: `"source":"const a = \q"`, wantErr: "restore: source"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm2, err := Restore([]byte(strings.Replace(string(data), quoted, tt.source, 1)), Config{Host: h})
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, src, vm2.exec.program.Source())
			require.NoError(t, vm2.SettleHostPromise(1, true, Number(41)))
			st, err := vm2.Run(context.Background(), RunOptions{})
			require.NoError(t, err)
			require.Equal(t, StatusDone, st)
			v, _ := vm2.Result()
			require.Equal(t, "41é1", v.String())
		})
	}

	t.Run("cached program found by its text", func(t *testing.T) {
		first, err := Restore(data, Config{Host: h})
		require.NoError(t, err)
		again, err := Restore(data, Config{Host: h})
		require.NoError(t, err)
		require.Same(t, first.exec.program, again.exec.program)
	})
}

// TestRestorePrefix restores a snapshot embedded in a larger document, and checks that
// Restore refuses text after a snapshot.
func TestRestorePrefix(t *testing.T) {
	t.Parallel()
	data, h := waitingSnapshot(t, "const a = await later(); a + 1")

	doc := append(append([]byte(nil), data...), `,"after":[1,{"x":"}"}]}`...)
	vm2, n, err := RestorePrefix(doc, Config{Host: h})
	require.NoError(t, err)
	require.Equal(t, len(data), n)
	require.NoError(t, vm2.SettleHostPromise(1, true, Number(41)))
	st, err := vm2.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusDone, st)

	_, err = Restore(doc, Config{Host: h})
	require.ErrorIs(t, err, ErrSnapshotCorrupt)
	_, err = Restore(append(append([]byte(nil), data...), " \n"...), Config{Host: h})
	require.NoError(t, err, "trailing spaces")
}

// waitingSnapshot runs src (which waits on later()) up to its host call and snapshots it.
func waitingSnapshot(t *testing.T, src string) ([]byte, *testHost) {
	t.Helper()
	h := &testHost{}
	// format 1: the callers edit the JSON text to make the snapshots they test the reader on
	data, err := waitingVMIn(t, New(Config{Host: h}), src).SnapshotFormat1()
	require.NoError(t, err)
	return data, h
}

// TestProgramCacheRecency finds entries of a full program cache: a found entry becomes the
// most recent, the others keep their order, and the next addition evicts the least recent.
func TestProgramCacheRecency(t *testing.T) {
	t.Parallel()
	var c programCache
	progs := make([]*Program, programCacheSize+1)
	for i := range progs {
		progs[i] = &Program{}
	}
	for i := range programCacheSize {
		c.add(programCacheEntry{source: fmt.Sprint(i), prog: progs[i]})
	}
	find := func(i int) *Program {
		return c.find(func(e *programCacheEntry) bool { return e.source == fmt.Sprint(i) })
	}
	require.Same(t, progs[0], find(0)) // the least recent becomes the most recent
	require.Same(t, progs[5], find(5))
	require.Same(t, progs[5], find(5)) // already the most recent
	c.add(programCacheEntry{source: fmt.Sprint(programCacheSize), prog: progs[programCacheSize]})
	require.Nil(t, find(1), "the least recent entry is evicted")
	for i := range programCacheSize + 1 {
		if i != 1 {
			require.Same(t, progs[i], find(i), "entry %d", i)
		}
	}
	require.Len(t, c.entries, programCacheSize)
}

// TestCompileSharedKeepsPrograms compiles a program once for every VM that runs its source,
// and shares it with Restore; a failed compilation is not kept, and a program shared by two
// VMs runs in each as if compiled for it alone.
func TestCompileSharedKeepsPrograms(t *testing.T) {
	src := "let n = 0; for (const x of [1, 2, 3]) n += x; n * 7"
	first, err := CompileShared(src)
	require.NoError(t, err)
	again, err := CompileShared(src)
	require.NoError(t, err)
	require.Same(t, first, again)
	other, err := CompileShared(src + " + 1")
	require.NoError(t, err)
	require.NotSame(t, first, other)

	_, err = CompileShared("let = ;")
	require.Error(t, err)
	require.Nil(t, sharedPrograms.find(func(e *programCacheEntry) bool { return e.source == "let = ;" }))

	restored, err := sharedPrograms.compileQuoted(first.quoted(), false)
	require.NoError(t, err)
	require.Same(t, first, restored, "Restore finds the program CompileShared compiled")

	var results []string
	for range 2 {
		vm := New(Config{})
		require.NoError(t, vm.Start(first))
		st, err := vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		require.Equal(t, StatusDone, st)
		v, thrown := vm.Result()
		require.False(t, thrown)
		results = append(results, vm.ToGoString(v))
	}
	require.Equal(t, []string{"42", "42"}, results)
}
