package syntax

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

// naivePosition counts the line and UTF-16 column of off from the start of the text.
func naivePosition(src string, off int) Position {
	line, col := 1, 1
	for i := 0; i < off; {
		r, n := utf8.DecodeRuneInString(src[i:])
		switch {
		case r == '\r' && i+1 < len(src) && src[i+1] == '\n' && i+1 < off:
			line, col = line+1, 1
			n = 2
		case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			line, col = line+1, 1
		case r > 0xFFFF:
			col += 2
		default:
			col++
		}
		i += n
	}
	return Position{Line: line, Column: col}
}

// TestLineTablePositions compares the line table, with its column marks, against counting
// from the start for every rune boundary of texts with long lines, every kind of line
// terminator and characters of one to four bytes.
func TestLineTablePositions(t *testing.T) {
	pieces := []string{"a", "bc", "\n", "\r\n", "\r", "\u2028", "\u2029", "é", "中", "😀", " ", strings.Repeat("x", 300)}
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 6; round++ {
		var b strings.Builder
		for b.Len() < 3000 {
			p := pieces[rng.Intn(len(pieces))]
			if rng.Intn(4) > 0 && (strings.ContainsAny(p, "\r\n") || strings.ContainsRune(p, '\u2028') || strings.ContainsRune(p, '\u2029')) {
				continue // mostly long lines
			}
			b.WriteString(p)
		}
		src := b.String()
		lt := newLineTable(src)
		for off := 0; off <= len(src); off++ {
			if off < len(src) && !utf8.RuneStart(src[off]) {
				continue
			}
			if off > 0 && src[off-1] == '\r' && off < len(src) && src[off] == '\n' {
				continue // inside a CRLF terminator
			}
			if got, want := lt.position(off), naivePosition(src, off); got != want {
				t.Fatalf("round %d: position(%d) = %+v, want %+v", round, off, got, want)
			}
		}
	}
}

// BenchmarkPositionsOnOneLine takes the position of every 16th byte of a 1 MB one-line text, as
// compiling a minified bundle does: linear in the text with column marks, quadratic without.
func BenchmarkPositionsOnOneLine(b *testing.B) {
	src := strings.Repeat("var a=1;", 1<<17)
	for i := 0; i < b.N; i++ {
		lt := newLineTable(src)
		for off := 0; off < len(src); off += 16 {
			lt.position(off)
		}
	}
}
