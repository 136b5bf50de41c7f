package jsregexp

// A direct matcher for the simplest and most common patterns: alternatives of
// single-character atoms (literal characters, character classes, the class escapes and '.'),
// each with an optional quantifier, and the assertions ^, $, \b and \B. Such patterns have no
// groups, back references or lookaround, so matching needs no capture bookkeeping: a small
// backtracking loop over the prepared input's runes finds the same leftmost match as the
// engine, without the engine's fixed cost per search, which dominates on the short strings
// that libraries test, split and escape. Patterns outside that form, the v flag, and the i
// flag together with u keep the engine; so does a search whose backtracking exceeds a budget
// proportional to the input (the engine then runs it, under its time limit).

type simpleKind uint8

const (
	simpleChar      simpleKind = iota // one character of a set, quantified
	simpleLineStart                   // ^
	simpleLineEnd                     // $
	simpleWordB                       // \b
	simpleNotWordB                    // \B
)

// charSet is a set of characters: a bitmap of the ASCII members and ranges of the others,
// complemented when negate is set.
type charSet struct {
	ascii  [2]uint64
	ranges []runeRange // members from 0x80 on
	negate bool
}

func (c *charSet) has(r rune) bool {
	in := false
	if r < 0x80 {
		in = c.ascii[r>>6]&(1<<(uint(r)&63)) != 0
	} else {
		for _, rg := range c.ranges {
			if r >= rg.lo && r <= rg.hi {
				in = true
				break
			}
		}
	}
	return in != c.negate
}

// simpleItem is one element of an alternative.
type simpleItem struct {
	kind simpleKind
	// set is the characters a simpleChar item matches; nil when it is one literal character
	// (lit, or lit2: the other ASCII case under the i flag, else lit again).
	set       *charSet
	lit, lit2 rune
	min, max  int // repetitions; max < 0: unbounded
	lazy      bool
}

func (it *simpleItem) matches(r rune) bool {
	if it.set == nil {
		return r == it.lit || r == it.lit2
	}
	return it.set.has(r)
}

// simplePattern is a pattern of the simple form: its alternatives in order.
type simplePattern struct {
	alts      [][]simpleItem
	multiline bool
	// first holds, when every alternative starts with a character item matched at least
	// once, those items: a match can only start at a character one of them matches.
	first []*simpleItem
	// firstASCII is the ASCII characters first matches, as a bitmap.
	firstASCII [2]uint64
	// startOnly: every alternative starts with ^ without the m flag.
	startOnly bool
}

// simple search outcomes.
const (
	simpleNoMatch = iota
	simpleFound
	simpleGaveUp // the backtracking budget ran out: let the engine search
)

// exec finds the leftmost match at or after rune index start (only there when sticky) and
// returns its rune bounds.
func (p *simplePattern) exec(rs []rune, start int, sticky bool) (int, int, int) {
	steps := 4096 + 32*len(rs)
	for pos := start; pos <= len(rs); pos++ {
		if p.startOnly && pos > 0 {
			return 0, 0, simpleNoMatch
		}
		if p.first != nil {
			if !sticky {
				for ; pos < len(rs); pos++ {
					if r := rs[pos]; r < 0x80 {
						if p.firstASCII[r>>6]&(1<<(uint(r)&63)) != 0 {
							break
						}
					} else if p.startsWith(r) {
						break
					}
				}
			}
			if pos >= len(rs) || !p.startsWith(rs[pos]) {
				return 0, 0, simpleNoMatch
			}
		}
		for _, alt := range p.alts {
			e := p.matchAt(alt, rs, pos, &steps)
			if e >= 0 {
				return pos, e, simpleFound
			}
			if e == gaveUp {
				return 0, 0, simpleGaveUp
			}
		}
		if sticky {
			break
		}
	}
	return 0, 0, simpleNoMatch
}

func (p *simplePattern) startsWith(r rune) bool {
	for _, it := range p.first {
		if it.matches(r) {
			return true
		}
	}
	return false
}

const gaveUp = -2

