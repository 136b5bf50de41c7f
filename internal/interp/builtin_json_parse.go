package interp

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/codemode/codemode/internal/interp/wtf8"
)

// JSON text parsing, shared by JSON.parse and VM.FromJSON. The parser reads WTF-8 bytes (a JS
// string's wtf8 form, or UTF-8 from the host), so lone surrogates, whether escaped (\ud800) or
// present in the text, survive into the resulting strings.

// jsonMaxDepth bounds nesting so that hostile input cannot exhaust the Go stack.
const jsonMaxDepth = 10000

// jsonSyntaxError describes malformed JSON text; pos is the byte offset.
type jsonSyntaxError struct {
	msg    string
	pos    int
	number bool // an unexpected digit after a leading zero: V8's "Unexpected number"
}

// jsonParser parses one JSON text into VM values.
type jsonParser struct {
	vm    *VM
	src   string
	pos   int
	depth int
	err   *jsonSyntaxError
	keys  map[string]PropertyKey // interned keys: repeated object keys share one string

	// The memory limit: the value being built is not reachable from the VM until the parse
	// ends, so what the parse has charged so far (charged, taken from the VM's counter at
	// mark) counts as pending in the checks made every jsonCheckInterval values.
	values  int
	charged int64
	mark    int64
}

// jsonCheckInterval is how many parsed values pass between two looks at the memory limit
// (a power of two).
const jsonCheckInterval = 1024

// parseJSONText parses src into a value; a malformed text is reported as *jsonSyntaxError.
func (vm *VM) parseJSONText(src string) (Value, *jsonSyntaxError) {
	p := &jsonParser{vm: vm, src: src, keys: map[string]PropertyKey{}, mark: vm.allocated}
	p.skipSpace()
	v := p.value()
	if p.err != nil {
		return undefinedValue, p.err
	}
	p.skipSpace()
	if p.pos < len(p.src) {
		p.fail("Unexpected non-whitespace character after JSON")
		return undefinedValue, p.err
	}
	return v, nil
}

// message renders the error like V8's JSON.parse messages (node 20): a message naming what
// was expected wins even at the end of the text; positions count UTF-16 code units; a text
// that is a stringified undefined, NaN, Infinity or plain object (JSON.parse(undefined),
// JSON.parse({})) is named whole; otherwise the unexpected character is quoted with at most
// 10 characters of context on either side.
func (e *jsonSyntaxError) message(src string) string {
	pos := utf16Len(src[:min(e.pos, len(src))])
	if e.msg != "" {
		return e.msg + " at position " + strconv.Itoa(pos)
	}
	if e.pos >= len(src) {
		return "Unexpected end of JSON input"
	}
	if e.number {
		return "Unexpected number in JSON at position " + strconv.Itoa(pos)
	}
	switch src {
	case "[object Object]", "undefined", "Infinity", "NaN":
		return `"` + src + `" is not valid JSON`
	}
	r, _ := utf8.DecodeRuneInString(src[e.pos:])
	return "Unexpected token '" + string(r) + "', " + jsonContext(src, pos) + " is not valid JSON"
}

// jsonContext quotes the text around pos (in UTF-16 code units), as V8 does: the whole text
// when it is at most 21 units long, else up to 10 units either side of pos, with "..."
// outside the quotes where the text was cut.
func jsonContext(src string, pos int) string {
	const context = 10
	u := decodeWTF8(src)
	n := len(u)
	if n <= 2*context+1 {
		return `"` + src + `"`
	}
	switch {
	case pos < context:
		return `"` + wtf8.Encode(u[:pos+context]) + `"...`
	case pos < n-context:
		return `..."` + wtf8.Encode(u[pos-context:pos+context]) + `"...`
	}
	return `..."` + wtf8.Encode(u[pos-context:]) + `"`
}

// utf16Len is the length in UTF-16 code units of WTF-8 text.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x80 || c >= 0xC0 && c < 0xF0:
			n++ // a one-unit character starts here (or is ASCII)
		case c >= 0xF0:
			n += 2 // a four-byte sequence is a surrogate pair
		}
	}
	return n
}

func (p *jsonParser) fail(msg string) {
	if p.err == nil {
		p.err = &jsonSyntaxError{msg: msg, pos: p.pos}
	}
}

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) value() Value {
	if p.pos >= len(p.src) {
		p.fail("")
		return undefinedValue
	}
	if p.values++; p.values&(jsonCheckInterval-1) == 0 {
		p.checkMemory()
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, ok := p.string()
		if !ok {
			return undefinedValue
		}
		return stringValue(s)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return p.literal("true", trueValue)
	case c == 'f':
		return p.literal("false", falseValue)
	case c == 'n':
		return p.literal("null", nullValue)
	}
	p.fail("")
	return undefinedValue
}

