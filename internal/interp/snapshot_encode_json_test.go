package interp

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// referenceJSONGoString is appendJSONGoString one byte at a time, as format 1 was written.
func referenceJSONGoString(s string) string {
	b := []byte{'"'}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case plainJSON[c]:
			b = append(b, c)
			i++
		case c < utf8.RuneSelf:
			b = appendEscapedASCII(b, c)
			i++
		case c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF:
			b = appendUnicodeEscape(b, uint16(0xD000|uint16(s[i+1]&0x3F)<<6|uint16(s[i+2]&0x3F)))
			i += 3
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = appendUnicodeEscape(b, 0xFFFD)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
		}
	}
	return string(append(b, '"'))
}

func TestAppendJSONGoString(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("plain text ", 10)
	tests := []struct {
		name string
		s    string
	}{
		{name: "empty", s: ""},
		{name: "short", s: "abc"},
		{name: "one word", s: "abcdefgh"},
		{name: "long plain", s: long},
		{name: "quote late", s: long + `"` + long},
		{name: "backslash in a word", s: "abcd\\efghijkl"},
		{name: "controls", s: "a\nb\tc\rd\x00e\x1ff\x7fg" + long},
		{name: "non-ASCII", s: long + "é😀" + long},
		{name: "lone surrogate (WTF-8)", s: long + "\xed\xa0\x80" + long},
		{name: "invalid UTF-8", s: long + "\xff\xfe" + long},
		{name: "escape at every offset", s: "0123456789abcdef\"0123456789abcdef<>&\u2028"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for start := range min(len(tt.s), 9) + 1 {
				s := tt.s[start:]
				require.Equal(t, referenceJSONGoString(s), string(appendJSONGoString(nil, s)), "from %d", start)
			}
		})
	}
}

func TestAppendJSONGoStringRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", " ", "~", `"`, `\`, "\n", "\x00", "\x7f", "é", "\xed\xa0\x80", "\xff", "😀"}
	for range 2000 {
		var sb strings.Builder
		for range rng.IntN(40) {
			if rng.IntN(4) == 0 {
				sb.WriteString(alphabet[rng.IntN(len(alphabet))])
			} else {
				sb.WriteString(strings.Repeat("x", rng.IntN(12)))
			}
		}
		s := sb.String()
		require.Equal(t, referenceJSONGoString(s), string(appendJSONGoString(nil, s)), "%q", s)
	}
}

// referenceJSONUTF16 is appendJSONUTF16 as format 1 was written.
func referenceJSONUTF16(u []uint16) string {
	b := []byte{'"'}
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c < 0x80:
			b = appendEscapedASCII(b, byte(c))
		case c >= 0xD800 && c <= 0xDBFF && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF:
			b = utf8.AppendRune(b, utf16.DecodeRune(rune(c), rune(u[i+1])))
			i++
		case c >= 0xD800 && c <= 0xDFFF:
			b = appendUnicodeEscape(b, c)
		default:
			b = utf8.AppendRune(b, rune(c))
		}
	}
	return string(append(b, '"'))
}

func TestAppendJSONUTF16Random(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []uint16{'a', ' ', '"', '\\', '\n', 0, 0x7F, 0x80, 0xE9, 0x2028, 0xD83D, 0xDE00, 0xDC00, 0xFFFF}
	for range 2000 {
		u := make([]uint16, rng.IntN(30))
		for i := range u {
			u[i] = alphabet[rng.IntN(len(alphabet))]
		}
		require.Equal(t, referenceJSONUTF16(u), string(appendJSONUTF16(nil, u)), "%v", u)
	}
}

func TestAppendDecimal(t *testing.T) {
	t.Parallel()
	values := []int64{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12345, 99999, 100000, 1 << 31, 1<<53 - 1,
		math.MaxInt64, math.MinInt64, math.MinInt64 + 1, -1, -9, -10, -100, -123456789}
	for p := int64(1); p < math.MaxInt64/10; p *= 10 {
		values = append(values, p-1, p, p+1, -p)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		values = append(values, rng.Int64N(1<<rng.IntN(63)+1)-rng.Int64N(1000))
	}
	for _, v := range values {
		require.Equal(t, strconv.FormatInt(v, 10), string(appendDecimal(nil, v)), "%d", v)
		require.Equal(t, "x"+strconv.FormatInt(v, 10), string(appendDecimal([]byte("x"), v)), "%d after a byte", v)
	}
}

func TestJSONWriterKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		keys []string
		want string
	}{
		{name: "short names", keys: []string{"c", "pr", "len"}, want: `{"c":1,"pr":1,"len":1}`},
		{name: "empty", keys: []string{""}, want: `{"":1}`},
		{name: "sixteen bytes", keys: []string{"abcdefghijklmnop"}, want: `{"abcdefghijklmnop":1}`},
		{name: "long", keys: []string{"abcdefghijklmnopq"}, want: `{"abcdefghijklmnopq":1}`},
		{name: "escapes", keys: []string{`a"b`, "c\\d", "e\nf"}, want: `{"a\"b":1,"c\\d":1,"e\nf":1}`},
		{name: "non-ASCII", keys: []string{"é"}, want: `{"é":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := &jsonWriter{}
			w.beginObject()
			for _, k := range tt.keys {
				w.key(k)
				w.int(1)
			}
			w.endObject()
			require.Equal(t, tt.want, string(w.buf))
		})
	}
}

