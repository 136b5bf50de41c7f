package jsregexp

import (
	"fmt"
	"slices"
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

// translator walks a pattern once, in the JavaScript grammar's terms: it tracks escapes,
// character classes, groups and quantifiers, checks what regexp2 would accept but JavaScript
// does not, and writes the regexp2 form.
type translator struct {
	src     []uint16
	unicode bool // u or v flag
	sets    bool // v flag
	// fold: the i flag holds throughout the pattern (no modifier group), so the translator
	// writes large sets already closed under case folding (casefold.go).
	fold   bool
	dotAll bool // s flag
	out    strings.Builder
	names  []string   // per capture group, in order; "" when unnamed
	refs   []namedRef // \k<name> references, in order
	maxDec int        // largest decimal escape outside classes
	// totalGroups is the number of capture groups in the whole pattern, known before the scan
	// as V8 knows it, so a back reference past it is an error at its own position.
	totalGroups int
	hasNamed    bool            // the pattern has a named group somewhere
	bareK       bool            // a \k not followed by <name>
	seen        map[string]bool // names of the groups closed so far
	// path is where the scan is: per enclosing disjunction (the pattern, then each open group)
	// its id and the index of the current alternative. declared holds the path of every named
	// group declared so far, to tell duplicates in different alternatives from real clashes.
	path     []altPos
	nextDisj int
	declared map[string][][]altPos
}

// namedRef is a \k<name> reference and where it was written in the output.
type namedRef struct {
	name       string
	start, end int // byte offsets of the reference in translator.out
}

// altPos is one level of a path through a pattern: a disjunction and one of its alternatives.
type altPos struct{ disj, alt int }

// isHigh and isLow classify UTF-16 surrogates.
func isHigh(c uint16) bool { return c >= 0xD800 && c <= 0xDBFF }
func isLow(c uint16) bool  { return c >= 0xDC00 && c <= 0xDFFF }

// translate checks the parts of the JavaScript grammar regexp2 does not enforce (group syntax,
// quantifier placement, duplicate names, named references, unicode-mode escapes, braces and
// class ranges, v-flag class syntax) and rewrites the pattern so regexp2 sees the characters
// the JavaScript matcher would: in non-unicode mode every surrogate becomes its private-use
// stand-in (one character per code unit), in unicode mode pairs become code points and v-flag
// classes become equivalent expressions (setClass).
func translate(src []uint16, flags Flags) (*translation, error) {
	t := &translator{src: src, unicode: flags.unicodeMode(), sets: flags.UnicodeSets, seen: map[string]bool{},
		path: []altPos{{}}, nextDisj: 1, declared: map[string][][]altPos{}, dotAll: flags.DotAll}
	t.fold = flags.IgnoreCase && !hasModifierGroup(src)
	t.totalGroups, t.hasNamed = countGroups(src)
	if err := t.run(); err != nil {
		return nil, err
	}
	if t.hasNamed || t.unicode {
		if t.bareK {
			return nil, errMessage("Invalid named reference")
		}
		for _, r := range t.refs {
			if !t.seen[r.name] {
				return nil, errMessage("Invalid named capture referenced")
			}
		}
	}
	pattern := t.pattern()
	if !flags.Multiline && startsLines(src) {
		// Every alternative must match at the start of the input, but regexp2 only searches
		// that way when the whole pattern begins with ^: otherwise it tries every position
		// (see linesearch.go). Stating the anchor once more in front makes it try one.
		pattern = "^(?:" + pattern + ")"
	}
	return &translation{pattern: pattern, names: t.names, maxDecimalEscape: t.maxDec}, nil
}

// mightBothParticipate is MightBothParticipate of the specification for two groups declared
// at paths a and b: false only when some disjunction holds them in different alternatives.
func mightBothParticipate(a, b []altPos) bool {
	for k := 0; k < len(a) && k < len(b) && a[k].disj == b[k].disj; k++ {
		if a[k].alt != b[k].alt {
			return false
		}
	}
	return true
}

// pattern returns the translated pattern. A \k<name> whose name several groups carry becomes
// a reference to each of them in turn: at most one of them participates in a match, and a
// reference to a group that did not participate matches the empty string.
func (t *translator) pattern() string {
	out := t.out.String()
	var b strings.Builder
	done := 0
	for _, r := range t.refs {
		var idx []int
		for k, n := range t.names {
			if n == r.name {
				idx = append(idx, k+1)
			}
		}
		if len(idx) < 2 {
			continue
		}
		b.WriteString(out[done:r.start])
		b.WriteString("(?:")
		for _, k := range idx {
			fmt.Fprintf(&b, `\k<%d>`, k)
		}
		b.WriteByte(')')
		done = r.end
	}
	if done == 0 {
		return out
	}
	b.WriteString(out[done:])
	return b.String()
}

// messageError carries a V8 message out of the translator; Compile wraps it in a SyntaxError.
type messageError string

func (e messageError) Error() string { return string(e) }

// errMessage returns a translation error with V8's message m.
func errMessage(m string) error { return messageError(m) }

// atomKind is what the pattern ended with so far, which decides whether a quantifier may
// follow and which error V8 reports when it may not.
type atomKind int

const (
	kindNone       atomKind = iota // start of the pattern, of a group, or of an alternative
	kindAtom                       // a character, class, escape or group
	kindQuantified                 // a greedy quantifier; a '?' may make it lazy
	kindLazy                       // a lazy quantifier
	kindAssertion                  // ^ $ \b \B
	kindLookahead                  // (?= ) or (?! )
	kindLookbehind                 // (?<= ) or (?<! )
)

// quantifierError returns the V8 error for a quantifier after last, or nil when it is allowed.
func (t *translator) quantifierError(last atomKind) error {
	switch last {
	case kindNone, kindAssertion, kindQuantified, kindLazy:
		return errMessage("Nothing to repeat")
	case kindLookbehind:
		return errMessage("Invalid quantifier")
	case kindLookahead:
		if t.unicode {
			return errMessage("Invalid quantifier")
		}
	}
	return nil
}

// run scans the pattern in order, so the first error found is the one V8 reports for the
// syntax it checks (groups, quantifiers, braces, unicode escapes); the rest is left to regexp2.
func (t *translator) run() error {
	src := t.src
	inClass := false
	last := kindNone
	type openGroup struct {
		kind atomKind
		name string   // "" unless a named group
		path []altPos // where a named group is declared
	}
	var groups []openGroup
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\\':
			next, err := t.escape(i, inClass)
			if err != nil {
				return err
			}
			if !inClass {
				last = kindAtom
				if i+1 < len(src) && (src[i+1] == 'b' || src[i+1] == 'B') {
					last = kindAssertion
				}
			}
			i = next
		case inClass:
			if c == ']' {
				inClass = false
			}
			i = t.writeChar(i)
		case c == '[':
			last = kindAtom
			if !t.unicode {
				next, err := t.class(i)
				if err != nil {
					return err
				}
				i = next
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
			if err := t.checkUnicodeClass(i); err != nil {
				return err
			}
			inClass = true
			t.out.WriteByte('[')
			i++
		case c == '(':
			next, kind, err := t.group(i)
			if err != nil {
				return err
			}
			g := openGroup{kind: kind}
			if kind == kindAtom && i+2 < len(src) && src[i+1] == '?' && src[i+2] == '<' {
				g.name, g.path = t.names[len(t.names)-1], slices.Clone(t.path)
			}
			groups = append(groups, g)
			t.path = append(t.path, altPos{disj: t.nextDisj})
			t.nextDisj++
			last = kindNone
			i = next
		case c == ')':
			if len(groups) == 0 {
				return errMessage("Unmatched ')'")
			}
			g := groups[len(groups)-1]
			groups = groups[:len(groups)-1]
			t.path = t.path[:len(t.path)-1]
			last = g.kind
			if g.name != "" {
				// V8 checks names as groups close. A name may be reused only where the two
				// groups cannot both participate in a match.
				for _, other := range t.declared[g.name] {
					if mightBothParticipate(other, g.path) {
						return errMessage("Duplicate capture group name")
					}
				}
				t.declared[g.name] = append(t.declared[g.name], g.path)
				t.seen[g.name] = true
			}
			t.out.WriteByte(')')
			i++
		case c == '|':
			last = kindNone
			t.path[len(t.path)-1].alt++
			t.out.WriteByte('|')
			i++
		case c == '^' || c == '$':
			last = kindAssertion
			t.out.WriteByte(byte(c))
			i++
		case c == '*' || c == '+' || c == '?':
			if c == '?' && last == kindQuantified {
				last = kindLazy
			} else if err := t.quantifierError(last); err != nil {
				return err
			} else {
				last = kindQuantified
			}
			t.out.WriteByte(byte(c))
			i++
		case c == '{':
			n := quantifierLen(src[i:])
			if n > 0 {
				if err := t.quantifierError(last); err != nil {
					return err
				}
				t.writeQuantifier(src[i : i+n])
				last = kindQuantified
				i += n
				continue
			}
			if t.unicode {
				if last == kindAtom || last == kindLookahead || last == kindLookbehind {
					return errMessage("Incomplete quantifier")
				}
				return errMessage("Lone quantifier brackets")
			}
			last = kindAtom
			i = t.writeChar(i)
		case t.unicode && (c == '}' || c == ']'):
			return errMessage("Lone quantifier brackets")
		case c == '.' && t.fold && !t.dotAll:
			last = kindAtom
			t.out.WriteString(dotClass)
			i++
		default:
			last = kindAtom
			i = t.writeChar(i)
		}
	}
	if inClass {
		return errMessage("Unterminated character class")
	}
	if len(groups) > 0 {
		return errMessage("Unterminated group")
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
		return 0, errMessage(`\ at end of pattern`)
	}
	n := src[i+1]
	if t.unicode {
		if err := t.unicodeEscapeError(i, inClass); err != nil {
			return 0, err
		}
	}
	switch {
	case n == 'k' && !inClass:
		if i+2 < len(src) && src[i+2] == '<' {
			if name, end, ok := t.readName(i + 3); ok {
				start := t.out.Len()
				t.out.WriteString(`\k<`)
				t.out.WriteString(name)
				t.out.WriteByte('>')
				t.refs = append(t.refs, namedRef{name: name, start: start, end: t.out.Len()})
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
	case t.fold && !inClass && foldedEscapes[n] != "":
		t.out.WriteString(foldedEscapes[n])
		return i + 2, nil
	case n >= '1' && n <= '9' && !inClass:
		v, j := 0, i+1
		for j < len(src) && src[j] >= '0' && src[j] <= '9' && v < 1<<20 {
			v = v*10 + int(src[j]-'0')
			j++
		}
		t.maxDec = max(t.maxDec, v)
		if t.unicode && v > t.totalGroups {
			return 0, errMessage("Invalid escape")
		}
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

// countGroups counts the capture groups of a pattern and reports whether any is named. A
// group is "(" not followed by "?", or followed by "?<" and a name, outside classes and escapes.
func countGroups(src []uint16) (n int, named bool) {
	groupOpenings(src, func(i int) bool {
		if i+1 >= len(src) || src[i+1] != '?' {
			n++
		} else if i+3 < len(src) && src[i+2] == '<' && src[i+3] != '=' && src[i+3] != '!' {
			n++
			named = true
		}
		return true
	})
	return n, named
}

// groupOpenings calls fn with the index of every "(" of the pattern outside classes and
// escapes, in order, until fn returns false.
func groupOpenings(src []uint16, fn func(i int) bool) {
	inClass := false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(':
			if !fn(i) {
				return
			}
		}
	}
}

// unicodeEscapeError returns the error V8 reports for the escape at src[i] in unicode mode
// (src[i+1] exists), or nil.
func (t *translator) unicodeEscapeError(i int, inClass bool) error {
	n := t.src[i+1]
	allowed := unicodeEscapes
	if inClass {
		allowed = unicodeClassEscapes
	}
	if n >= 0x80 || !strings.ContainsRune(allowed, rune(n)) {
		return errMessage("Invalid escape")
	}
	return t.checkUnicodeEscape(i, inClass)
}

// checkUnicodeEscape applies unicode mode's rules to the escape at src[i] (a backslash and
// an allowed letter): \c needs a letter, \x two hex digits, \u four or a braced code point,
// \0 no digit after it, and inside a class no back references.
func (t *translator) checkUnicodeEscape(i int, inClass bool) error {
	src := t.src
	n := src[i+1]
	rest := src[i+2:]
	isHex := func(k int) bool { return k < len(rest) && hexValue(rest[k]) >= 0 }
	switch {
	case n == 'c':
		if len(rest) == 0 || !(rest[0]|0x20 >= 'a' && rest[0]|0x20 <= 'z') {
			return errMessage("Invalid Unicode escape")
		}
	case n == 'x':
		if !isHex(0) || !isHex(1) {
			return errMessage("Invalid escape")
		}
	case n == 'u':
		if _, _, ok := parseUnicodeEscape(rest); !ok {
			return errMessage("Invalid Unicode escape")
		}
	case n == '0':
		if len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' {
			if inClass {
				return errMessage("Invalid class escape")
			}
			return errMessage("Invalid decimal escape")
		}
	case n >= '1' && n <= '7' && inClass:
		return errMessage("Invalid class escape")
	case (n == '8' || n == '9') && inClass:
		return errMessage("Invalid escape")
	}
	return nil
}

// group handles an opening parenthesis at src[i] and returns the index after what it wrote.
func (t *translator) group(i int) (int, atomKind, error) {
	src := t.src
	if i+1 >= len(src) || src[i+1] != '?' {
		t.names = append(t.names, "")
		t.out.WriteByte('(')
		return i + 1, kindAtom, nil
	}
	if i+2 >= len(src) {
		return 0, 0, errMessage("Invalid group")
	}
	switch src[i+2] {
	case ':', '=', '!':
		t.out.WriteString("(?")
		t.out.WriteRune(rune(src[i+2]))
		kind := kindAtom
		if src[i+2] != ':' {
			kind = kindLookahead
		}
		return i + 3, kind, nil
	case '<':
		if i+3 < len(src) && (src[i+3] == '=' || src[i+3] == '!') {
			t.out.WriteString("(?<")
			t.out.WriteRune(rune(src[i+3]))
			return i + 4, kindLookbehind, nil
		}
		name, end, ok := t.readName(i + 3)
		if !ok || name == "" {
			return 0, 0, errMessage("Invalid capture group name")
		}
		if slices.Contains(t.names, name) {
			// A reused name (allowed in another alternative) is a plain group for regexp2,
			// which wants names unique; references to the name cover every group (pattern).
			t.names = append(t.names, name)
			t.out.WriteByte('(')
			return end, kindAtom, nil
		}
		t.names = append(t.names, name)
		t.out.WriteString("(?<")
		t.out.WriteString(name)
		t.out.WriteByte('>')
		return end, kindAtom, nil
	}
	if isModifierStart(src[i+2]) {
		g, err := parseModifiers(src, i+2)
		if err != nil {
			return 0, 0, err
		}
		t.out.WriteString(g.regexp2())
		return g.end, kindAtom, nil
	}
	return 0, 0, errMessage("Invalid group")
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
