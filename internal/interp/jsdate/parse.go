package jsdate

import (
	"math"
)

// Parse implements Date.parse the way V8 does: first the ECMAScript date time string format
// (with V8's extensions: expanded years, 1-9 fraction digits, "hhmm" offsets, lowercase t/z,
// hour 24 at midnight), date-only forms as UTC and date-time forms as local time (= UTC); then,
// for anything else, V8's legacy parser, which accepts the toString/toUTCString outputs and
// forms such as "Jan 2 2020", "2020/01/02", "1/2/2020 3:04 PM", "Jan 1 2000 GMT+0100".
// Strings it cannot read give NaN.
func Parse(s string) float64 {
	var p dateParser
	out, ok := p.parse([]rune(s))
	if !ok {
		return math.NaN()
	}
	day := MakeDay(float64(out.year), float64(out.month), float64(out.day))
	tm := MakeTime(float64(out.hour), float64(out.minute), float64(out.second), float64(out.ms))
	date := MakeDate(day, tm)
	if out.hasOffset {
		date -= float64(out.offsetSeconds) * 1000
		if math.Abs(date) > MaxTime {
			return math.NaN()
		}
	} else if math.Abs(date) > MaxTime+864e6 {
		// Local time: V8 allows ten days of slack for the zone shift before clipping.
		return math.NaN()
	}
	return TimeClip(date)
}

// parsed holds the components a successful parse produces.
type parsed struct {
	year, month, day         int // month 0-based
	hour, minute, second, ms int
	offsetSeconds            int
	hasOffset                bool
}

const none = math.MaxInt32

// tokenKind classifies date string tokens.
type tokenKind int

const (
	tokInvalid tokenKind = iota
	tokUnknown
	tokNumber
	tokSymbol
	tokWhiteSpace
	tokKeyword
	tokEnd
)

// keywordType classifies words.
type keywordType int

const (
	kwInvalid keywordType = iota
	kwMonthName
	kwTimeZoneName
	kwTimeSeparator
	kwAMPM
)

type token struct {
	kind   tokenKind
	value  int // number value, symbol character, or keyword value
	length int // number of characters (numbers and words)
	kw     keywordType
}

func (t token) isNumber() bool                   { return t.kind == tokNumber }
func (t token) isSymbol(c rune) bool             { return t.kind == tokSymbol && t.value == int(c) }
func (t token) isSign() bool                     { return t.isSymbol('+') || t.isSymbol('-') }
func (t token) isFixedNumber(n int) bool         { return t.kind == tokNumber && t.length == n }
func (t token) isKeywordType(k keywordType) bool { return t.kind == tokKeyword && t.kw == k }
func (t token) isKeywordZ() bool {
	return t.kind == tokKeyword && t.kw == kwTimeZoneName && t.length == 1 && t.value == 0
}

// keywords are V8's date keywords: matched on the first three letters (lowercase); longer
// words match only month names.
var keywords = []struct {
	word  string
	kind  keywordType
	value int
}{
	{"jan", kwMonthName, 1}, {"feb", kwMonthName, 2}, {"mar", kwMonthName, 3}, {"apr", kwMonthName, 4},
	{"may", kwMonthName, 5}, {"jun", kwMonthName, 6}, {"jul", kwMonthName, 7}, {"aug", kwMonthName, 8},
	{"sep", kwMonthName, 9}, {"oct", kwMonthName, 10}, {"nov", kwMonthName, 11}, {"dec", kwMonthName, 12},
	{"am", kwAMPM, 0}, {"pm", kwAMPM, 12},
	{"ut", kwTimeZoneName, 0}, {"utc", kwTimeZoneName, 0}, {"z", kwTimeZoneName, 0}, {"gmt", kwTimeZoneName, 0},
	{"cdt", kwTimeZoneName, -5}, {"cst", kwTimeZoneName, -6}, {"edt", kwTimeZoneName, -4}, {"est", kwTimeZoneName, -5},
	{"mdt", kwTimeZoneName, -6}, {"mst", kwTimeZoneName, -7}, {"pdt", kwTimeZoneName, -7}, {"pst", kwTimeZoneName, -8},
	{"t", kwTimeSeparator, 0},
}

func lookupKeyword(prefix string, length int) (keywordType, int) {
	for _, k := range keywords {
		if k.word == prefix && (length <= 3 || k.kind == kwMonthName) {
			return k.kind, k.value
		}
	}
	return kwInvalid, 0
}

// isWhiteSpace reports ECMAScript WhiteSpace and LineTerminator characters.
func isWhiteSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// tokenizer splits a date string into V8's date tokens, with one token of lookahead.
type tokenizer struct {
	in   []rune
	pos  int
	next token
}

