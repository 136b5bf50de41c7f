package interp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// withoutCompiled returns the snapshot without its "compiled" member, as snapshots were written
// before they carried their code.
func withoutCompiled(t *testing.T, data []byte) []byte {
	t.Helper()
	start := bytes.Index(data, []byte(`,"compiled":`))
	require.GreaterOrEqual(t, start, 0)
	r := &jsonReader{data: data, pos: start + len(`,"compiled":`)}
	r.skip()
	require.NoError(t, r.err)
	return append(append([]byte{}, data[:start]...), data[r.pos:]...)
}

// codeShape is a program's code without the values derived from it.
func codeShape(p *Program) ([]FuncCode, []bytecode.TemplateSite) {
	funcs := make([]FuncCode, len(p.Funcs))
	for i, f := range p.Funcs {
		funcs[i] = *f
		funcs[i].vals, funcs[i].keys = nil, nil
	}
	return funcs, p.Templates
}

// compiledCodePrograms are programs with every kind of function, constant and template.
var compiledCodePrograms = []string{
	"return 1",
	"const big = 12345678901234567890n, inf = 1e400, s = 'é\\ud800x', t = `a${1}b`; return [big, inf, s, t]",
	"function tag(s, ...v) { return s.raw.join('|') + s.length } return tag`x\\u{41}${1}\\unicode${2}`",
	"class A { #p = 1; static s = 2; static { A.t = 3 } get p() { return this.#p } set p(v) { this.#p = v } m() {} }\n" +
		"class B extends A { constructor() { super(); this.q = 4 } }\nreturn new B().p",
	"function* g() { yield 1; yield* [2, 3] } async function* ag() { yield 1 }\n" +
		"const f = async () => { for await (const x of ag()) {} }; return [...g()]",
	"const o = {a: 1, get b() { return 2 }, ['c' + 1]: 3, ...{d: 4}}; const {a, ...rest} = o; return /x+/gi.test('XX') && a",
	"let x; try { x?.y.z; throw new Error('e') } catch ({message}) { x = message } finally { x += '!' } return x ?? -0",
}

