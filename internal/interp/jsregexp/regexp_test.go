package jsregexp

import (
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/stretchr/testify/require"
)

// u16 converts a Go string to UTF-16 code units.
func u16(s string) []uint16 { return utf16.Encode([]rune(s)) }

func mustCompile(t testing.TB, pattern, flags string) *Regexp {
	t.Helper()
	f, err := ParseFlags(flags)
	require.NoError(t, err)
	re, err := Compile(u16(pattern), f)
	require.NoError(t, err)
	return re
}

func TestParseFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    Flags
		wantErr string
	}{
		{name: "empty", in: "", want: Flags{}},
		{name: "all but v", in: "dgimsuy", want: Flags{HasIndices: true, Global: true, IgnoreCase: true, Multiline: true, DotAll: true, Unicode: true, Sticky: true}},
		{name: "v", in: "v", want: Flags{UnicodeSets: true}},
		{name: "any order", in: "yg", want: Flags{Global: true, Sticky: true}},
		{name: "duplicate", in: "gg", wantErr: "Invalid flags supplied to RegExp constructor 'gg'"},
		{name: "unknown", in: "x", wantErr: "Invalid flags supplied to RegExp constructor 'x'"},
		{name: "u with v", in: "uv", wantErr: "Invalid flags supplied to RegExp constructor 'uv'"},
		{name: "uppercase", in: "G", wantErr: "Invalid flags supplied to RegExp constructor 'G'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseFlags(tt.in)
			if tt.wantErr != "" {
				var fe *FlagsError
				require.ErrorAs(t, err, &fe)
				require.Equal(t, tt.wantErr, err.Error())
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestFlagsString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "canonical order", in: "yusmigd", want: "dgimsuy"},
		{name: "v", in: "gv", want: "gv"},
		{name: "none", in: "", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := ParseFlags(tt.in)
			require.NoError(t, err)
			require.Equal(t, tt.want, f.String())
		})
	}
}

