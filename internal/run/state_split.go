package run

import "bytes"

// splitMember finds the member name of the top-level JSON object data and returns data with
// that member's value replaced by null, and the value's bytes. It delimits values without
// validating them (strings, escapes and bracket depth only), so that a large member (the
// interpreter snapshot, which its own decoder validates) is not scanned by encoding/json. ok is
// false when data is not an object of that shape or lacks the member; callers then fall back
// to encoding/json, which reports the problem.
func splitMember(data []byte, name string) (rest, value []byte, ok bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, nil, false
	}
	i++
	start, end := -1, -1
	for {
		i = skipSpace(data, i)
		keyStart := i
		i = skipString(data, i)
		if i < 0 {
			return nil, nil, false
		}
		key := data[keyStart+1 : i-1]
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != ':' {
			return nil, nil, false
		}
		i = skipSpace(data, i+1)
		valStart := i
		i = skipValue(data, i)
		if i < 0 {
			return nil, nil, false
		}
		if string(key) == name {
			if start >= 0 {
				return nil, nil, false // a repeated member: let encoding/json decide
			}
			start, end = valStart, i
		}
		i = skipSpace(data, i)
		if i >= len(data) {
			return nil, nil, false
		}
		if data[i] == ',' {
			i++
			continue
		}
		if data[i] != '}' || start < 0 || len(bytes.TrimSpace(data[i+1:])) > 0 {
			return nil, nil, false
		}
		break
	}
	rest = make([]byte, 0, len(data)-(end-start)+4)
	rest = append(rest, data[:start]...)
	rest = append(rest, "null"...)
	rest = append(rest, data[end:]...)
	return rest, data[start:end], true
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
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

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
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				j := skipString(b, i)
				if j < 0 {
					return -1
				}
				i = j - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
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
