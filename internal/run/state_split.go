package run

import "bytes"

// splitMember finds the member name of the top-level JSON object data and returns data with
// that member's value replaced by null, and the value's bytes. It delimits values without
// validating them (strings, escapes and bracket depth only), so that a large member (the
// interpreter snapshot, which its own decoder validates) is not scanned by encoding/json. ok is
// false when data is not an object of that shape or lacks the member; callers then fall back
// to encoding/json, which reports the problem.
func splitMember(data []byte, name string) (rest, value []byte, ok bool) {
	start, end := -1, -1
	i, ok := eachMember(data, func(key []byte, valStart int) (int, bool) {
		valEnd := skipValue(data, valStart)
		if valEnd < 0 {
			return -1, false
		}
		if string(key) == name {
			if start >= 0 {
				return -1, false // a repeated member: let encoding/json decide
			}
			start, end = valStart, valEnd
		}
		return valEnd, true
	})
	if !ok || i < 0 || start < 0 || len(bytes.TrimSpace(data[i:])) > 0 {
		return nil, nil, false
	}
	rest = make([]byte, 0, len(data)-(end-start)+4)
	rest = append(rest, data[:start]...)
	rest = append(rest, "null"...)
	rest = append(rest, data[end:]...)
	return rest, data[start:end], true
}

// splitLastMember finds member name of the JSON object data, passing over the members before
// it, and returns the object with that member's value replaced by null and everything after
// it dropped (head), and the text from its value to the end of data (value, which starts with
// the value). ok is false when data is not such an object or has no such member.
func splitLastMember(data []byte, name string) (head, value []byte, ok bool) {
	found := -1
	eachMember(data, func(key []byte, valStart int) (int, bool) {
		if string(key) == name {
			found = valStart
			return -1, false
		}
		return skipValue(data, valStart), true
	})
	if found < 0 || found >= len(data) {
		return nil, nil, false
	}
	head = make([]byte, 0, found+5)
	head = append(head, data[:found]...)
	head = append(head, "null}"...)
	return head, data[found:], true
}

// eachMember walks the members of the JSON object data: visit gets each key and the index
// where its value starts, and returns the index after the value, or false to stop. eachMember
// returns the index after the object's closing brace; ok is false when the walk stopped or the
// text is not an object of that shape.
func eachMember(data []byte, visit func(key []byte, valStart int) (valEnd int, more bool)) (end int, ok bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return -1, false
	}
	i++
	for {
		i = skipSpace(data, i)
		keyStart := i
		if i = skipString(data, i); i < 0 {
			return -1, false
		}
		key := data[keyStart+1 : i-1]
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != ':' {
			return -1, false
		}
		var more bool
		if i, more = visit(key, skipSpace(data, i+1)); !more || i < 0 {
			return -1, false
		}
		i = skipSpace(data, i)
		switch {
		case i < len(data) && data[i] == ',':
			i++
		case i < len(data) && data[i] == '}':
			return i + 1, true
		default:
			return -1, false
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i], or -1.
func skipString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; i < len(b); i++ {
		for i < len(b) && !stringSpecial[b[i]] {
			i++
		}
		if i >= len(b) {
			break
		}
		if b[i] == '"' {
			return i + 1
		}
		i++ // a backslash: skip the escaped byte
	}
	return -1
}

// stringSpecial marks the bytes that end or escape inside a string.
var stringSpecial = [256]bool{'"': true, '\\': true}

// structural marks the bytes where skipValue's scan of an object or array stops: the
// others can neither open nor close a value.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// skipValue returns the index after the value starting at b[i], or -1 when it is cut short.
// Scalars run to the next delimiter; objects and arrays to their matching bracket.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			for i < len(b) && !structural[b[i]] {
				i++
			}
			if i >= len(b) {
				break
			}
			switch b[i] {
			case '"':
				j := skipString(b, i)
				if j < 0 {
					return -1
				}
				i = j
				continue
			case '{', '[':
				depth++
			default: // '}', ']'
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	start := i
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\n' && b[i] != '\t' && b[i] != '\r' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}
