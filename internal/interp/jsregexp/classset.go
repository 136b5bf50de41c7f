package jsregexp

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
)

// setClass is a v-flag character class translated for regexp2, which has no set notation.
// Every class becomes an expression that matches one element of the set: plain members go
// into an ordinary class, nested classes and strings (\q{...}) become alternatives,
// intersection becomes lookaheads ((?=B)A) and subtraction negative lookaheads ((?!B)A).
// That is exact for sets of single code points, which is all that intersection, subtraction
// and negation may hold here.
type setClass struct {
	plain   strings.Builder // members of an ordinary class, without brackets
	alts    []string        // nested classes
	strs    []classString   // strings of other than one code point, matched longest first
	strings bool            // the set may contain strings
}

// classString is a \q{...} alternative: its expression and its length in code points.
type classString struct {
	expr string
	n    int
}

// expr renders a union as one regexp2 expression. Strings come first, longest first, as the
// specification orders them; strings inside nested classes keep their nested position.
func (c *setClass) expr() string {
	var parts []string
	slices.SortStableFunc(c.strs, func(a, b classString) int { return b.n - a.n })
	for _, s := range c.strs {
		parts = append(parts, s.expr)
	}
	parts = append(parts, c.alts...)
	if c.plain.Len() > 0 {
		parts = append(parts, "["+c.plain.String()+"]")
	}
	switch len(parts) {
	case 0:
		return "[]"
	case 1:
		if c.plain.Len() > 0 && len(c.alts)+len(c.strs) == 0 {
			return parts[0]
		}
	}
	return "(?:" + strings.Join(parts, "|") + ")"
}

// classSetSyntax are the characters that must be escaped inside a v-flag class.
const classSetSyntax = "()[]{}/-\\|"

// classSetDoubles are the characters that may not appear doubled inside a v-flag class.
const classSetDoubles = "&!#$%*+,.:;<=>?@^`~"

// classSetPunctuators may be escaped inside a v-flag class.
const classSetPunctuators = "&-!#%,:;<=>@`~"

// setClass translates the v-flag class at src[i] == '[' and returns its expression, whether it
// may contain strings, and the index after it.
func (t *translator) setClass(i int) (string, bool, int, error) {
	src := t.src
	i++
	negated := false
	if i < len(src) && src[i] == '^' {
		negated = true
		i++
	}
	var c setClass
	var operands []string // for && and --
	op := ""              // "", "&&" or "--"
	members, hadRange := 0, false
	for {
		if i >= len(src) {
			return "", false, 0, errMessage("Unterminated character class")
		}
		if src[i] == ']' {
			i++
			break
		}
		// A set operator between operands.
		if i+1 < len(src) && (src[i] == '&' && src[i+1] == '&' || src[i] == '-' && src[i+1] == '-') {
			this := string(rune(src[i])) + string(rune(src[i]))
			first := op == ""
			// The first operand must be exactly one operand, not a range or a union.
			if first && (members != 1 || hadRange) || !first && op != this {
				return "", false, 0, errMessage("Invalid set operation in character class")
			}
			if first {
				if c.strings {
					return "", false, 0, errMessage("Unsupported strings in set operation")
				}
				operands = append(operands, c.expr())
				c = setClass{}
			}
			op = this
			i += 2
			if this == "&&" && i < len(src) && src[i] == '&' {
				return "", false, 0, errMessage("Invalid character in character class")
			}
			expr, strs, next, err := t.setOperand(i)
			if err != nil {
				return "", false, 0, err
			}
			if strs {
				return "", false, 0, errMessage("Unsupported strings in set operation")
			}
			operands = append(operands, expr)
			i = next
			continue
		}
		if op != "" {
			return "", false, 0, errMessage("Invalid set operation in character class")
		}
		next, isRange, err := t.setUnionMember(&c, i)
		if err != nil {
			return "", false, 0, err
		}
		members++
		hadRange = hadRange || isRange
		i = next
	}
	var expr string
	mayStrings := false
	switch op {
	case "&&":
		var b strings.Builder
		b.WriteString("(?:")
		for _, o := range operands[1:] {
			b.WriteString("(?=" + o + ")")
		}
		b.WriteString(operands[0] + ")")
		expr = b.String()
	case "--":
		var b strings.Builder
		b.WriteString("(?:")
		for _, o := range operands[1:] {
			b.WriteString("(?!" + o + ")")
		}
		b.WriteString(operands[0] + ")")
		expr = b.String()
	default:
		mayStrings = c.strings
		if negated && len(c.alts)+len(c.strs) == 0 {
			return "[^" + c.plain.String() + "]", false, i, nil
		}
		expr = c.expr()
	}
	if negated {
		if mayStrings {
			return "", false, 0, errMessage("Negated character class may contain strings")
		}
		expr = "(?:(?!" + expr + ")[^])"
	}
	return expr, mayStrings, i, nil
}