func TestExecPositions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		pattern   string
		flags     string
		input     string
		lastIndex int
		want      *Match
	}{
		{name: "search from lastIndex", pattern: "a", flags: "g", input: "aXa", lastIndex: 1,
			want: &Match{Start: 2, End: 3, Groups: [][2]int{}, Names: nil}},
		{name: "lastIndex past end", pattern: "", flags: "g", input: "ab", lastIndex: 3, want: nil},
		{name: "empty match at end", pattern: "", flags: "g", input: "ab", lastIndex: 2,
			want: &Match{Start: 2, End: 2, Groups: [][2]int{}}},
		{name: "sticky fails when later", pattern: "b", flags: "y", input: "ab", lastIndex: 0, want: nil},
		{name: "sticky at lastIndex", pattern: "b", flags: "y", input: "ab", lastIndex: 1,
			want: &Match{Start: 1, End: 2, Groups: [][2]int{}}},
		{name: "unicode indices after astral", pattern: "(?<x>b)", flags: "u", input: "😀😀b", lastIndex: 0,
			want: &Match{Start: 4, End: 5, Groups: [][2]int{{4, 5}}, Names: []string{"x"}}},
		{name: "unicode lastIndex inside pair", pattern: ".", flags: "gu", input: "😀x", lastIndex: 1,
			want: &Match{Start: 0, End: 2, Groups: [][2]int{}}},
		{name: "unmatched group", pattern: "(a)|(b)", flags: "", input: "b", lastIndex: 0,
			want: &Match{Start: 0, End: 1, Groups: [][2]int{{-1, -1}, {0, 1}}, Names: []string{"", ""}}},
		{name: "negative lastIndex is zero", pattern: "a", flags: "g", input: "a", lastIndex: -5,
			want: &Match{Start: 0, End: 1, Groups: [][2]int{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			re := mustCompile(t, tt.pattern, tt.flags)
			got, err := re.Exec(u16(tt.input), tt.lastIndex, time.Time{})
			require.NoError(t, err)
			if tt.want == nil {
				require.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			require.Equal(t, tt.want.Start, got.Start)
			require.Equal(t, tt.want.End, got.End)
			require.Equal(t, tt.want.Groups, got.Groups)
			if tt.want.Names != nil {
				require.Equal(t, tt.want.Names, got.Names)
			}
		})
	}
}

func TestGroupNames(t *testing.T) {
	t.Parallel()
	re := mustCompile(t, `(a)(?<first>b)(?:c)(?<second>d)(?=(e))`, "")
	require.Equal(t, 4, re.NumGroups())
	require.Equal(t, []string{"", "first", "second", ""}, re.GroupNames())
}

func TestBacktrackingBombTimesOut(t *testing.T) {
	t.Parallel()
	re := mustCompile(t, `^(a+)+$`, "")
	input := u16(strings.Repeat("a", 30) + "!")
	start := time.Now()
	m, err := re.Exec(input, 0, time.Now().Add(50*time.Millisecond))
	require.ErrorIs(t, err, ErrTimeout)
	require.Nil(t, m)
	// Generous bound: the clock ticks every TimeoutCheckPeriod; a hung match would take minutes.
	require.Less(t, time.Since(start), 2*time.Second)
}

func TestDeadlineAlreadyPassed(t *testing.T) {
	t.Parallel()
	re := mustCompile(t, `a`, "")
	_, err := re.Exec(u16("a"), 0, time.Now().Add(-time.Second))
	require.ErrorIs(t, err, ErrTimeout)
}

func TestInputTooLarge(t *testing.T) {
	t.Parallel()
	re := mustCompile(t, `a`, "")
	_, err := re.Exec(make([]uint16, MaxInput+1), 0, time.Time{})
	require.ErrorIs(t, err, ErrInputTooLarge)
}

func TestExecInputReuse(t *testing.T) {
	t.Parallel()
	re := mustCompile(t, `\d+`, "g")
	in, err := NewInput(u16("a1b22c333"), false)
	require.NoError(t, err)
	require.Equal(t, 9, in.Len())
	var found [][2]int
	for last := 0; ; {
		m, err := re.ExecInput(in, last, time.Time{})
		require.NoError(t, err)
		if m == nil {
			break
		}
		found = append(found, [2]int{m.Start, m.End})
		last = m.End
	}
	require.Equal(t, [][2]int{{1, 2}, {3, 5}, {6, 9}}, found)

	// An Input made for the other mode is converted rather than misread.
	ure := mustCompile(t, `.$`, "u")
	m, err := ure.ExecInput(mustInput(t, "x😀", false), 0, time.Time{})
	require.NoError(t, err)
	require.Equal(t, [2]int{1, 3}, [2]int{m.Start, m.End})
}

func mustInput(t *testing.T, s string, unicode bool) *Input {
	t.Helper()
	in, err := NewInput(u16(s), unicode)
	require.NoError(t, err)
	return in
}

func TestConcurrentExecWithDeadlines(t *testing.T) {
	t.Parallel()
	re := mustCompile(t, `(\w+)@(\w+)\.com`, "")
	input := u16("mail bob@example.com now")
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			deadline := time.Time{}
			if i%2 == 0 {
				deadline = time.Now().Add(time.Minute)
			}
			for range 200 {
				m, err := re.Exec(input, 0, deadline)
				if err != nil {
					errs <- err
					return
				}
				if m == nil || m.Start != 5 || m.Groups[1] != [2]int{9, 16} {
					errs <- ErrTimeout // any sentinel: the match was wrong
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

func TestSetNotationWithStrings(t *testing.T) {
	t.Parallel()
	// Strings inside intersection or subtraction cannot be expressed as lookaheads.
	f, err := ParseFlags("v")
	require.NoError(t, err)
	_, err = Compile(u16(`[\q{ab}--a]`), f)
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "Unsupported strings in set operation", se.Message)
}

func FuzzCompile(f *testing.F) {
	for _, s := range []string{`[\q{ab|c}[a-z]--[b]]`, `[^[a]&&\p{L}]`, `a|b`, `(?<n>x)\k<n>`, `[\ud800-\uffff]`, `\u{1F600}`, `(?<=a)b`, `[^]`, `\1(a)`, `a{2,`, `(?`, `[\c`, `\p{L}`} {
		f.Add(s, "u")
		f.Add(s, "")
		f.Add(s, "vi")
	}
	f.Fuzz(func(t *testing.T, pattern, flags string) {
		fl, err := ParseFlags(flags)
		if err != nil {
			return
		}
		re, err := Compile(u16(pattern), fl)
		if err != nil {
			return
		}
		_, _ = re.Exec(append(u16("ab😀 12 AB\n"), 0xD800, 0xDC00, 0xDC00), 0, time.Now().Add(100*time.Millisecond))
	})
}

func BenchmarkExec(b *testing.B) {
	re := mustCompile(b, `(\w+)@(\w+)\.com`, "")
	input := u16(strings.Repeat("some text before the address ", 20) + "bob@example.com")
	deadline := time.Now().Add(time.Hour)
	b.ResetTimer()
	for b.Loop() {
		if _, err := re.Exec(input, 0, deadline); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExecInputGlobal(b *testing.B) {
	re := mustCompile(b, `\d+`, "g")
	in, err := NewInput(u16(strings.Repeat("ab12 cd345 ", 100)), false)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for last := 0; ; {
			m, err := re.ExecInput(in, last, time.Time{})
			if err != nil {
				b.Fatal(err)
			}
			if m == nil {
				break
			}
			last = m.End
		}
	}
}

// BenchmarkExecStickyTokenizer runs a sticky tokenizer over a 6,000-unit input; a sticky
// match that failed would otherwise scan the rest of the input each time.
func BenchmarkExecStickyTokenizer(b *testing.B) {
	re := mustCompile(b, `\s*(?:(\d+)|(\w+)|([-+*/()]))`, "y")
	in, err := NewInput(u16(strings.Repeat("foo + 12 * (bar - 7) / ", 250)), false)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		last := 0
		for {
			m, err := re.ExecInput(in, last, time.Time{})
			if err != nil {
				b.Fatal(err)
			}
			if m == nil {
				break
			}
			last = m.End
		}
		if last != in.Len()-1 {
			b.Fatalf("stopped at %d", last)
		}
	}
}

// BenchmarkExecStickyMiss is a sticky match that fails at lastIndex on a long input whose only
// match is at the end: the anchored form answers without scanning ahead.
func BenchmarkExecStickyMiss(b *testing.B) {
	re := mustCompile(b, `\d+`, "y")
	in, err := NewInput(u16(strings.Repeat("a", 100000)+"1"), false)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		m, err := re.ExecInput(in, 0, time.Time{})
		if err != nil || m != nil {
			b.Fatal(m, err)
		}
	}
}

func BenchmarkCompile(b *testing.B) {
	src := u16(`^(?<user>[\w.+-]+)@(?<host>[\w-]+(?:\.[\w-]+)+)$`)
	f, err := ParseFlags("i")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("uncached", func(b *testing.B) {
		for b.Loop() {
			if _, err := compile(src, f); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			if _, err := Compile(src, f); err != nil {
				b.Fatal(err)
			}
		}
	})
}
