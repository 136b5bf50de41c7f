package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// benchmarkJS runs src once per iteration in a fresh VM.
func benchmarkJS(b *testing.B, src string) {
	p, err := Compile(src)
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		vm := New(Config{})
		require.NoError(b, vm.Start(p))
		st, err := vm.Run(context.Background(), RunOptions{})
		require.NoError(b, err)
		require.Equal(b, StatusDone, st)
	}
}

// BenchmarkStringRegExp measures the pattern methods on a 60,000-unit string.
func BenchmarkStringRegExp(b *testing.B) {
	const text = `const s = 'lorem ipsum, dolor sit amet; '.repeat(2000);`
	for _, bb := range []struct{ name, src string }{
		{"replace_global", text + `s.replace(/[aeiou]/g, '_').length`},
		{"replace_fn", text + `s.replace(/\w+/g, w => w.length).length`},
		{"split_regexp", text + `s.split(/[,;] /).length`},
		{"split_string", text + `s.split(', ').length`},
		{"matchAll", text + `let n = 0; for (const m of s.matchAll(/(?<w>\w+)/g)) n += m.groups.w.length; n`},
		{"replaceAll_string", text + `s.replaceAll('or', 'OR').length`},
		{"replaceAll_string_wide", text + `('¨' + s).replaceAll('or', 'OR').length`},
		{"split_string_wide", text + `('¨' + s).split('; ').length`},
		{"toUpperCase", text + `s.toUpperCase().length + 'ärger'.repeat(10000).toUpperCase().length`},
	} {
		b.Run(bb.name, func(b *testing.B) { benchmarkJS(b, bb.src) })
	}
}
