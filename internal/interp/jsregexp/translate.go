package jsregexp

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// translation is the result of checking and rewriting a JavaScript pattern for regexp2.
type translation struct {
	pattern string   // regexp2 ECMAScript syntax, UTF-8
	names   []string // per capture group 1..n, "" when unnamed
	// maxDecimalEscape is the largest \N outside classes (0 if none); when it exceeds the
	// group count, some \N are legacy octal escapes whose meaning depends on the count.
	maxDecimalEscape int
}

// translator walks a pattern once, in the JavaScript grammar's terms: it tracks escapes and
// character classes so that only real group openings and named references are inspected.
type translator struct {
	src     []uint16
	unicode bool
	sets    bool // v flag
	out     strings.Builder
	names   []string
	refs    []string // names used by \k<name>
	maxDec  int      // largest decimal escape outside classes
	bareK   bool     // a \k not followed by <name>
	seen    map[string]bool
}

// isHigh and isLow classify UTF-16 surrogates.
func isHigh(c uint16) bool { return c >= 0xD800 && c <= 0xDBFF }
func isLow(c uint16) bool  { return c >= 0xDC00 && c <= 0xDFFF }

// translate checks the parts of the JavaScript grammar regexp2 does not enforce (group syntax,
// duplicate names, named references, unicode-mode escapes and braces) and the v-flag class
// syntax (translated by setClass), and rewrites code units so regexp2
// sees the same characters the JavaScript matcher would: in non-unicode mode every surrogate
// becomes a \uXXXX escape (one character per code unit), in unicode mode pairs become code points.
func translate(src []uint16, flags Flags) (*translation, error) {
	t := &translator{src: src, unicode: flags.unicodeMode(), sets: flags.UnicodeSets, seen: map[string]bool{}}
	if err := t.run(); err != nil {
		return nil, err
	}
	if len(t.names) > 0 && hasNamed(t.names) || t.unicode {
		if t.bareK {
			return nil, errMessage("Invalid named reference")
		}
		for _, r := range t.refs {
			if !t.seen[r] {
				return nil, errMessage("Invalid named capture referenced")
			}
		}
	}
	return &translation{pattern: t.out.String(), names: t.names, maxDecimalEscape: t.maxDec}, nil
}

func hasNamed(names []string) bool {
	for _, n := range names {
		if n != "" {
			return true
		}
	}
	return false
}

// messageError carries a V8 message out of the translator; Compile wraps it in a SyntaxError.
type messageError string

func (e messageError) Error() string { return string(e) }

func errMessage(m string) error { return messageError(m) }

func (t *translator) run() error {
	src := t.src
	inClass := false
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\\':
			next, err := t.escape(i, inClass)
			if err != nil {
				return err
			}
			i = next
		case inClass:
			if c == ']' {
				inClass = false
			}
			i = t.writeChar(i)
		case c == '[':
			if !t.unicode {
				i = t.class(i)
				continue
			}
			if t.sets {
				expr, _, next, err := t.setClass(i)
				if err != nil {
					return err
				}
				t.out.WriteString(expr)
				i = next
				continue
			}
			inClass = true
			t.out.WriteByte('[')
			i++
		case c == '(':
			next, err := t.group(i)
			if err != nil {
				return err
			}
			i = next
		case t.unicode && (c == '{' || c == '}' || c == ']'):
			if c != '{' {
				return errMessage("Lone quantifier brackets")
			}
			n := quantifierLen(src[i:])
			if n < 0 {
				return errMessage("Incomplete quantifier")
			}
			if n == 0 {
				return errMessage("Lone quantifier brackets")
			}
			t.writeQuantifier(src[i : i+n])
			i += n
		case c == '{':
			if n := quantifierLen(src[i:]); n > 0 {
				t.writeQuantifier(src[i : i+n])
				i += n
				continue
			}
			i = t.writeChar(i)
		default:
			i = t.writeChar(i)
		}
	}
	return nil
}

