package toolset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// MaxErrorMessageBytes bounds the message of a tool error taken from a toolset's answer
// ({"error": {"message"}} or a 4xx's body): a longer one is cut, at a character boundary, and
// ends with "…". The message is journaled with the call and shown in the run's result.
const MaxErrorMessageBytes = 4096

// answer is a toolset's JSON answer to a call or an extension call.
type answer struct {
	Output json.RawMessage
	Handle json.RawMessage
	// Error is set when the answer has a non-null "error" object.
	Error *answerError
}

type answerError struct {
	Message string
}

// members decodes a JSON object into its members (encoding/json would silently keep the last of
// a member named twice). A member named twice, a value that is not an object, and data after
// the object are errors.
//
// Every tool call's answer goes through here: a well-formed object whose names are distinct is
// split by scanMembers, anything else by decodeMembers, whose errors say what is wrong.
func members(data []byte) (map[string]json.RawMessage, error) {
	if json.Valid(data) {
		if m, ok := scanMembers(data); ok {
			return m, nil
		}
	}
	return decodeMembers(data)
}

// scanMembers splits valid JSON data into the members of its object, as decodeMembers does;
// ok is false when data is not an object or names a member twice. The values are slices of data.
func scanMembers(data []byte) (m map[string]json.RawMessage, ok bool) {
	i := skipJSONSpace(data, 0)
	if data[i] != '{' {
		return nil, false
	}
	m = make(map[string]json.RawMessage, 4)
	if i = skipJSONSpace(data, i+1); data[i] == '}' {
		return m, true
	}
	for {
		end := jsonStringEnd(data, i)
		var name string
		if key := data[i:end]; bytes.IndexByte(key, '\\') < 0 && isASCII(key) {
			name = string(key[1 : len(key)-1])
		} else if json.Unmarshal(key, &name) != nil { // escapes, or invalid UTF-8 made U+FFFD
			return nil, false
		}
		i = skipJSONSpace(data, skipJSONSpace(data, end)+1) // past the colon
		valueEnd := jsonValueEnd(data, i)
		if _, dup := m[name]; dup {
			return nil, false
		}
		m[name] = data[i:valueEnd:valueEnd]
		if i = skipJSONSpace(data, valueEnd); data[i] == '}' {
			return m, true
		}
		i = skipJSONSpace(data, i+1) // past the comma
	}
}

// skipJSONSpace returns the index of the first byte of data at or after i that is not JSON
// white space.
func skipJSONSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// jsonStringEnd returns the index just past the string of valid JSON that starts at i.
func jsonStringEnd(data []byte, i int) int {
	for j := i + 1; ; j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
}

// jsonValueEnd returns the index just past the value of valid JSON that starts at i.
func jsonValueEnd(data []byte, i int) int {
	switch data[i] {
	case '"':
		return jsonStringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; ; j++ {
			switch data[j] {
			case '"':
				j = jsonStringEnd(data, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
	}
	j := i // a number, true, false or null: up to the next delimiter
	for j < len(data) {
		switch data[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j
		}
		j++
	}
	return j
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// decodeMembers is members by encoding/json's tokenizer.
func decodeMembers(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	out := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("member %q appears twice", name)
		}
		out[name] = v
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the JSON object")
	}
	return out, nil
}

// member returns the member of m that stands for name: matched as encoding/json matches a
// struct field, exactly or else ignoring case (a toolset written in another convention
// answers "Output"), so toolsets that worked keep working. Two members that both match (say
// "output" and "Output") are refused rather than one of them silently taken.
func member(m map[string]json.RawMessage, name string) (json.RawMessage, bool, error) {
	var (
		found json.RawMessage
		ok    bool
	)
	for k, v := range m {
		if !strings.EqualFold(k, name) {
			continue
		}
		if ok {
			return nil, false, fmt.Errorf("member %q appears twice", name)
		}
		found, ok = v, true
	}
	return found, ok, nil
}

// decodeAnswer reads a call's answer: an object whose members output, handle and error are
// read as member matches them (other members are ignored). error, unless null, must be an
// object whose message, when present, is a string.
func decodeAnswer(data []byte) (answer, error) {
	if string(bytes.TrimSpace(data)) == "null" {
		return answer{}, nil
	}
	m, err := members(data)
	if err != nil {
		return answer{}, err
	}
	var a answer
	if a.Output, _, err = member(m, "output"); err != nil {
		return answer{}, err
	}
	if a.Handle, _, err = member(m, "handle"); err != nil {
		return answer{}, err
	}
	raw, ok, err := member(m, "error")
	if err != nil {
		return answer{}, err
	}
	if ok && string(raw) != "null" {
		em, err := members(raw)
		if err != nil {
			return answer{}, fmt.Errorf(`"error" must be an object {"message": "..."}: %w`, err)
		}
		a.Error = &answerError{}
		msg, ok, err := member(em, "message")
		if err != nil {
			return answer{}, fmt.Errorf(`"error": %w`, err)
		}
		if ok && string(msg) != "null" {
			if err := json.Unmarshal(msg, &a.Error.Message); err != nil {
				return answer{}, errors.New(`"error.message" must be a string`)
			}
		}
	}
	return a, nil
}

// errorMessage returns a tool error's message from a toolset, cut to MaxErrorMessageBytes.
func errorMessage(s string) string {
	return truncate(s, MaxErrorMessageBytes)
}

// truncate cuts s to at most n bytes (plus "…") at a character boundary, replacing invalid
// UTF-8.
func truncate(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
