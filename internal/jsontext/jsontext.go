// Package jsontext holds the one rule codemode applies to JSON documents that leave a program
// (results, tool arguments and outputs, handles, outcomes, events, webhook payloads): their
// text is well-formed Unicode. A lone surrogate (a UTF-16 code unit U+D800..U+DFFF without its
// partner, which JSON can carry only as a \uXXXX escape) becomes U+FFFD, as TextEncoder and
// Go's encoding/json do; bytes that are not UTF-8 become U+FFFD too. Every other character is
// kept, U+0000 included (as the escape \u0000). See docs/data.md.
package jsontext

import (
	"bytes"
	"unicode/utf8"
)

// replacement is the escape written for a lone surrogate.
const replacement = `\ufffd`

// WellFormed returns doc with lone surrogate escapes replaced by \ufffd and invalid UTF-8
// replaced by U+FFFD. It returns doc itself (no copy) when there is nothing to replace, which
// is the common case. doc should be JSON; WellFormed does not check it.
func WellFormed(doc []byte) []byte {
	if !utf8.Valid(doc) {
		doc = bytes.ToValidUTF8(doc, []byte("\uFFFD"))
	}
	first := firstLone(doc)
	if first < 0 {
		return doc
	}
	out := make([]byte, 0, len(doc))
	out = append(out, doc[:first]...)
	for i := first; i < len(doc); {
		c := doc[i]
		if c != '\\' || i+1 >= len(doc) {
			out = append(out, c)
			i++
			continue
		}
		if doc[i+1] != 'u' {
			out = append(out, doc[i], doc[i+1])
			i += 2
			continue
		}
		n, lone := escapeAt(doc, i)
		if lone {
			out = append(out, replacement...)
		} else {
			out = append(out, doc[i:i+n]...)
		}
		i += n
	}
	return out
}

// IsWellFormed reports whether WellFormed would leave doc unchanged.
func IsWellFormed(doc []byte) bool { return utf8.Valid(doc) && firstLone(doc) < 0 }

// firstLone returns the index of the first lone surrogate escape in doc, or -1.
func firstLone(doc []byte) int {
	for i := 0; i+1 < len(doc); {
		if doc[i] != '\\' {
			i++
			continue
		}
		if doc[i+1] != 'u' {
			i += 2
			continue
		}
		n, lone := escapeAt(doc, i)
		if lone {
			return i
		}
		i += n
	}
	return -1
}

// escapeAt reads the \u escape at doc[i]: it returns how many bytes it spans (12 for a
// surrogate pair written as two escapes) and whether it is a lone surrogate. A malformed
// escape spans 2 bytes and is not lone (the document is invalid JSON anyway).
func escapeAt(doc []byte, i int) (int, bool) {
	u, ok := hex4(doc, i+2)
	if !ok {
		return 2, false
	}
	switch {
	case u >= 0xDC00 && u <= 0xDFFF:
		return 6, true
	case u >= 0xD800 && u <= 0xDBFF:
		if i+12 <= len(doc) && doc[i+6] == '\\' && doc[i+7] == 'u' {
			if lo, ok := hex4(doc, i+8); ok && lo >= 0xDC00 && lo <= 0xDFFF {
				return 12, false
			}
		}
		return 6, true
	}
	return 6, false
}

func hex4(doc []byte, at int) (rune, bool) {
	if at+4 > len(doc) {
		return 0, false
	}
	var r rune
	for _, c := range doc[at : at+4] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}
