package jsregexp

// EscapeSource implements EscapeRegExpPattern the way V8 does, for RegExp.prototype.source:
// the result, written between slashes, is a literal for the same pattern. An empty pattern is
// "(?:)"; "/" outside a character class becomes "\/"; line terminators become "\n", "\r",
// "\u2028" and "\u2029" (an escaped line terminator keeps its single backslash).
func EscapeSource(src []uint16) []uint16 {
	if len(src) == 0 {
		return []uint16{'(', '?', ':', ')'}
	}
	out := make([]uint16, 0, len(src)+4)
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			if esc := lineTerminatorEscape(src[i+1]); esc != nil {
				out = append(out, esc...)
			} else {
				out = append(out, c, src[i+1])
			}
			i++
		case c == '/' && !inClass:
			out = append(out, '\\', '/')
		case lineTerminatorEscape(c) != nil:
			out = append(out, lineTerminatorEscape(c)...)
		default:
			switch c {
			case '[':
				inClass = true
			case ']':
				inClass = false
			}
			out = append(out, c)
		}
	}
	return out
}

// lineTerminatorEscape returns the escape sequence for a line terminator, nil for others.
func lineTerminatorEscape(c uint16) []uint16 {
	switch c {
	case '\n':
		return []uint16{'\\', 'n'}
	case '\r':
		return []uint16{'\\', 'r'}
	case 0x2028:
		return []uint16{'\\', 'u', '2', '0', '2', '8'}
	case 0x2029:
		return []uint16{'\\', 'u', '2', '0', '2', '9'}
	}
	return nil
}