// TestCompiledCodeRoundTrip writes the compiled code of many programs as snapshots do and reads
// it back: the rebuilt program is the compiled one, with the same fingerprint.
func TestCompiledCodeRoundTrip(t *testing.T) {
	t.Parallel()
	sources := append([]string{}, compiledCodePrograms...)
	files, err := filepath.Glob(filepath.Join("..", "run", "testdata", "corpus", "*.js"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		sources = append(sources, string(b))
	}
	compiled := 0
	for i, src := range sources {
		p, err := Compile(src)
		if err != nil {
			continue // corpus programs that test parse errors
		}
		compiled++
		got, err := decodeCompiled(p.compiledJSON(), src, false)
		require.NoError(t, err, "program %d", i)
		wantFuncs, wantTemplates := codeShape(p)
		gotFuncs, gotTemplates := codeShape(got)
		require.Equal(t, wantFuncs, gotFuncs, "program %d:\n%s", i, src)
		require.Equal(t, wantTemplates, gotTemplates, "program %d", i)
		require.Equal(t, p.CodeFingerprint(), got.CodeFingerprint())
		for _, f := range got.Funcs {
			require.Len(t, f.vals, len(f.Consts))
			require.Len(t, f.keys, len(f.Consts))
		}
	}
	require.Greater(t, compiled, 200)
}

// otherCompilation returns a program for src compiled as another release's compiler might:
// different code (a dead statement after the program's return), the same source.
func otherCompilation(t *testing.T, src string) *Program {
	t.Helper()
	p, err := Compile(src + "\n;[1, 2].map(x => x * 2)")
	require.NoError(t, err)
	p.source, p.hash = src, hashSource(src)
	for _, f := range p.Funcs {
		if f.SourceEnd > len(src) { // the appended function's text is not in src
			f.SourceStart, f.SourceEnd = 0, 0
		}
	}
	return p
}

// withProgramCache runs fn with an empty program cache holding only the given programs, as a
// process whose compiler compiles their sources to them would. Not parallel: Restore uses the
// one cache of the process.
func withProgramCache(t *testing.T, progs ...*Program) {
	t.Helper()
	saved := sharedPrograms
	sharedPrograms = &programCache{}
	for _, p := range progs {
		sharedPrograms.add(programCacheEntry{source: p.source, script: p.script, prog: p})
	}
	t.Cleanup(func() { sharedPrograms = saved })
}

// upgradeProgram suspends inside a generator, a closure and an async function, with a tagged
// template and a class on the heap; it returns 41 + the host's answer.
const upgradeProgram = `
function tag(s, ...v) { return s.raw.join("") + v.join("") }
class Box { #v; constructor(v) { this.#v = v } get v() { return this.#v } }
function* steps() { const got = yield 1; return got }
const g = steps(); g.next()
const make = n => async () => { const v = await later(); return new Box(v + n).v }
const r = await make(41)()
return [g.next(r).value, tag` + "`x${1}`" + `, /a/g.exec("bab").index]`

// TestRestoreRunsTheSnapshotsCode resumes snapshots in a process that compiles their program
// to other code than the process that wrote them, in both directions: the run continues on the
// code it was running, rebuilt from the snapshot.
func TestRestoreRunsTheSnapshotsCode(t *testing.T) {
	resume := func(t *testing.T, data []byte, h *testHost) (*VM, string) {
		t.Helper()
		vm, err := Restore(data, Config{Host: h})
		require.NoError(t, err)
		require.NoError(t, vm.SettleHostPromise(h.pending[0], true, Number(1)))
		st, err := vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		require.Equal(t, StatusDone, st)
		v, thrown := vm.Result()
		require.False(t, thrown)
		return vm, vm.ToGoString(v)
	}
	const want = "42,x1,1"

	t.Run("written by this compiler, read where it compiles otherwise", func(t *testing.T) {
		data, h := waitingSnapshot(t, upgradeProgram)
		other := otherCompilation(t, upgradeProgram)
		withProgramCache(t, other)
		vm, got := resume(t, data, h)
		require.Equal(t, want, got)
		require.NotSame(t, other, vm.exec.program)
		require.NotEqual(t, other.CodeFingerprint(), vm.exec.program.CodeFingerprint())

		// The rebuilt program is cached: a second restore reuses it.
		vm2, err := Restore(data, Config{Host: h})
		require.NoError(t, err)
		require.Same(t, vm.exec.program, vm2.exec.program)
	})

	t.Run("written by another compiler, read here", func(t *testing.T) {
		other := otherCompilation(t, upgradeProgram)
		h := &testHost{}
		vm := New(Config{Host: h})
		require.NoError(t, vm.Set(vm.Global(), "later", vm.NewHostFunction("later", "later", 0)))
		require.NoError(t, vm.Start(other))
		st, err := vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		require.Equal(t, StatusWaiting, st)
		data, err := vm.Snapshot()
		require.NoError(t, err)
		withProgramCache(t)
		vm2, got := resume(t, data, h)
		require.Equal(t, want, got)
		require.Equal(t, other.CodeFingerprint(), vm2.exec.program.CodeFingerprint())
	})

	t.Run("a source this release no longer compiles", func(t *testing.T) {
		data, h := waitingSnapshot(t, upgradeProgram)
		withProgramCache(t)
		// A snapshot whose source does not parse stands for a program this release rejects.
		data = bytes.Replace(data, []byte(`"source":"`), []byte(`"source":"@ `), 1)
		_, got := resume(t, data, h)
		require.Equal(t, want, got)
	})

	t.Run("an operation this release does not know", func(t *testing.T) {
		data, h := waitingSnapshot(t, upgradeProgram)
		withProgramCache(t, otherCompilation(t, upgradeProgram))
		data = bytes.Replace(data, []byte(`"Return"`), []byte(`"ReturnFromTheFuture"`), 1)
		_, err := Restore(data, Config{Host: h})
		require.ErrorIs(t, err, ErrUnknownOperation)
		require.ErrorContains(t, err, "ReturnFromTheFuture")
	})

	t.Run("without compiled code the change is refused", func(t *testing.T) {
		data, h := waitingSnapshot(t, upgradeProgram)
		withProgramCache(t, otherCompilation(t, upgradeProgram))
		_, err := Restore(withoutCompiled(t, data), Config{Host: h})
		require.ErrorIs(t, err, ErrCodeChanged)
	})
}

// TestCompiledCodeChecked refuses compiled code whose operands point outside the program,
// even with a matching fingerprint.
func TestCompiledCodeChecked(t *testing.T) {
	t.Parallel()
	p, err := Compile("const f = () => 1; return f()")
	require.NoError(t, err)
	good := string(p.compiledJSON())
	// Jump, added at the end of the operations list, for code that jumps too far.
	jump := int64(strings.Count(good[:strings.Index(good, "]")], ",") + 1)
	good = strings.Replace(good, `],"funcs"`, `,"Jump"],"funcs"`, 1)
	code := func(ints ...int64) string {
		var b []byte
		for _, i := range ints {
			b = binary.AppendVarint(b, i)
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	for name, bad := range map[string]string{
		"no functions":        `{"ops":[],"funcs":[]}`,
		"unknown kind":        strings.Replace(good, `"kind":"arrow"`, `"kind":"lambda"`, 1),
		"operation index":     regexp.MustCompile(`"code":"[^"]*"`).ReplaceAllString(good, `"code":"`+code(99, 0, 0)+`"`),
		"jump out of range":   regexp.MustCompile(`"code":"[^"]*"`).ReplaceAllString(good, `"code":"`+code(jump, 5, 0)+`"`),
		"bad base64":          regexp.MustCompile(`"pos":"[^"]*"`).ReplaceAllString(good, `"pos":"@@"`),
		"parent out of range": strings.Replace(good, `"parent":0`, `"parent":7`, 1),
		"truncated":           good[:len(good)/2],
	} {
		t.Run(name, func(t *testing.T) {
			require.NotEqual(t, good, bad)
			_, err := decodeCompiled([]byte(bad), p.source, false)
			require.ErrorIs(t, err, ErrSnapshotCorrupt)
		})
	}
}