// matchAt matches items at rune index i and returns the end of the match, -1 when there is
// none, or gaveUp when *steps ran out.
func (p *simplePattern) matchAt(items []simpleItem, rs []rune, i int, steps *int) int {
	for k := range items {
		it := &items[k]
		switch it.kind {
		case simpleLineStart:
			if i == 0 || p.multiline && isLineTerminator(rs[i-1]) {
				continue
			}
			return -1
		case simpleLineEnd:
			if i == len(rs) || p.multiline && isLineTerminator(rs[i]) {
				continue
			}
			return -1
		case simpleWordB, simpleNotWordB:
			a := i > 0 && isWordChar(rs[i-1])
			b := i < len(rs) && isWordChar(rs[i])
			if (a != b) == (it.kind == simpleWordB) {
				continue
			}
			return -1
		}
		if it.min == 1 && it.max == 1 {
			if i < len(rs) && it.matches(rs[i]) {
				i++
				continue
			}
			return -1
		}
		rest := items[k+1:]
		limit := len(rs) - i
		if it.max >= 0 && it.max < limit {
			limit = it.max
		}
		if it.lazy {
			n := 0
			for ; n < it.min; n++ {
				if n >= limit || !it.matches(rs[i+n]) {
					return -1
				}
			}
			for {
				if *steps--; *steps < 0 {
					return gaveUp
				}
				if e := p.matchAt(rest, rs, i+n, steps); e != -1 {
					return e
				}
				if n >= limit || !it.matches(rs[i+n]) {
					return -1
				}
				n++
			}
		}
		n := 0
		for n < limit && it.matches(rs[i+n]) {
			n++
		}
		if *steps -= n; *steps < 0 {
			return gaveUp
		}
		if n < it.min {
			return -1
		}
		if len(rest) == 0 {
			return i + n
		}
		for ; n >= it.min; n-- {
			if *steps--; *steps < 0 {
				return gaveUp
			}
			if e := p.matchAt(rest, rs, i+n, steps); e != -1 {
				return e
			}
		}
		return -1
	}
	return i
}

func isWordChar(r rune) bool {
	return r < 0x80 && wordSet.has(r)
}