// quantifierLen returns the length of a {n}, {n,} or {n,m} quantifier at the start of s, 0 when
// s does not start with a digit after '{' (a lone brace), and -1 for an unfinished quantifier.
func quantifierLen(s []uint16) int {
	i := 1
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if digits() == 0 {
		return 0
	}
	if i < len(s) && s[i] == ',' {
		i++
		digits()
	}
	if i < len(s) && s[i] == '}' {
		return i + 1
	}
	return -1
}

// maxRepeat is the largest repeat count passed to regexp2; JavaScript allows any count, and
// counts this large can never be met by an input of at most MaxInput units.
const maxRepeat = 1<<31 - 1

// writeQuantifier writes a {n}, {n,} or {n,m} quantifier with its counts capped at maxRepeat.
func (t *translator) writeQuantifier(q []uint16) {
	v, digits := 0, false
	flush := func() {
		if digits {
			t.out.WriteString(strconv.Itoa(v))
		}
		v, digits = 0, false
	}
	for _, c := range q {
		if c >= '0' && c <= '9' {
			v = min(v*10+int(c-'0'), maxRepeat)
			digits = true
			continue
		}
		flush()
		t.out.WriteByte(byte(c))
	}
}

// unicodeEscapes are the characters that may follow a backslash in unicode mode, outside and
// inside a character class.
const (
	unicodeEscapes      = "^$\\.*+?()[]{}|/bBdDsSwWfnrtvcxupPk0123456789"
	unicodeClassEscapes = "^$\\.*+?()[]{}|/-bdDsSwWfnrtvcxupP0123456789"
)

// escape handles a backslash at src[i] and returns the index after the escape.
func (t *translator) escape(i int, inClass bool) (int, error) {
	src := t.src
	if i+1 >= len(src) {
		t.out.WriteByte('\\') // regexp2 reports the trailing backslash
		return i + 1, nil
	}
	n := src[i+1]
	if t.unicode {
		allowed := unicodeEscapes
		if inClass {
			allowed = unicodeClassEscapes
		}
		if n >= 0x80 || !strings.ContainsRune(allowed, rune(n)) {
			return 0, errMessage("Invalid escape")
		}
	}
	switch {
	case n == 'k' && !inClass:
		if i+2 < len(src) && src[i+2] == '<' {
			if name, end, ok := t.readName(i + 3); ok {
				t.refs = append(t.refs, name)
				t.out.WriteString(`\k<`)
				t.out.WriteString(name)
				t.out.WriteByte('>')
				return end, nil
			}
		}
		t.bareK = true
		t.out.WriteString(`\k`)
		return i + 2, nil
	case isHigh(n) || isLow(n):
		// Identity escape of a surrogate (non-unicode mode only): the unit itself.
		t.writeUnit(n)
		return i + 2, nil
	case t.unicode && (n == 'p' || n == 'P' || n == 'u') && i+2 < len(src) && src[i+2] == '{':
		// \p{...}, \P{...} and \u{...}: copy through the closing brace for regexp2 to check.
		j := i + 3
		for j < len(src) && src[j] != '}' && src[j] < 0x80 {
			j++
		}
		if j < len(src) && src[j] == '}' {
			j++
		}
		for _, u := range src[i:j] {
			t.writeUnit(u)
		}
		return j, nil
	case n >= '1' && n <= '9' && !inClass:
		v, j := 0, i+1
		for j < len(src) && src[j] >= '0' && src[j] <= '9' && v < 1<<20 {
			v = v*10 + int(src[j]-'0')
			j++
		}
		t.maxDec = max(t.maxDec, v)
	case n == 'u' && !t.unicode:
		if v, size, ok := parseUnicodeEscape(src[i+2:]); ok && size == 4 && v >= 0xD800 && v <= 0xDFFF {
			t.writeUnit(uint16(v))
			return i + 2 + size, nil
		}
	}
	t.out.WriteByte('\\')
	t.writeUnit(n)
	return i + 2, nil
}