func newTokenizer(in []rune) *tokenizer {
	t := &tokenizer{in: in}
	t.next = t.scan()
	return t
}

func (t *tokenizer) peek() token { return t.next }

func (t *tokenizer) advance() token {
	cur := t.next
	t.next = t.scan()
	return cur
}

func (t *tokenizer) skipSymbol(c rune) bool {
	if t.next.isSymbol(c) {
		t.advance()
		return true
	}
	return false
}

func (t *tokenizer) scan() token {
	in := t.in
	if t.pos >= len(in) {
		return token{kind: tokEnd}
	}
	start := t.pos
	c := in[t.pos]
	switch {
	case c >= '0' && c <= '9':
		// Leading zeros count toward the length but not the value; only nine significant
		// digits are kept.
		n, digits := 0, 0
		for t.pos < len(in) && in[t.pos] == '0' {
			t.pos++
		}
		for t.pos < len(in) && in[t.pos] >= '0' && in[t.pos] <= '9' {
			if digits < 9 {
				n = n*10 + int(in[t.pos]-'0')
			}
			digits++
			t.pos++
		}
		return token{kind: tokNumber, value: n, length: t.pos - start}
	case c == ':' || c == '-' || c == '+' || c == '.' || c == ')':
		t.pos++
		return token{kind: tokSymbol, value: int(c)}
	case c >= 'A' && !isWhiteSpace(c):
		var prefix []rune
		for t.pos < len(in) && in[t.pos] >= 'A' && !isWhiteSpace(in[t.pos]) {
			if len(prefix) < 3 {
				prefix = append(prefix, in[t.pos]|0x20)
			}
			t.pos++
		}
		kind, value := lookupKeyword(string(prefix), t.pos-start)
		return token{kind: tokKeyword, kw: kind, value: value, length: t.pos - start}
	case isWhiteSpace(c):
		t.pos++
		return token{kind: tokWhiteSpace, length: 1}
	case c == '(':
		balance := 0
		for {
			switch in[t.pos] {
			case ')':
				balance--
			case '(':
				balance++
			}
			t.pos++
			if balance <= 0 || t.pos >= len(in) {
				break
			}
		}
		return token{kind: tokUnknown}
	}
	t.pos++
	return token{kind: tokUnknown}
}

func between(x, lo, hi int) bool { return x >= lo && x <= hi }
func isMonth(x int) bool         { return between(x, 1, 12) }
func isDay(x int) bool           { return between(x, 1, 31) }
func isHour(x int) bool          { return between(x, 0, 23) }
func isMinute(x int) bool        { return between(x, 0, 59) }
func isHour12(x int) bool        { return between(x, 0, 12) }
func isMillisecond(x int) bool   { return between(x, 0, 999) }

// dayComposer collects up to three date numbers and a month name.
type dayComposer struct {
	comp       [3]int
	n          int
	namedMonth int
	isoDate    bool
}

func (d *dayComposer) add(v int) bool {
	if d.n >= len(d.comp) {
		return false
	}
	d.comp[d.n] = v
	d.n++
	return true
}

// write resolves the numbers into year, month and day with V8's legacy rules: missing parts
// default to 1, two-digit years are 19xx/20xx, the year defaults to 2001.
func (d *dayComposer) write(out *parsed) bool {
	if d.n < 1 {
		return false
	}
	for d.n < len(d.comp) {
		d.comp[d.n] = 1
		d.n++
	}
	var year, month, day int
	switch {
	case d.namedMonth == 0 && (d.isoDate || !isDay(d.comp[0])):
		year, month, day = d.comp[0], d.comp[1], d.comp[2]
	case d.namedMonth == 0:
		month, day, year = d.comp[0], d.comp[1], d.comp[2]
	case !isDay(d.comp[0]):
		month, year, day = d.namedMonth, d.comp[0], d.comp[1]
	default:
		month, day, year = d.namedMonth, d.comp[0], d.comp[1]
	}
	if !d.isoDate {
		switch {
		case between(year, 0, 49):
			year += 2000
		case between(year, 50, 99):
			year += 1900
		}
	}
	if !isMonth(month) || !isDay(day) {
		return false
	}
	out.year, out.month, out.day = year, month-1, day
	return true
}

// timeComposer collects hour, minute, second and millisecond.
type timeComposer struct {
	comp       [4]int
	n          int
	hourOffset int
}

func (t *timeComposer) isEmpty() bool { return t.n == 0 }

func (t *timeComposer) isExpecting(v int) bool {
	return (t.n == 1 && isMinute(v)) || (t.n == 2 && isMinute(v)) || (t.n == 3 && isMillisecond(v))
}

func (t *timeComposer) add(v int) bool {
	if t.n >= len(t.comp) {
		return false
	}
	t.comp[t.n] = v
	t.n++
	return true
}