// TestJSONWriterStrings writes keys and string values of every length around the short-string
// limit, with and without escapes, into buffers with little and much room to spare, and
// compares with the general string writer.
func TestJSONWriterStrings(t *testing.T) {
	t.Parallel()
	var texts []string
	for n := range maxShortString + 3 {
		texts = append(texts, strings.Repeat("k", n), strings.Repeat("é", n/2), "q\""+strings.Repeat("z", n))
	}
	for _, spare := range []int{0, 1, maxShortString + 3, maxShortString + 4, 1000} {
		w := &jsonWriter{buf: make([]byte, 0, spare)}
		want := []byte{'['}
		w.beginArray()
		for i, s := range texts {
			if i > 0 {
				want = append(want, ',')
			}
			// an object {s: s} and the same text as a JavaScript string
			w.beginObject()
			w.key(s)
			w.string(s)
			w.endObject()
			w.jsString(newStringFromGo(s))
			want = append(want, '{')
			want = append(want, referenceJSONGoString(s)...)
			want = append(want, ':')
			want = append(want, referenceJSONGoString(s)...)
			want = append(want, '}', ',')
			want = append(want, referenceJSONGoString(s)...)
		}
		w.endArray()
		want = append(want, ']')
		require.Equal(t, string(want), string(w.buf), "spare capacity %d", spare)
	}
}

func TestJSONWriterRef(t *testing.T) {
	t.Parallel()
	ids := []int{0, 7, 10, 99, 100, 12345, 99999, 100000, 1 << 40, math.MaxInt64}
	for _, spare := range []int{0, 5, 31, 32, 33, 1000} {
		w := &jsonWriter{buf: make([]byte, 0, spare)}
		want := "["
		w.beginArray()
		for i, id := range ids {
			if i > 0 {
				want += ","
			}
			w.ref(`{"#":`, id)
			w.ref(`{"@":`, id)
			want += `{"#":` + strconv.Itoa(id) + `},{"@":` + strconv.Itoa(id) + `}`
		}
		w.endArray()
		require.Equal(t, want+"]", string(w.buf), "spare capacity %d", spare)
	}
}

// TestAppendJSONFloatShortDecimals compares the number writer with strconv's shortest 'g' form
// on decimals of few digits (the fast path), their neighbouring floats, numbers of many
// digits and random bit patterns, around the limits of the fast path.
func TestAppendJSONFloatShortDecimals(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	var fs []float64
	for d := range 10 {
		p := math.Pow(10, float64(d))
		for range 3000 {
			k := rng.Int64N(int64(1e6 * p))
			f := float64(k) / p
			fs = append(fs, f, -f, math.Nextafter(f, 0), math.Nextafter(f, 1e300), float64(k)/(3*p))
		}
	}
	for range 20000 {
		fs = append(fs, math.Float64frombits(rng.Uint64()), rng.Float64()*1e6, rng.Float64()*1e-3)
	}
	for _, f := range []float64{1e-4, 1.5e-4, 0.0001234, 9.9e-5, 999999.5, 999999.75, 999999.9999999999,
		0.1, 0.2, math.Float64frombits(0x3FD3333333333334), 1.0 / 3, 2.0 / 3, 0.125, 5e-324, 1e6 - 1e-10, 123456.789, 0.000999} {
		fs = append(fs, f, -f)
	}
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		want := strconv.AppendFloat(nil, f, 'g', -1, 64)
		require.Equal(t, string(want), string(appendJSONFloat(nil, f)), "%v (bits %#x)", f, math.Float64bits(f))
	}
}

func TestAppendShortDecimal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    float64
		want string // "" when the fast path declines
	}{
		{name: "quarter", f: 12.25, want: "12.25"},
		{name: "half below one", f: -0.5, want: "-0.5"},
		{name: "tenth", f: 0.1, want: "0.1"},
		{name: "small", f: 0.0125, want: "0.0125"},
		{name: "six digits", f: 3.141593, want: "3.141593"},
		{name: "third", f: 1.0 / 3},
		{name: "sum of tenths", f: math.Float64frombits(0x3FD3333333333334)}, // 0.1 + 0.2 at run time
		{name: "seven digits", f: 1.2345678},
		{name: "too small", f: 5e-5},
		{name: "too large", f: 1234567.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := appendShortDecimal(nil, tt.f)
			require.Equal(t, tt.want != "", ok)
			require.Equal(t, tt.want, string(got))
		})
	}
}
