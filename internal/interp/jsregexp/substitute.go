package jsregexp

// Substitute implements GetSubstitution, the expansion of a replacement template for
// String.prototype.replace/replaceAll and RegExp.prototype[Symbol.replace], on UTF-16 strings.
// It appends the expansion of template to dst and returns the result.
//
//   - matched is the matched text and position its UTF-16 index in str.
//   - captures are the capture groups 1..m; a nil entry is an undefined capture (expands to
//     nothing), while a participating empty capture is a non-nil empty slice.
//   - named resolves "$<name>": nil when the match has no groups object (then "$<" is kept
//     literally); otherwise it returns the text for the name (the caller applies ToString,
//     which may run user code), nil or empty for an undefined group.
//
// "$$" is "$", "$&" the match, "$`" the text before it, "$'" the text after it, "$n"/"$nn" a
// capture (a two-digit reference past m is read as one digit followed by a literal digit;
// references to no group, "$0" among them, stay literal).
func Substitute(dst, matched, str []uint16, position int, captures [][]uint16,
	named func(name []uint16) []uint16, template []uint16) []uint16 {
	position = max(0, min(position, len(str)))
	tailPos := min(position+len(matched), len(str))
	m := len(captures)
	for i := 0; i < len(template); {
		c := template[i]
		if c != '$' || i+1 >= len(template) {
			dst = append(dst, c)
			i++
			continue
		}
		switch n := template[i+1]; {
		case n == '$':
			dst = append(dst, '$')
			i += 2
		case n == '&':
			dst = append(dst, matched...)
			i += 2
		case n == '`':
			dst = append(dst, str[:position]...)
			i += 2
		case n == '\'':
			dst = append(dst, str[tailPos:]...)
			i += 2
		case n >= '0' && n <= '9':
			digits, index := 1, int(n-'0')
			if i+2 < len(template) && template[i+2] >= '0' && template[i+2] <= '9' {
				two := index*10 + int(template[i+2]-'0')
				if two <= m {
					digits, index = 2, two
				}
			}
			if index >= 1 && index <= m {
				dst = append(dst, captures[index-1]...)
			} else {
				dst = append(dst, template[i:i+1+digits]...)
			}
			i += 1 + digits
		case n == '<':
			gt := -1
			for j := i + 2; j < len(template); j++ {
				if template[j] == '>' {
					gt = j
					break
				}
			}
			if gt < 0 || named == nil {
				dst = append(dst, '$', '<')
				i += 2
				continue
			}
			dst = append(dst, named(template[i+2:gt])...)
			i = gt + 1
		default:
			dst = append(dst, '$')
			i++
		}
	}
	return dst
}