func (t *timeComposer) addFinal(v int) bool {
	if !t.add(v) {
		return false
	}
	for t.n < len(t.comp) {
		t.comp[t.n] = 0
		t.n++
	}
	return true
}

func (t *timeComposer) write(out *parsed) bool {
	for t.n < len(t.comp) {
		t.comp[t.n] = 0
		t.n++
	}
	h, m, s, ms := t.comp[0], t.comp[1], t.comp[2], t.comp[3]
	if t.hourOffset != none {
		if !isHour12(h) {
			return false
		}
		h = h%12 + t.hourOffset
	}
	if !isHour(h) || !isMinute(m) || !isMinute(s) || !isMillisecond(ms) {
		if h != 24 || m != 0 || s != 0 || ms != 0 {
			return false
		}
	}
	out.hour, out.minute, out.second, out.ms = h, m, s, ms
	return true
}

// zoneComposer collects a UTC offset.
type zoneComposer struct {
	sign, hour, minute int
}

func (z *zoneComposer) set(hours int) {
	z.sign = 1
	if hours < 0 {
		z.sign = -1
	}
	z.hour = hours * z.sign
	z.minute = 0
}

func (z *zoneComposer) setSign(sign int) {
	z.sign = 1
	if sign < 0 {
		z.sign = -1
	}
}

func (z *zoneComposer) isExpecting(v int) bool {
	return z.hour != none && z.minute == none && isMinute(v)
}

func (z *zoneComposer) isUTC() bool   { return z.hour == 0 && z.minute == 0 }
func (z *zoneComposer) isEmpty() bool { return z.hour == none }

func (z *zoneComposer) write(out *parsed) bool {
	if z.sign == none {
		return true // local time, which is UTC here
	}
	h, m := z.hour, z.minute
	if h == none {
		h = 0
	}
	if m == none {
		m = 0
	}
	total := int64(h)*3600 + int64(m)*60
	if total > math.MaxInt32>>1 {
		return false
	}
	out.offsetSeconds = int(total) * z.sign
	out.hasOffset = true
	return true
}

// readMilliseconds keeps the first three significant digits of a fraction token.
func readMilliseconds(t token) int {
	n, length := t.value, t.length
	switch {
	case length == 1:
		n *= 100
	case length == 2:
		n *= 10
	case length > 3:
		length = min(length, 9)
		factor := 1
		for ; length > 3; length-- {
			factor *= 10
		}
		n /= factor
	}
	return n
}

type dateParser struct {
	tz   zoneComposer
	time timeComposer
	day  dayComposer
}

func (p *dateParser) parse(in []rune) (parsed, bool) {
	p.tz = zoneComposer{sign: none, hour: none, minute: none}
	p.time = timeComposer{hourOffset: none}
	sc := newTokenizer(in)
	next, ok := p.parseISO(sc)
	if !ok {
		return parsed{}, false
	}
	hasReadNumber := p.day.n > 0
	for tok := next; tok.kind != tokEnd; tok = sc.advance() {
		switch {
		case tok.isNumber():
			hasReadNumber = true
			n := tok.value
			switch {
			case sc.skipSymbol(':'):
				if sc.skipSymbol(':') {
					if !p.time.isEmpty() {
						return parsed{}, false
					}
					p.time.add(n)
					p.time.add(0)
				} else {
					if !p.time.add(n) {
						return parsed{}, false
					}
					if sc.peek().isSymbol('.') {
						sc.advance()
					}
				}
			case sc.skipSymbol('.') && p.time.isExpecting(n):
				p.time.add(n)
				if !sc.peek().isNumber() {
					return parsed{}, false
				}
				ms := readMilliseconds(sc.advance())
				p.time.addFinal(ms)
			case p.tz.isExpecting(n):
				p.tz.minute = n
			case p.time.isExpecting(n):
				p.time.addFinal(n)
				// The time must be followed by the end, white space, "Z" or a sign.
				pk := sc.peek()
				if pk.kind != tokEnd && pk.kind != tokWhiteSpace && !pk.isKeywordZ() && !pk.isSign() {
					return parsed{}, false
				}
			default:
				if !p.day.add(n) {
					return parsed{}, false
				}
				sc.skipSymbol('-')
			}
		case tok.kind == tokKeyword:
			switch {
			case tok.kw == kwAMPM && !p.time.isEmpty():
				p.time.hourOffset = tok.value
			case tok.kw == kwMonthName:
				p.day.namedMonth = tok.value
				sc.skipSymbol('-')
			case tok.kw == kwTimeZoneName && hasReadNumber:
				p.tz.set(tok.value)
			default:
				// Unknown words are allowed only before the first number, and must be
				// separated from it.
				if hasReadNumber || sc.peek().isNumber() {
					return parsed{}, false
				}
			}
		case tok.isSign() && (p.tz.isUTC() || !p.time.isEmpty()):
			// A UTC offset, after "UTC"/"GMT" or a time.
			sign := 1
			if tok.isSymbol('-') {
				sign = -1
			}
			p.tz.setSign(sign)
			n, length := 0, 0
			if sc.peek().isNumber() {
				t := sc.advance()
				n, length = t.value, t.length
			}
			hasReadNumber = true
			switch {
			case sc.peek().isSymbol(':'):
				p.tz.hour, p.tz.minute = n, none
			case length == 1 || length == 2:
				p.tz.hour, p.tz.minute = n, 0
			case length == 3 || length == 4:
				p.tz.hour, p.tz.minute = n/100, n%100
			default:
				return parsed{}, false
			}
		case (tok.isSign() || tok.isSymbol(')')) && hasReadNumber:
			return parsed{}, false
		}
	}
	var out parsed
	if !p.day.write(&out) || !p.time.write(&out) || !p.tz.write(&out) {
		return parsed{}, false
	}
	return out, true
}