// setOperand reads one operand of && or --: a nested class, \q{...}, a class escape or a
// single character. It returns the operand's expression.
func (t *translator) setOperand(i int) (string, bool, int, error) {
	src := t.src
	if i >= len(src) {
		return "", false, 0, errMessage("Unterminated character class")
	}
	if src[i] == '[' {
		return t.setClass(i)
	}
	var c setClass
	next, _, err := t.setMember(&c, i, false)
	if err != nil {
		return "", false, 0, err
	}
	return c.expr(), c.strings, next, nil
}

// setUnionMember reads one member of a union: a nested class, \q{...}, a class escape, a
// character or a range.
func (t *translator) setUnionMember(c *setClass, i int) (int, bool, error) {
	if t.src[i] == '[' {
		expr, strs, next, err := t.setClass(i)
		if err != nil {
			return 0, false, err
		}
		c.alts = append(c.alts, expr)
		c.strings = c.strings || strs
		return next, false, nil
	}
	return t.setMember(c, i, true)
}

// setMember reads a class escape, \q{...}, a character, or (when ranges is set) a range.
func (t *translator) setMember(c *setClass, i int, ranges bool) (int, bool, error) {
	src := t.src
	if src[i] == '\\' && i+1 < len(src) {
		switch src[i+1] {
		case 'd', 'D', 's', 'S', 'w', 'W':
			c.plain.WriteString(`\` + string(rune(src[i+1])))
			return i + 2, false, nil
		case 'p', 'P':
			j := i + 2
			for j < len(src) && src[j] != '}' && src[j] < 0x80 {
				j++
			}
			if j >= len(src) || src[j] != '}' || src[i+2] != '{' {
				return 0, false, errMessage("Invalid property name")
			}
			c.plain.WriteString(string(utf16.Decode(src[i : j+1])))
			return j + 1, false, nil
		case 'q':
			next, err := t.setStrings(c, i)
			return next, false, err
		}
	}
	lo, next, err := t.setChar(i)
	if err != nil {
		return 0, false, err
	}
	if ranges && next+1 < len(src) && src[next] == '-' && src[next+1] != '-' {
		hi, end, err := t.setChar(next + 1)
		if err != nil {
			return 0, false, err
		}
		if lo > hi {
			return 0, false, errMessage("Range out of order in character class")
		}
		fmt.Fprintf(&c.plain, `\u{%X}-\u{%X}`, lo, hi)
		return end, true, nil
	}
	fmt.Fprintf(&c.plain, `\u{%X}`, lo)
	return next, false, nil
}

// setStrings reads \q{a|bc|...} at src[i].
func (t *translator) setStrings(c *setClass, i int) (int, error) {
	src := t.src
	if i+2 >= len(src) || src[i+2] != '{' {
		return 0, errMessage("Invalid escape")
	}
	i += 3
	var cur []rune
	flush := func() {
		switch len(cur) {
		case 1:
			fmt.Fprintf(&c.plain, `\u{%X}`, cur[0])
		default:
			var b strings.Builder
			for _, r := range cur {
				fmt.Fprintf(&b, `\u{%X}`, r)
			}
			if len(cur) == 0 {
				b.WriteString("(?:)")
			}
			c.strs = append(c.strs, classString{expr: b.String(), n: len(cur)})
			c.strings = true
		}
		cur = cur[:0]
	}
	for {
		if i >= len(src) {
			return 0, errMessage("Unterminated character class")
		}
		switch src[i] {
		case '}':
			flush()
			return i + 1, nil
		case '|':
			flush()
			i++
			continue
		}
		r, next, err := t.setChar(i)
		if err != nil {
			return 0, err
		}
		cur = append(cur, r)
		i = next
	}
}

// setChar reads one ClassSetCharacter at src[i] and returns its code point.
func (t *translator) setChar(i int) (rune, int, error) {
	src := t.src
	c := src[i]
	if c != '\\' {
		if strings.ContainsRune(classSetSyntax, rune(c)) {
			return 0, 0, errMessage("Invalid character in character class")
		}
		if i+1 < len(src) && src[i+1] == c && strings.ContainsRune(classSetDoubles, rune(c)) {
			return 0, 0, errMessage("Invalid set operation in character class")
		}
		if isHigh(c) && i+1 < len(src) && isLow(src[i+1]) {
			return utf16.DecodeRune(rune(c), rune(src[i+1])), i + 2, nil
		}
		return rune(c), i + 1, nil
	}
	if i+1 >= len(src) {
		return 0, 0, errMessage(`\ at end of pattern`)
	}
	n := src[i+1]
	switch n {
	case 'b':
		return '\b', i + 2, nil
	case 'f':
		return '\f', i + 2, nil
	case 'n':
		return '\n', i + 2, nil
	case 'r':
		return '\r', i + 2, nil
	case 't':
		return '\t', i + 2, nil
	case 'v':
		return '\v', i + 2, nil
	case '0':
		if i+2 < len(src) && src[i+2] >= '0' && src[i+2] <= '9' {
			return 0, 0, errMessage("Invalid class escape")
		}
		return 0, i + 2, nil
	case 'c':
		if i+2 < len(src) && (src[i+2]|0x20 >= 'a' && src[i+2]|0x20 <= 'z') {
			return rune(src[i+2] % 32), i + 3, nil
		}
		return 0, 0, errMessage("Invalid Unicode escape")
	case 'x':
		if i+3 < len(src) && hexValue(src[i+2]) >= 0 && hexValue(src[i+3]) >= 0 {
			return rune(hexValue(src[i+2])*16 + hexValue(src[i+3])), i + 4, nil
		}
		return 0, 0, errMessage("Invalid escape")
	case 'u':
		v, size, ok := parseUnicodeEscape(src[i+2:])
		if !ok {
			return 0, 0, errMessage("Invalid Unicode escape")
		}
		end := i + 2 + size
		// \uHHHH\uHHHH surrogate pairs form one code point in unicode mode.
		if size == 4 && v >= 0xD800 && v <= 0xDBFF && end+1 < len(src) && src[end] == '\\' && src[end+1] == 'u' {
			if lo, lsize, ok := parseUnicodeEscape(src[end+2:]); ok && lsize == 4 && lo >= 0xDC00 && lo <= 0xDFFF {
				return utf16.DecodeRune(rune(v), rune(lo)), end + 2 + lsize, nil
			}
		}
		return rune(v), end, nil
	}
	if n >= '1' && n <= '7' {
		return 0, 0, errMessage("Invalid class escape")
	}
	if n < 0x80 && (strings.ContainsRune("^$\\.*+?()[]{}|/", rune(n)) || strings.ContainsRune(classSetPunctuators, rune(n))) {
		return rune(n), i + 2, nil
	}
	return 0, 0, errMessage("Invalid escape")
}
