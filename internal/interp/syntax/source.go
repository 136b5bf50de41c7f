package syntax

import (
	"sort"
	"unicode/utf8"
	"unsafe"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// lineTable maps byte offsets in a source text to 1-based line and UTF-16
// column numbers. Line terminators are \n, \r, \r\n, U+2028 and U+2029, as in
// ECMAScript.
type lineTable struct {
	src    string
	starts []int // byte offset of the first byte of each line
	// marks are column checkpoints every markEvery bytes or so, in ascending offset order,
	// so that a position on a long line (a minified bundle is one line) is counted from the
	// nearest mark rather than from the start of the line.
	marks []columnMark
}

// columnMark records the UTF-16 column (1-based) at a byte offset.
type columnMark struct{ off, col int }

// markEvery is the spacing of column marks in bytes.
const markEvery = 256

func newLineTable(src string) *lineTable {
	t := &lineTable{src: src, starts: []int{0}}
	col, next := 1, markEvery
	for i := 0; i < len(src); {
		if i >= next {
			t.marks = append(t.marks, columnMark{i, col})
			next = i + markEvery
		}
		c := src[i]
		switch {
		case c == '\n':
			i++
			t.starts = append(t.starts, i)
			col = 1
		case c == '\r':
			i++
			if i < len(src) && src[i] == '\n' {
				i++
			}
			t.starts = append(t.starts, i)
			col = 1
		case c < utf8.RuneSelf:
			i++
			col++
		default:
			r, n := utf8.DecodeRuneInString(src[i:])
			i += n
			col++
			if r > 0xFFFF {
				col++
			}
			if r == '\u2028' || r == '\u2029' {
				t.starts = append(t.starts, i)
				col = 1
			}
		}
	}
	return t
}

// position converts a byte offset to a Position: its line, then its column counted from the
// last column mark on that line (or the line's start).
func (t *lineTable) position(off int) Position {
	if off < 0 || off > len(t.src) {
		return Position{}
	}
	line := sort.Search(len(t.starts), func(i int) bool { return t.starts[i] > off }) - 1
	from, col := t.starts[line], 1
	if m := sort.Search(len(t.marks), func(i int) bool { return t.marks[i].off > off }) - 1; m >= 0 && t.marks[m].off > from {
		from, col = t.marks[m].off, t.marks[m].col
	}
	for _, r := range t.src[from:off] {
		col++
		if r > 0xFFFF {
			col++
		}
	}
	return Position{Line: line + 1, Column: col}
}

// offsetOf converts a 1-based line and rune column (as tdewolff reports
// them) to a byte offset, or -1.
func (t *lineTable) offsetOf(line, runeCol int) int {
	if line < 1 || line > len(t.starts) {
		return -1
	}
	off := t.starts[line-1]
	for i := 1; i < runeCol && off < len(t.src); i++ {
		_, n := utf8.DecodeRuneInString(t.src[off:])
		off += n
	}
	return off
}

// buffer is the byte buffer the parser ran over; the AST's byte slices point
// into it, which gives their source offsets.
type buffer struct {
	b    []byte
	base uintptr
	// inserted holds, in ascending order, the buffer offsets of characters
	// that are not in the original source (see rewriteArrowDefaults).
	inserted []int
}

// toOrig maps a buffer offset to the corresponding offset in the original
// source.
func (b *buffer) toOrig(off int) int {
	if off < 0 || len(b.inserted) == 0 {
		return off
	}
	n := sort.SearchInts(b.inserted, off)
	return off - n
}

func newBuffer(src string) *buffer {
	b := make([]byte, len(src), len(src)+1) // room for the parser's NUL sentinel
	copy(b, src)
	if len(b) >= 2 && b[0] == '#' && b[1] == '!' {
		// a hashbang line is a comment; "//" keeps every offset in place
		b[0], b[1] = '/', '/'
	}
	return newBufferBytes(b)
}

// newBufferBytes wraps b, which should have room for one more byte.
func newBufferBytes(b []byte) *buffer {
	if cap(b) == len(b) {
		b = append(b[:len(b):len(b)], 0)[:len(b)]
	}
	return &buffer{b: b, base: uintptr(unsafe.Pointer(unsafe.SliceData(b)))}
}

// offset returns where s starts in the buffer, or -1 when s is empty or was
// not sliced from the buffer (the parser copies a few names).
func (b *buffer) offset(s []byte) int {
	if len(s) == 0 {
		return -1
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	if p < b.base || p >= b.base+uintptr(len(b.b)) {
		return -1
	}
	return int(p - b.base)
}

// token is one significant (non-whitespace, non-comment) lexer token; its
// text is src[off:off+n].
type token struct {
	tt  js.TokenType
	nl  bool // a line terminator precedes the token
	off int
	n   int32
}

// lexTokens splits src into significant tokens. regexps holds the offsets
// where the parser found regular expression literals, which the lexer cannot
// tell from division by itself.
func lexTokens(src []byte, regexps map[int]bool) []token {
	l := js.NewLexer(parse.NewInputBytes(src))
	toks := make([]token, 0, len(src)/4+16)
	off := 0
	nl := false
	for {
		tt, data := l.Next()
		if tt == js.ErrorToken {
			// end of input or a lexing error: the lexer cannot go on safely
			return toks
		}
		start := off
		if (tt == js.DivToken || tt == js.DivEqToken) && regexps[start] {
			tt, data = l.RegExp()
			if tt == js.ErrorToken {
				return toks
			}
		}
		off = start + len(data)
		switch tt {
		case js.WhitespaceToken, js.CommentToken:
			continue
		case js.LineTerminatorToken, js.CommentLineTerminatorToken:
			nl = true
			continue
		}
		toks = append(toks, token{tt: tt, off: start, n: int32(len(data)), nl: nl})
		nl = false
	}
}