// parseISO reads the ECMAScript date time string format. It returns the first token it did
// not handle (end of input when the whole string was ISO), or false for a string that started
// as ISO but broke its rules after the date.
func (p *dateParser) parseISO(sc *tokenizer) (token, bool) {
	if sc.peek().isSign() {
		sign := sc.advance()
		if !sc.peek().isFixedNumber(6) {
			return sign, true
		}
		year := sc.advance().value
		if sign.isSymbol('-') {
			if year == 0 {
				return sign, true
			}
			year = -year
		}
		p.day.add(year)
	} else if sc.peek().isFixedNumber(4) {
		p.day.add(sc.advance().value)
	} else {
		return sc.advance(), true
	}
	if sc.skipSymbol('-') {
		if !sc.peek().isFixedNumber(2) || !isMonth(sc.peek().value) {
			return sc.advance(), true
		}
		p.day.add(sc.advance().value)
		if sc.skipSymbol('-') {
			if !sc.peek().isFixedNumber(2) || !isDay(sc.peek().value) {
				return sc.advance(), true
			}
			p.day.add(sc.advance().value)
		}
	}
	if !sc.peek().isKeywordType(kwTimeSeparator) {
		if sc.peek().kind != tokEnd {
			return sc.advance(), true
		}
	} else {
		sc.advance()
		if !sc.peek().isFixedNumber(2) || !between(sc.peek().value, 0, 24) {
			return token{}, false
		}
		hourIs24 := sc.peek().value == 24
		p.time.add(sc.advance().value)
		if !sc.skipSymbol(':') {
			return token{}, false
		}
		if !sc.peek().isFixedNumber(2) || !isMinute(sc.peek().value) || (hourIs24 && sc.peek().value > 0) {
			return token{}, false
		}
		p.time.add(sc.advance().value)
		if sc.skipSymbol(':') {
			if !sc.peek().isFixedNumber(2) || !isMinute(sc.peek().value) || (hourIs24 && sc.peek().value > 0) {
				return token{}, false
			}
			p.time.add(sc.advance().value)
			if sc.skipSymbol('.') {
				if !sc.peek().isNumber() || (hourIs24 && sc.peek().value > 0) {
					return token{}, false
				}
				p.time.add(readMilliseconds(sc.advance()))
			}
		}
		switch {
		case sc.peek().isKeywordZ():
			sc.advance()
			p.tz.set(0)
		case sc.peek().isSign():
			sign := 1
			if sc.advance().isSymbol('-') {
				sign = -1
			}
			p.tz.setSign(sign)
			if sc.peek().isFixedNumber(4) {
				hm := sc.advance().value
				if !isHour(hm/100) || !isMinute(hm%100) {
					return token{}, false
				}
				p.tz.hour, p.tz.minute = hm/100, hm%100
			} else {
				if !sc.peek().isFixedNumber(2) || !isHour(sc.peek().value) {
					return token{}, false
				}
				p.tz.hour = sc.advance().value
				if !sc.skipSymbol(':') {
					return token{}, false
				}
				if !sc.peek().isFixedNumber(2) || !isMinute(sc.peek().value) {
					return token{}, false
				}
				p.tz.minute = sc.advance().value
			}
		}
		if sc.peek().kind != tokEnd {
			return token{}, false
		}
	}
	// Date-only forms are UTC; date-time forms without an offset are local time.
	if p.tz.isEmpty() && p.time.isEmpty() {
		p.tz.set(0)
	}
	p.day.isoDate = true
	return token{kind: tokEnd}, true
}
