package compiler

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2/js"

	"github.com/codemode/codemode/internal/interp/wtf8"
)

// Literal decoding: the parser hands literals over as raw source bytes.

// decodeStringLiteral decodes a quoted string literal (quotes included) into
// UTF-16 code units. It reports false for escapes invalid in strict mode.
func decodeStringLiteral(raw []byte) ([]uint16, bool) {
	if len(raw) < 2 {
		return nil, false
	}
	return decodeEscapes(raw[1:len(raw)-1], false)
}

// decodeEscapes decodes JavaScript escapes. template=true applies template
// rules (no legacy octal; CR and CRLF normalised to LF).
func decodeEscapes(s []byte, template bool) ([]uint16, bool) {
	out := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		ch := s[i]
		if ch == '\r' && template {
			out = append(out, '\n')
			i++
			if i < len(s) && s[i] == '\n' {
				i++
			}
			continue
		}
		if ch != '\\' {
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				// WTF-8 encoded lone surrogate
				if i+2 < len(s) && s[i] == 0xED {
					out = append(out, uint16(s[i]&0x0F)<<12|uint16(s[i+1]&0x3F)<<6|uint16(s[i+2]&0x3F))
					i += 3
					continue
				}
			}
			out = appendRune16(out, r)
			i += size
			continue
		}
		i++
		if i >= len(s) {
			return nil, false
		}
		e := s[i]
		i++
		switch e {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'v':
			out = append(out, '\v')
		case '0':
			if i < len(s) && s[i] >= '0' && s[i] <= '9' {
				return nil, false // legacy octal (strict mode)
			}
			out = append(out, 0)
		case 'x':
			if i+2 > len(s) {
				return nil, false
			}
			v, err := strconv.ParseUint(string(s[i:i+2]), 16, 8)
			if err != nil {
				return nil, false
			}
			out = append(out, uint16(v))
			i += 2
		case 'u':
			if i < len(s) && s[i] == '{' {
				end := i + 1
				for end < len(s) && s[end] != '}' {
					end++
				}
				if end >= len(s) || end == i+1 {
					return nil, false
				}
				v, err := strconv.ParseUint(string(s[i+1:end]), 16, 32)
				if err != nil || v > 0x10FFFF {
					return nil, false
				}
				out = appendRune16(out, rune(v))
				i = end + 1
				continue
			}
			if i+4 > len(s) {
				return nil, false
			}
			v, err := strconv.ParseUint(string(s[i:i+4]), 16, 16)
			if err != nil {
				return nil, false
			}
			out = append(out, uint16(v))
			i += 4
		case '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
		case '\n':
		case 0xE2:
			// \ followed by U+2028 or U+2029: line continuation
			if i+1 < len(s) && s[i] == 0x80 && (s[i+1] == 0xA8 || s[i+1] == 0xA9) {
				i += 2
				continue
			}
			r, size := utf8.DecodeRune(s[i-1:])
			out = appendRune16(out, r)
			i += size - 1
		default:
			if e >= '1' && e <= '9' {
				if e >= '8' && !template {
					out = append(out, uint16(e))
					continue
				}
				return nil, false
			}
			if e >= 0x80 {
				r, size := utf8.DecodeRune(s[i-1:])
				out = appendRune16(out, r)
				i += size - 1
				continue
			}
			out = append(out, uint16(e))
		}
	}
	return out, true
}

func appendRune16(out []uint16, r rune) []uint16 {
	if r >= 0x10000 {
		r -= 0x10000
		return append(out, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
	}
	return append(out, uint16(r))
}

// templateText strips the delimiters of a template part: ` or } at the start, ` or ${ at the end.
func templateText(raw []byte, first bool) []byte {
	if len(raw) > 0 && (raw[0] == '`' || raw[0] == '}') {
		raw = raw[1:]
	}
	if n := len(raw); n >= 2 && raw[n-2] == '$' && raw[n-1] == '{' {
		raw = raw[:n-2]
	} else if n >= 1 && raw[n-1] == '`' {
		raw = raw[:n-1]
	}
	return raw
}

// cookTemplate gives the cooked value of a template part; false when it holds an invalid escape.
func cookTemplate(raw []byte, first bool) ([]uint16, bool) {
	return decodeEscapes(templateText(raw, first), true)
}

// rawTemplate gives the raw value of a template part (CR and CRLF normalised to LF).
func rawTemplate(raw []byte, first bool) []uint16 {
	t := strings.ReplaceAll(string(templateText(raw, first)), "\r\n", "\n")
	t = strings.ReplaceAll(t, "\r", "\n")
	return goToUTF16(t)
}

// splitRegExp splits /body/flags.
func splitRegExp(raw []byte) (string, string) {
	s := string(raw)
	end := strings.LastIndexByte(s, '/')
	if end <= 0 {
		return s, ""
	}
	return s[1:end], s[end+1:]
}

// parseNumericLiteral parses a numeric literal (decimal, 0x, 0o, 0b, separators).
// It reports false for BigInt literals.
func parseNumericLiteral(raw []byte) (float64, bool) {
	s := strings.ReplaceAll(string(raw), "_", "")
	if strings.HasSuffix(s, "n") {
		return 0, false
	}
	if len(s) > 1 && s[0] == '0' {
		base := 0
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			f := 0.0
			for _, ch := range s[2:] {
				var d int
				switch {
				case ch >= '0' && ch <= '9':
					d = int(ch - '0')
				case ch >= 'a' && ch <= 'f':
					d = int(ch-'a') + 10
				case ch >= 'A' && ch <= 'F':
					d = int(ch-'A') + 10
				}
				f = f*float64(base) + float64(d)
			}
			return f, true
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return math.NaN(), true
	}
	return f, true
}

// wtf8ToUTF16 converts WTF-8 text (property-key form) to UTF-16.
func wtf8ToUTF16(s string) []uint16 { return wtf8.Decode(s) }

// wtf8FromUTF16 converts UTF-16 to WTF-8 text (property-key form).
func wtf8FromUTF16(u []uint16) string { return wtf8.Encode(u) }

// varName returns the name of an identifier with its escapes decoded
// (\u0061 and \u{61} name the same binding as a).
func varName(v *js.Var) string { return identName(v.Name()) }

// identName decodes the escapes of an identifier's source text.
func identName(raw []byte) string {
	for _, b := range raw {
		if b == '\\' {
			u, ok := decodeEscapes(raw, true)
			if ok {
				return wtf8FromUTF16(u)
			}
			break
		}
	}
	return string(raw)
}