var (
	digitSet = newASCIISet("0123456789")
	wordSet  = newASCIISet("0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
	spaceSet = func() *charSet {
		c := newASCIISet("\t\n\v\f\r ")
		c.ranges = []runeRange{{0xA0, 0xA0}, {0x1680, 0x1680}, {0x2000, 0x200A}, {0x2028, 0x2029},
			{0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF}}
		return c
	}()
	lineTerminatorSet = &charSet{ascii: newASCIISet("\n\r").ascii, ranges: []runeRange{{0x2028, 0x2029}}}
)

func newASCIISet(s string) *charSet {
	c := &charSet{}
	for i := 0; i < len(s); i++ {
		c.ascii[s[i]>>6] |= 1 << (s[i] & 63)
	}
	return c
}

// setBuilder collects the members of a class as ranges.
type setBuilder struct{ rs []runeRange }

func (b *setBuilder) add(lo, hi rune) { b.rs = append(b.rs, runeRange{lo, hi}) }

// addSet adds the members of a class escape's set.
func (b *setBuilder) addSet(c *charSet) {
	var rs []runeRange
	for r := rune(0); r < 0x80; r++ {
		if c.ascii[r>>6]&(1<<(uint(r)&63)) != 0 {
			rs = append(rs, runeRange{r, r})
		}
	}
	rs = append(rs, c.ranges...)
	if c.negate {
		rs = complementRanges(normalizeRanges(rs))
	}
	b.rs = append(b.rs, rs...)
}

// build returns the set, its ASCII letters closed under case when fold is set.
func (b *setBuilder) build(negate, fold bool) *charSet {
	c := &charSet{negate: negate}
	for _, rg := range normalizeRanges(b.rs) {
		for r := rg.lo; r <= rg.hi && r < 0x80; r++ {
			c.ascii[r>>6] |= 1 << (uint(r) & 63)
			if fold && r|0x20 >= 'a' && r|0x20 <= 'z' {
				o := r ^ 0x20
				c.ascii[o>>6] |= 1 << (uint(o) & 63)
			}
		}
		if rg.hi >= 0x80 {
			c.ranges = append(c.ranges, runeRange{max(rg.lo, 0x80), rg.hi})
		}
	}
	return c
}

// parseSimple returns the simple form of the pattern src under flags, or nil when the
// pattern is not of that form. src is known to be a valid pattern.
func parseSimple(src []uint16, f Flags) *simplePattern {
	if f.UnicodeSets || f.IgnoreCase && f.Unicode {
		return nil
	}
	fold := f.IgnoreCase
	p := &simplePattern{multiline: f.Multiline}
	alt := []simpleItem{}
	for i := 0; i < len(src); {
		c := src[i]
		it := simpleItem{kind: simpleChar, min: 1, max: 1}
		switch c {
		case '|':
			p.alts = append(p.alts, alt)
			alt = []simpleItem{}
			i++
			continue
		case '^':
			it.kind = simpleLineStart
			i++
		case '$':
			it.kind = simpleLineEnd
			i++
		case '.':
			it.set = lineTerminatorSet
			if f.DotAll {
				it.set = &charSet{}
			}
			it.set = &charSet{ascii: it.set.ascii, ranges: it.set.ranges, negate: true}
			i++
		case '[':
			set, next := parseSimpleClass(src, i+1, fold)
			if set == nil {
				return nil
			}
			it.set = set
			i = next
		case '\\':
			if i+1 >= len(src) {
				return nil
			}
			switch e := src[i+1]; e {
			case 'b':
				it.kind = simpleWordB
				i += 2
			case 'B':
				it.kind = simpleNotWordB
				i += 2
			default:
				if set := classEscape(e); set != nil {
					it.set = set
					i += 2
					break
				}
				r, next := simpleEscape(src, i)
				if r < 0 {
					return nil
				}
				it.lit = r
				i = next
			}
		case '(', ')', '*', '+', '?', '{', '}', ']':
			return nil
		default:
			it.lit = rune(c)
			i++
		}
		if it.kind == simpleChar && it.set == nil {
			if isHigh(uint16(it.lit)) || isLow(uint16(it.lit)) || fold && it.lit >= 0x80 {
				return nil
			}
			it.lit2 = it.lit
			if fold && it.lit|0x20 >= 'a' && it.lit|0x20 <= 'z' {
				it.lit2 = it.lit ^ 0x20
			}
		}
		if i < len(src) {
			switch src[i] {
			case '*', '+', '?', '{':
				if it.kind != simpleChar {
					return nil
				}
				next := parseQuantifier(src, i, &it)
				if next < 0 {
					return nil
				}
				i = next
			}
		}
		alt = append(alt, it)
	}
	p.alts = append(p.alts, alt)
	p.startOnly = !p.multiline
	for _, a := range p.alts {
		if len(a) == 0 || a[0].kind != simpleLineStart {
			p.startOnly = false
		}
	}
	for _, a := range p.alts {
		if len(a) == 0 || a[0].kind != simpleChar || a[0].min == 0 {
			p.first = nil
			break
		}
		p.first = append(p.first, &a[0])
	}
	for r := rune(0); r < 0x80 && p.first != nil; r++ {
		if p.startsWith(r) {
			p.firstASCII[r>>6] |= 1 << (uint(r) & 63)
		}
	}
	return p
}

// parseQuantifier reads the quantifier at src[i] into it and returns the index after it, or
// -1 when it is not one this matcher takes.
func parseQuantifier(src []uint16, i int, it *simpleItem) int {
	switch src[i] {
	case '*':
		it.min, it.max = 0, -1
		i++
	case '+':
		it.min, it.max = 1, -1
		i++
	case '?':
		it.min, it.max = 0, 1
		i++
	case '{':
		lo, j := readDecimal(src, i+1)
		if j == i+1 {
			return -1
		}
		hi := lo
		if j < len(src) && src[j] == ',' {
			hi = -1
			if k := j + 1; k < len(src) && src[k] >= '0' && src[k] <= '9' {
				hi, j = readDecimal(src, k)
			} else {
				j = k
			}
		}
		if j >= len(src) || src[j] != '}' || lo > 1<<16 || hi > 1<<16 || hi >= 0 && hi < lo {
			return -1
		}
		it.min, it.max = lo, hi
		i = j + 1
	}
	if i < len(src) && src[i] == '?' {
		it.lazy = true
		i++
	}
	if it.min == 1 && it.max == 1 {
		it.lazy = false
	}
	return i
}

func readDecimal(src []uint16, i int) (int, int) {
	n := 0
	for ; i < len(src) && src[i] >= '0' && src[i] <= '9'; i++ {
		if n <= 1<<20 {
			n = n*10 + int(src[i]-'0')
		}
	}
	return n, i
}

// classEscape returns the set of \d, \D, \w, \W, \s or \S, nil for other escapes.
func classEscape(e uint16) *charSet {
	var c *charSet
	switch e | 0x20 {
	case 'd':
		c = digitSet
	case 'w':
		c = wordSet
	case 's':
		c = spaceSet
	default:
		return nil
	}
	if e >= 'a' {
		return c
	}
	return &charSet{ascii: c.ascii, ranges: c.ranges, negate: true}
}

// simpleEscape reads the character escape at src[i] == '\\' and returns the character and
// the index after the escape, or -1 for an escape this matcher does not take.
func simpleEscape(src []uint16, i int) (rune, int) {
	e := src[i+1]
	switch e {
	case 'n':
		return '\n', i + 2
	case 'r':
		return '\r', i + 2
	case 't':
		return '\t', i + 2
	case 'v':
		return '\v', i + 2
	case 'f':
		return '\f', i + 2
	case '0':
		if i+2 < len(src) && src[i+2] >= '0' && src[i+2] <= '9' {
			return -1, 0
		}
		return 0, i + 2
	case 'x':
		if v, ok := hexRun(src, i+2, 2); ok {
			return v, i + 4
		}
		return -1, 0
	case 'u':
		if v, ok := hexRun(src, i+2, 4); ok {
			return v, i + 6
		}
		return -1, 0
	case '^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/', '-':
		return rune(e), i + 2
	}
	return -1, 0
}

func hexRun(src []uint16, i, n int) (rune, bool) {
	if i+n > len(src) {
		return 0, false
	}
	v := rune(0)
	for _, c := range src[i : i+n] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			v = v<<4 | rune(c|0x20-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// parseSimpleClass reads the class whose body starts at src[i] (after '[') and returns its
// set and the index after ']', or nil when the class is not one this matcher takes: a
// member that is a surrogate, a non-ASCII member under the i flag, a range with a class
// escape at an end, or an escape it does not know.
func parseSimpleClass(src []uint16, i int, fold bool) (*charSet, int) {
	negate := i < len(src) && src[i] == '^'
	if negate {
		i++
	}
	var b setBuilder
	// atom reads one class atom: a character (r >= 0) or a class escape's set.
	atom := func(i int) (rune, *charSet, int) {
		c := src[i]
		if c != '\\' {
			return rune(c), nil, i + 1
		}
		if i+1 >= len(src) {
			return -1, nil, 0
		}
		if set := classEscape(src[i+1]); set != nil {
			return -1, set, i + 2
		}
		if src[i+1] == 'b' {
			return '\b', nil, i + 2
		}
		r, next := simpleEscape(src, i)
		return r, nil, next
	}
	for i < len(src) && src[i] != ']' {
		lo, set, next := atom(i)
		if set != nil {
			if next < len(src) && src[next] == '-' && next+1 < len(src) && src[next+1] != ']' {
				return nil, 0
			}
			b.addSet(set)
			i = next
			continue
		}
		if lo < 0 {
			return nil, 0
		}
		hi := lo
		i = next
		if i+1 < len(src) && src[i] == '-' && src[i+1] != ']' {
			h, hset, next := atom(i + 1)
			if hset != nil || h < 0 || h < lo {
				return nil, 0
			}
			hi, i = h, next
		}
		if lo <= 0xDFFF && hi >= 0xD800 || fold && hi >= 0x80 {
			return nil, 0
		}
		b.add(lo, hi)
	}
	if i >= len(src) {
		return nil, 0
	}
	return b.build(negate, fold), i + 1
}
