package run

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// TestTypeScriptErrorPositions: the line and column of a failure in a
// TypeScript program point at the text as written, types included, where node
// locates the failure in the compiled JavaScript (a property access at the
// property, a method call at the method's name).
func TestTypeScriptErrorPositions(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	tests := []struct {
		name      string
		src       string
		kind      Kind
		line, col int
	}{
		{"property of undefined after a non-null assertion",
			"interface Box { inner?: { value: number } }\nconst b: Box = {};\nconst v: number = b.inner!.value;\nreturn v",
			KindExecutionFailure, 3, 28},
		{"call of a non-function after casts",
			"const f = (42 as unknown) as () => void;\nf();",
			KindExecutionFailure, 2, 1},
		{"method call on null after a double cast",
			"type T = { f(): void };\nconst o = null as unknown as T;\n  o.f();",
			KindExecutionFailure, 3, 5},
		{"throw in a generic arrow with a return type",
			"const fail = <T,>(msg: T): never => {\n  throw new RangeError(String(msg));\n};\nfail<string>(\"x\");",
			KindExecutionFailure, 2, 9},
		{"parse error after annotations",
			"const a: number = 1;\nconst b: string = ;",
			KindParseError, 2, 19},
		{"enum",
			"const a: number = 1;\n  enum E { A, B }",
			KindUnsupportedSyntax, 2, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := resultOf(t, execute(t, b, tc.src))
			require.False(t, res.OK, "value %s", res.Value)
			require.Equal(t, tc.kind, res.Error.Kind, "%+v", res.Error)
			require.Equal(t, [2]int{tc.line, tc.col}, [2]int{res.Error.Line, res.Error.Column}, "%+v", res.Error)
		})
	}
}

// TestEmptyProgram: a program with no statements is refused as a
// ParseError, not run to null.
func TestEmptyProgram(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	for _, src := range []string{"", " \n\t", "// only a comment\n/* and another */"} {
		res := resultOf(t, execute(t, b, src))
		require.False(t, res.OK, "%q", src)
		require.Equal(t, KindParseError, res.Error.Kind, "%q", src)
		require.Equal(t, "source is empty", res.Error.Message, "%q", src)
	}
}

// TestTypeScriptSuspendResume: a TypeScript run suspends and resumes in
// another runtime, which compiles the snapshot's source (the text as
// written) again; a failure after the resume points at that text.
func TestTypeScriptSuspendResume(t *testing.T) {
	t.Parallel()
	const src = `interface Approval { ok: boolean }
function double(x: number): number { return x * 2 }
const { sum } = (await tools.math.add({ a: 20, b: 1 })) as { sum: number };
const answer = (await tools.approvals.request({ what: "x" })) as string;
const missing: { v?: number } = {};
const out = { answer, doubled: double(sum), v: missing.v! };
if (answer === "no") (missing as any).v.w;
return out`
	b, _ := setup(t, Limits{}, Hooks{})
	e := execute(t, b, src)
	require.Equal(t, StateSuspended, e.State())
	s, err := e.Suspend()
	require.NoError(t, err)
	require.Len(t, s.Pending, 1)

	b2, _ := setup(t, Limits{}, Hooks{})
	e2, err := b2.rt.Resume(context.Background(), s.State, []OutcomeFor{
		{Key: s.Pending[0].Key, Outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`"yes"`)}},
	}, ExecOptions{})
	require.NoError(t, err)
	res := resultOf(t, e2)
	require.True(t, res.OK, "%+v", res.Error)
	require.JSONEq(t, `{"answer":"yes","doubled":42}`, string(res.Value))

	e3, err := b2.rt.Resume(context.Background(), s.State, []OutcomeFor{
		{Key: s.Pending[0].Key, Outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`"no"`)}},
	}, ExecOptions{})
	require.NoError(t, err)
	res = resultOf(t, e3)
	require.False(t, res.OK)
	require.Equal(t, [2]int{7, 41}, [2]int{res.Error.Line, res.Error.Column}, "%+v", res.Error)
}

// TypeScript programs with import declarations: types (and type-only imports) are stripped,
// value imports take their globals, wherever the first parse error was, and positions stay
// those of the text as written.
func TestTypeScriptWithImports(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	for _, tc := range []struct{ name, src, value string }{
		{"an import after a typed statement on one line",
			`const x: number = 6; import {URL} from "url"; return x * 7 + new URL("https://a.b/?q=1").searchParams.get("q").length`, `43`},
		{"type-only and value imports", "import type { T } from \"x\";\nimport { URL } from \"url\";\nconst n: T = 1 as any;\nreturn [n, typeof URL]", `[1, "function"]`},
	} {
		res := resultOf(t, execute(t, b, tc.src))
		require.True(t, res.OK, "%s: %+v", tc.name, res.Error)
		require.JSONEq(t, tc.value, string(res.Value), tc.name)
	}
	res := resultOf(t, execute(t, b, "import {URL} from \"url\";\nconst u: URL = null as any;\n  u.href"))
	require.False(t, res.OK)
	require.Equal(t, [2]int{3, 5}, [2]int{res.Error.Line, res.Error.Column}, "%+v", res.Error)
}