func (p *jsonParser) literal(word string, v Value) Value {
	for i := 0; i < len(word); i++ {
		if p.pos >= len(p.src) || p.src[p.pos] != word[i] {
			p.fail("")
			return undefinedValue
		}
		p.pos++
	}
	return v
}

func (p *jsonParser) number() Value {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	if p.pos >= len(p.src) {
		p.fail("No number after minus sign in JSON")
		return undefinedValue
	}
	switch c := p.src[p.pos]; {
	case c == '0':
		p.pos++
		if p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.fail("")
			p.err.number = true
			return undefinedValue
		}
	case c >= '1' && c <= '9':
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
		}
	default:
		p.fail("No number after minus sign in JSON")
		return undefinedValue
	}
	integer := true
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		integer = false
		p.pos++
		if !p.digits("Unterminated fractional number in JSON") {
			return undefinedValue
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		integer = false
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if !p.digits("Exponent part is missing a number in JSON") {
			return undefinedValue
		}
	}
	text := p.src[start:p.pos]
	if integer && len(text) < 16 {
		n, err := strconv.ParseInt(text, 10, 64)
		if err == nil && !(n == 0 && text[0] == '-') {
			return Number(float64(n))
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		// out of range parses to ±Inf with an error: JSON numbers do the same
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			p.fail("")
			return undefinedValue
		}
	}
	return Number(f)
}

func (p *jsonParser) digits(msg string) bool {
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	if p.pos == start {
		p.fail(msg)
		return false
	}
	return true
}

// string parses a string literal at p.pos (the opening quote).
func (p *jsonParser) string() (*jsString, bool) {
	p.pos++
	start := p.pos
	ascii := true
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '"':
			s := p.src[start:p.pos]
			p.pos++
			if ascii {
				return newASCII(s), true
			}
			return newStringFromGo(s), true
		case c == '\\':
			return p.escapedString(start)
		case c < 0x20:
			p.fail("Bad control character in string literal in JSON")
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		p.pos++
	}
	p.fail("Unterminated string in JSON")
	return nil, false
}

// escapedString continues a string literal that has escapes, building code units.
func (p *jsonParser) escapedString(start int) (*jsString, bool) {
	units := decodeWTF8(p.src[start:p.pos])
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			return newUTF16(units), true
		case c == '\\':
			p.pos++
			if p.pos >= len(p.src) {
				p.fail("Unterminated string in JSON")
				return nil, false
			}
			e := p.src[p.pos]
			p.pos++
			switch e {
			case '"', '\\', '/':
				units = append(units, uint16(e))
			case 'b':
				units = append(units, '\b')
			case 'f':
				units = append(units, '\f')
			case 'n':
				units = append(units, '\n')
			case 'r':
				units = append(units, '\r')
			case 't':
				units = append(units, '\t')
			case 'u':
				// V8 reports the first character that is not a hex digit
				var n uint16
				for i := 0; i < 4; i++ {
					d, ok := hexDigit(p.src, p.pos)
					if !ok {
						p.fail("Bad Unicode escape in JSON")
						return nil, false
					}
					n = n<<4 | d
					p.pos++
				}
				units = append(units, n)
			default:
				p.pos--
				p.fail("Bad escaped character in JSON")
				return nil, false
			}
		case c < 0x20:
			p.fail("Bad control character in string literal in JSON")
			return nil, false
		case c < utf8.RuneSelf:
			units = append(units, uint16(c))
			p.pos++
		default:
			end := p.pos + 1
			for end < len(p.src) && p.src[end] >= utf8.RuneSelf {
				end++
			}
			units = append(units, decodeWTF8(p.src[p.pos:end])...)
			p.pos = end
		}
	}
	p.fail("Unterminated string in JSON")
	return nil, false
}

// checkMemory enforces the memory limit during a parse, counting what the parse has
// charged so far as live (see jsonParser.charged).
func (p *jsonParser) checkMemory() {
	vm := p.vm
	p.charged += vm.allocated - p.mark
	if vm.maxMemory > 0 && vm.allocated > vm.maxMemory {
		vm.checkMemoryWith(p.charged)
	}
	p.mark = vm.allocated
}

func (p *jsonParser) enter() bool {
	p.depth++
	if p.depth > jsonMaxDepth {
		p.vm.throwRangeError("Maximum call stack size exceeded")
	}
	return true
}

func (p *jsonParser) array() Value {
	p.enter()
	defer func() { p.depth-- }()
	p.pos++
	var elems []Value
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		return p.vm.newArrayValue(elems)
	}
	for {
		p.skipSpace()
		v := p.value()
		if p.err != nil {
			return undefinedValue
		}
		elems = append(elems, v)
		p.skipSpace()
		if p.pos >= len(p.src) {
			p.fail("Expected ',' or ']' after array element in JSON")
			return undefinedValue
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return p.vm.newArrayValue(elems)
		default:
			p.fail("Expected ',' or ']' after array element in JSON")
			return undefinedValue
		}
	}
}

