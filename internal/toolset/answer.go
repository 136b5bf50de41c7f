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
func members(data []byte) (map[string]json.RawMessage, error) {
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
