package interp

import (
	"context"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// lexerProgram tokenises an ASCII source of about n characters the way hand-written lexers
// do: match at the start of what is left, then cut the match off with substring.
func lexerProgram(n int) string {
	return lexerProgramOf(`"let x1 = 42 + foo(bar, 7);\n"`, n)
}

// lexerProgramOf is lexerProgram over a source made of unit (a JavaScript string literal)
// repeated; strings in double quotes are tokens too.
func lexerProgramOf(unit string, n int) string {
	return `const unit = ` + unit + `;
let src = unit.repeat(Math.ceil(` + strconv.Itoa(n) + ` / unit.length));
const rules = [/^\s+/, /^[A-Za-z_]\w*/, /^\d+/, /^[=+(),;]/, /^"[^"]*"/];
let tokens = 0;
while (src.length > 0) {
  let m = null;
  for (const re of rules) { m = re.exec(src); if (m) break; }
  if (!m) throw new Error("stuck at " + src.slice(0, 10));
  src = src.substring(m[0].length);
  tokens++;
}
tokens`
}

// Matching the substrings a lexer cuts off its source reuses the source's prepared input:
// the characters converted stay linear in the source's length (they were quadratic, one
// conversion of what was left per token).
func TestRegExpInputIsPreparedOncePerSource(t *testing.T) {
	t.Parallel()
	for _, n := range []int{5_000, 40_000} {
		vm := New(Config{})
		got := evalIn(t, vm, lexerProgram(n))
		tokens, err := strconv.Atoi(got)
		require.NoError(t, err, got)
		require.Greater(t, tokens, n/4)
		require.LessOrEqual(t, vm.asciiInput.converted, int64(2*n), "n=%d: characters converted", n)
	}
	got, thrown := runProgram(t, lexerProgram(2000))
	require.False(t, thrown, got)
}

// The same holds for a source that is not ASCII: its long substrings share its code units and
// are matched on slices of its prepared input.
// Neither the substrings nor their inputs are copies: the bytes the run allocates stay linear
// in the source (they were quadratic: about 1 GB at 40,000 characters). The test is not
// parallel, so that the allocation counter sees this run alone.
func TestRegExpInputIsPreparedOncePerNonASCIISource(t *testing.T) {
	for _, n := range []int{5_000, 40_000} {
		p, err := Compile(lexerProgramOf(`'let x1 = "café ☕" + foo(bar, 7);\n'`, n))
		require.NoError(t, err)
		vm := New(Config{})
		require.NoError(t, vm.Start(p))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		st, err := vm.Run(context.Background(), RunOptions{})
		runtime.ReadMemStats(&after)
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(2_000*n), "n=%d: bytes allocated", n)
		require.NoError(t, err)
		require.Equal(t, StatusDone, st)
		v, thrown := vm.Result()
		require.False(t, thrown, vm.ToGoString(v))
		tokens, _ := strconv.Atoi(vm.ToGoString(v))
		require.Greater(t, tokens, n/5)
		// The last substrings, shorter than substringShareMinLength, are copies, converted
		// each: a cost that does not grow with the source.
		require.LessOrEqual(t, vm.asciiInput.converted, int64(2*n+64<<10), "n=%d: characters converted", n)
	}
}

// Substrings matched on a slice of their source's input see exactly their own characters:
// anchors, lastIndex, indices and captures are relative to the substring.
func TestRegExpOnSubstringsOfAPreparedSource(t *testing.T) {
	t.Parallel()
	src := `const s = "abc-".repeat(100) + "tail 123";
const whole = /\d+/.exec(s);
const t = s.substring(400);
const re = /^tail (\d+)$/d;
const m = re.exec(t);
const g = /-/g; g.lastIndex = 2; const gm = g.exec(s.substring(1, 20));
JSON.stringify([whole.index, t, m.index, m[1], m.indices[1], gm.index, /^abc/.test(s.substring(4)), /^abc/.test(s.substring(5))])`
	got, thrown := runProgram(t, src)
	require.False(t, thrown, got)
	require.Equal(t, `[405,"tail 123",0,"123",[5,8],2,true,false]`, got)
}

// BenchmarkRegExpLexer tokenises sources of growing length with substring between matches:
// the time per character stays flat when each source is prepared once.
func BenchmarkRegExpLexer(b *testing.B) {
	for _, n := range []int{5_000, 10_000, 20_000, 40_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			benchmarkJS(b, lexerProgram(n))
		})
	}
}

// A short string tested against several expressions in turn (a validator's checks) is
// prepared for matching once, and the results are those of separate preparations.
func TestRegExpShortInputIsPreparedOnce(t *testing.T) {
	t.Parallel()
	vm := New(Config{})
	got := evalIn(t, vm, `const s = "user" + "@example.com";
const checks = [/^\w+@/, /\.com$/, /^\d+$/, /@(\w+)\./, /x/g];
const r = checks.map(re => String(re.exec(s)));
r.push(String(/e/.exec("other" + "case")), String(/^u/.exec(s)));
r.join("|")`)
	require.Equal(t, "user@|.com|null|@example.,example|x|e|u", got)
	require.Equal(t, int64(len("user@example.com")+len("othercase")+len("user@example.com")), vm.asciiInput.converted)
}