func (p *jsonParser) object() Value {
	p.enter()
	defer func() { p.depth-- }()
	p.pos++
	o := p.vm.newPlainObject()
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return objectValue(o)
	}
	for first := true; ; first = false {
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			if first {
				p.fail("Expected property name or '}' in JSON")
			} else {
				p.fail("Expected double-quoted property name in JSON")
			}
			return undefinedValue
		}
		keyStart := p.pos
		k, ok := p.string()
		if !ok {
			return undefinedValue
		}
		key := p.key(k, p.src[keyStart+1:p.pos-1])
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			p.fail("Expected ':' after property name in JSON")
			return undefinedValue
		}
		p.pos++
		p.skipSpace()
		v := p.value()
		if p.err != nil {
			return undefinedValue
		}
		p.vm.createDataProperty(o, key, v)
		p.skipSpace()
		if p.pos >= len(p.src) {
			p.fail("Expected ',' or '}' after property value in JSON")
			return undefinedValue
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return objectValue(o)
		default:
			p.fail("Expected ',' or '}' after property value in JSON")
			return undefinedValue
		}
	}
}

// key returns the property key for a parsed key string, interning by its raw text.
func (p *jsonParser) key(s *jsString, raw string) PropertyKey {
	if k, ok := p.keys[raw]; ok {
		return k
	}
	k := jsStringKey(s)
	if len(p.keys) < 4096 {
		p.keys[raw] = k
	}
	return k
}

// appendJSONQuote appends s as a JSON string literal (QuoteJSONString: well-formed, lone
// surrogates escaped as \uXXXX) to b.
func appendJSONQuote(b *stringBuilder, s *jsString) {
	s = s.flat()
	b.writeUnit('"')
	if s.isASCII && !b.isWide {
		str := s.ascii
		last := 0
		for i := 0; i < len(str); i++ {
			c := str[i]
			if c >= 0x20 && c != '"' && c != '\\' {
				continue
			}
			b.ascii = append(b.ascii, str[last:i]...)
			appendJSONEscape(b, uint16(c))
			last = i + 1
		}
		b.ascii = append(b.ascii, str[last:]...)
		b.writeUnit('"')
		return
	}
	n := s.Len()
	for i := 0; i < n; i++ {
		c := s.At(i)
		switch {
		case c < 0x20 || c == '"' || c == '\\':
			appendJSONEscape(b, c)
		case utf16.IsSurrogate(rune(c)):
			if c <= 0xDBFF && i+1 < n {
				if d := s.At(i + 1); d >= 0xDC00 && d <= 0xDFFF {
					b.writeUnit(c)
					b.writeUnit(d)
					i++
					continue
				}
			}
			appendHexEscape(b, c)
		default:
			b.writeUnit(c)
		}
	}
	b.writeUnit('"')
}

func appendJSONEscape(b *stringBuilder, c uint16) {
	switch c {
	case '"':
		b.putASCII(`\"`)
	case '\\':
		b.putASCII(`\\`)
	case '\b':
		b.putASCII(`\b`)
	case '\f':
		b.putASCII(`\f`)
	case '\n':
		b.putASCII(`\n`)
	case '\r':
		b.putASCII(`\r`)
	case '\t':
		b.putASCII(`\t`)
	default:
		appendHexEscape(b, c)
	}
}

func appendHexEscape(b *stringBuilder, c uint16) {
	const hex = "0123456789abcdef"
	b.putASCII(`\u`)
	b.writeUnit(uint16(hex[c>>12&0xF]))
	b.writeUnit(uint16(hex[c>>8&0xF]))
	b.writeUnit(uint16(hex[c>>4&0xF]))
	b.writeUnit(uint16(hex[c&0xF]))
}

// putASCII appends ASCII text.
func (b *stringBuilder) putASCII(s string) {
	if !b.isWide {
		b.ascii = append(b.ascii, s...)
		return
	}
	for i := 0; i < len(s); i++ {
		b.utf16 = append(b.utf16, uint16(s[i]))
	}
}

// hexDigit reads the hex digit at src[i].
func hexDigit(src string, i int) (uint16, bool) {
	if i >= len(src) {
		return 0, false
	}
	switch c := src[i]; {
	case c >= '0' && c <= '9':
		return uint16(c - '0'), true
	case c >= 'a' && c <= 'f':
		return uint16(c - 'a' + 10), true
	case c >= 'A' && c <= 'F':
		return uint16(c - 'A' + 10), true
	}
	return 0, false
}
