package interp

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// lexerProgram tokenises an ASCII source of about n characters the way hand-written lexers
// do: match at the start of what is left, then cut the match off with substring.
func lexerProgram(n int) string {
	return `const unit = "let x1 = 42 + foo(bar, 7);\n";
let src = unit.repeat(Math.ceil(` + strconv.Itoa(n) + ` / unit.length));
const rules = [/^\s+/, /^[A-Za-z_]\w*/, /^\d+/, /^[=+(),;]/];
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
		p, err := Compile(lexerProgram(n))
		require.NoError(t, err)
		vm := New(Config{})
		require.NoError(t, vm.Start(p))
		st, err := vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		require.Equal(t, StatusDone, st)
		v, thrown := vm.Result()
		require.False(t, thrown, vm.ToGoString(v))
		tokens, _ := strconv.Atoi(vm.ToGoString(v))
		require.Greater(t, tokens, n/4)
		require.LessOrEqual(t, vm.asciiInput.converted, int64(2*n), "n=%d: characters converted", n)
	}
	got, thrown := runProgram(t, lexerProgram(2000))
	require.False(t, thrown, got)
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