// group handles an opening parenthesis at src[i] and returns the index after what it wrote.
func (t *translator) group(i int) (int, error) {
	src := t.src
	if i+1 >= len(src) || src[i+1] != '?' {
		t.names = append(t.names, "")
		t.out.WriteByte('(')
		return i + 1, nil
	}
	if i+2 >= len(src) {
		return 0, errMessage("Invalid group")
	}
	switch src[i+2] {
	case ':', '=', '!':
		t.out.WriteString("(?")
		t.out.WriteRune(rune(src[i+2]))
		return i + 3, nil
	case '<':
		if i+3 < len(src) && (src[i+3] == '=' || src[i+3] == '!') {
			t.out.WriteString("(?<")
			t.out.WriteRune(rune(src[i+3]))
			return i + 4, nil
		}
		name, end, ok := t.readName(i + 3)
		if !ok || name == "" {
			return 0, errMessage("Invalid capture group name")
		}
		if t.seen[name] {
			return 0, errMessage("Duplicate capture group name")
		}
		t.seen[name] = true
		t.names = append(t.names, name)
		t.out.WriteString("(?<")
		t.out.WriteString(name)
		t.out.WriteByte('>')
		return end, nil
	}
	return 0, errMessage("Invalid group")
}

// readName reads a group name starting at src[i] up to '>', decoding \uXXXX, \u{X} and
// surrogate pairs. It returns the name, the index after '>', and whether a '>' was found.
// Whether the name's characters are allowed is left to regexp2.
func (t *translator) readName(i int) (string, int, bool) {
	src := t.src
	var units []uint16
	for i < len(src) {
		c := src[i]
		switch {
		case c == '>':
			return string(utf16.Decode(units)), i + 1, true
		case c == '\\' && i+1 < len(src) && src[i+1] == 'u':
			v, n, ok := parseUnicodeEscape(src[i+2:])
			if !ok {
				return "", 0, false
			}
			if v > 0xFFFF {
				r1, r2 := utf16.EncodeRune(rune(v))
				units = append(units, uint16(r1), uint16(r2))
			} else {
				units = append(units, uint16(v))
			}
			i += 2 + n
		case c == '(' || c == ')' || c == '\\':
			return "", 0, false
		default:
			units = append(units, c)
			i++
		}
	}
	return "", 0, false
}

// parseUnicodeEscape parses "XXXX" or "{X...}" after "\u", returning the value and the number of
// code units consumed.
func parseUnicodeEscape(s []uint16) (int, int, bool) {
	if len(s) > 0 && s[0] == '{' {
		v := 0
		for j := 1; j < len(s); j++ {
			if s[j] == '}' {
				return v, j + 1, j > 1 && v <= 0x10FFFF
			}
			d := hexValue(s[j])
			if d < 0 || v > 0x10FFFF {
				return 0, 0, false
			}
			v = v*16 + d
		}
		return 0, 0, false
	}
	if len(s) < 4 {
		return 0, 0, false
	}
	v := 0
	for j := range 4 {
		d := hexValue(s[j])
		if d < 0 {
			return 0, 0, false
		}
		v = v*16 + d
	}
	return v, 4, true
}

func hexValue(c uint16) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// writeChar writes the character at src[i] (one code unit, or a pair in unicode mode) and
// returns the index after it.
func (t *translator) writeChar(i int) int {
	src := t.src
	c := src[i]
	if t.unicode && isHigh(c) && i+1 < len(src) && isLow(src[i+1]) {
		t.out.WriteRune(utf16.DecodeRune(rune(c), rune(src[i+1])))
		return i + 2
	}
	t.writeUnit(c)
	return i + 1
}

// writeUnit writes one code unit as the character regexp2 should see: in unicode mode a
// surrogate becomes a braced escape (kept separate from its neighbours), in non-unicode mode its
// stand-in (see surrogateStandIn); everything else its UTF-8 encoding.
func (t *translator) writeUnit(c uint16) {
	switch {
	case isHigh(c) || isLow(c):
		if t.unicode {
			fmt.Fprintf(&t.out, `\u{%X}`, c)
		} else {
			t.out.WriteRune(surrogateStandIn(c))
		}
	default:
		t.out.WriteRune(rune(c))
	}
}

// sourceString renders a pattern for error messages (lone surrogates become U+FFFD).
func sourceString(src []uint16) string {
	var b strings.Builder
	for _, r := range utf16.Decode(src) {
		if !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
	}
	return b.String()
}
