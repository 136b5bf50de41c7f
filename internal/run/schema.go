package run

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// ErrInvalidSchema is wrapped by errors about a JSON Schema that cannot be
// compiled (malformed JSON, unknown draft, an unresolvable $ref, a remote
// $ref).
var ErrInvalidSchema = errors.New("invalid JSON Schema")

// ErrInvalidJSON is wrapped when a value to validate is not JSON.
var ErrInvalidJSON = errors.New("invalid JSON value")

// schemaURL is the location every compiled schema is registered under; only
// refs inside the document itself resolve.
const schemaURL = "urn:codemode:schema.json"

var printer = message.NewPrinter(language.English)

// Schema is a compiled JSON Schema. Drafts 2020-12 (the default) and 7 are
// understood ($schema selects), with $ref into $defs or definitions of the
// same document; references to other documents are refused. "format" is an
// annotation and not asserted. Patterns follow ECMA-262 (lookahead,
// named groups, \d and friends) and each match is bounded in time. A nil
// *Schema accepts every value.
type Schema struct {
	raw      json.RawMessage
	compiled *jsonschema.Schema
}

// refuseLoader keeps schemas from reading files or URLs.
type refuseLoader struct{}

// Load refuses every URL.
func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%w: reference to external document %s", ErrInvalidSchema, url)
}

// patternTimeout bounds one "pattern" or "patternProperties" match; a match
// that runs out of time counts as no match.
const patternTimeout = 100 * time.Millisecond

// ecmaPattern is a JSON Schema pattern with ECMA-262 semantics (as the
// specification asks), matched by regexp2 with a time bound so a
// backtracking pattern from a toolset cannot hang a worker.
type ecmaPattern struct {
	re *regexp2.Regexp
}

// MatchString reports a match; an error (a timeout) counts as no match.
func (p ecmaPattern) MatchString(s string) bool {
	ok, err := p.re.MatchString(s)
	return err == nil && ok
}

// String returns the pattern.
func (p ecmaPattern) String() string { return p.re.String() }

func ecmaRegexp(pattern string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(pattern, regexp2.ECMAScript|regexp2.Unicode)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = patternTimeout
	return ecmaPattern{re: re}, nil
}

// CompileSchema compiles raw. Empty raw or JSON null gives a nil *Schema
// (anything accepted). A schema must be a JSON object or boolean.
func CompileSchema(raw json.RawMessage) (*Schema, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return nil, nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(trimmed))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	switch doc.(type) {
	case map[string]any, bool:
	default:
		return nil, fmt.Errorf("%w: a schema is an object or a boolean, not %s", ErrInvalidSchema, jsonType(doc))
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	c.UseRegexpEngine(ecmaRegexp)
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	compiled, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	return &Schema{raw: append(json.RawMessage(nil), trimmed...), compiled: compiled}, nil
}

// Raw returns the schema's JSON text (nil for a nil *Schema).
func (s *Schema) Raw() json.RawMessage {
	if s == nil {
		return nil
	}
	return s.raw
}

// Violation is one reason a value fails a schema.
type Violation struct {
	// Location is where in the value the failure is, written as a
	// JavaScript access path from the root name ("input.items[0].name").
	Location string
	// Message says what is wrong ("expected number, got string").
	Message string
}

// SchemaError reports a value that fails its schema.
type SchemaError struct {
	// Root is the name of the validated value ("input" or "output").
	Root string
	// Violations lists each failure, ordered by location then message.
	Violations []Violation
}

// Error reads "input.a: expected number, got string; input: missing
// required property \"b\"".
func (e *SchemaError) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.Location + ": " + v.Message
	}
	return strings.Join(parts, "; ")
}

// Validate checks the JSON value against the schema; root names the value in
// messages ("input"). A failure is a *SchemaError; a value that is not JSON
// wraps ErrInvalidJSON. A nil *Schema accepts everything but still requires
// valid JSON when value is non-empty. Empty value means JSON null.
func (s *Schema) Validate(root string, value json.RawMessage) error {
	trimmed := bytes.TrimSpace(value)
	if len(trimmed) == 0 {
		trimmed = []byte("null")
	}
	if s == nil {
		if !json.Valid(trimmed) {
			return fmt.Errorf("%s: %w", root, ErrInvalidJSON)
		}
		return nil
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(trimmed))
	if err != nil {
		return fmt.Errorf("%s: %w: %w", root, ErrInvalidJSON, err)
	}
	err = s.compiled.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("validate %s: %w", root, err)
	}
	se := &SchemaError{Root: root}
	seen := make(map[Violation]bool)
	collect(ve, root, inst, se, seen)
	sortViolations(se.Violations)
	if len(se.Violations) == 0 {
		se.Violations = append(se.Violations, Violation{Location: root, Message: "does not match its schema"})
	}
	return se
}

// collect flattens a validation error tree into violations.
func collect(ve *jsonschema.ValidationError, root string, inst any, se *SchemaError, seen map[Violation]bool) {
	add := func(v Violation) {
		if !seen[v] {
			seen[v] = true
			se.Violations = append(se.Violations, v)
		}
	}
	loc := location(root, inst, ve.InstanceLocation)
	switch k := ve.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range ve.Causes {
			collect(c, root, inst, se, seen)
		}
		return
	case *kind.AnyOf, *kind.OneOf:
		if len(ve.Causes) == 0 {
			add(Violation{Location: loc, Message: ve.ErrorKind.LocalizedString(printer)})
			return
		}
		// Alternatives keep schema order; each one's violations are sorted.
		var alts []string
		subSeen := make(map[Violation]bool)
		for _, c := range ve.Causes {
			sub := &SchemaError{Root: root}
			collect(c, root, inst, sub, subSeen)
			sortViolations(sub.Violations)
			for _, v := range sub.Violations {
				alts = append(alts, v.Location+": "+v.Message)
			}
		}
		add(Violation{Location: loc, Message: "matches none of the allowed alternatives (" + strings.Join(alts, " | ") + ")"})
		return
	case *kind.Type:
		add(Violation{Location: loc, Message: "expected " + strings.Join(k.Want, " or ") + ", got " + k.Got})
	case *kind.Required:
		for _, m := range k.Missing {
			add(Violation{Location: loc, Message: "missing required property " + strconv.Quote(m)})
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			add(Violation{Location: loc, Message: "unexpected property " + strconv.Quote(p)})
		}
	case *kind.FalseSchema:
		add(Violation{Location: loc, Message: "no value is allowed here"})
	case *kind.Enum:
		add(Violation{Location: loc, Message: "expected one of " + joinLiterals(k.Want) + ", got " + literalOf(k.Got)})
	case *kind.Const:
		add(Violation{Location: loc, Message: "expected " + literalOf(k.Want) + ", got " + literalOf(k.Got)})
	case *kind.Minimum:
		add(Violation{Location: loc, Message: "expected at least " + ratString(k.Want) + ", got " + ratString(k.Got)})
	case *kind.Maximum:
		add(Violation{Location: loc, Message: "expected at most " + ratString(k.Want) + ", got " + ratString(k.Got)})
	case *kind.ExclusiveMinimum:
		add(Violation{Location: loc, Message: "expected more than " + ratString(k.Want) + ", got " + ratString(k.Got)})
	case *kind.ExclusiveMaximum:
		add(Violation{Location: loc, Message: "expected less than " + ratString(k.Want) + ", got " + ratString(k.Got)})
	case *kind.MultipleOf:
		add(Violation{Location: loc, Message: "expected a multiple of " + ratString(k.Want) + ", got " + ratString(k.Got)})
	case *kind.MinLength:
		add(Violation{Location: loc, Message: fmt.Sprintf("expected at least %d characters, got %d", k.Want, k.Got)})
	case *kind.MaxLength:
		add(Violation{Location: loc, Message: fmt.Sprintf("expected at most %d characters, got %d", k.Want, k.Got)})
	case *kind.MinItems:
		add(Violation{Location: loc, Message: fmt.Sprintf("expected at least %d items, got %d", k.Want, k.Got)})
	case *kind.MaxItems:
		add(Violation{Location: loc, Message: fmt.Sprintf("expected at most %d items, got %d", k.Want, k.Got)})
	case *kind.Pattern:
		add(Violation{Location: loc, Message: "expected a string matching " + strconv.Quote(k.Want) + ", got " + strconv.Quote(k.Got)})
	default:
		add(Violation{Location: loc, Message: ve.ErrorKind.LocalizedString(printer)})
	}
	for _, c := range ve.Causes {
		collect(c, root, inst, se, seen)
	}
}

// sortViolations orders violations by location, then message, so messages
// do not depend on the validator's map iteration order.
func sortViolations(vs []Violation) {
	sort.SliceStable(vs, func(i, j int) bool {
		if vs[i].Location != vs[j].Location {
			return vs[i].Location < vs[j].Location
		}
		return vs[i].Message < vs[j].Message
	})
}

// location renders an instance location as a JavaScript access path, using
// the instance to tell array indices from object keys.
func location(root string, inst any, path []string) string {
	var b strings.Builder
	b.WriteString(root)
	cur := inst
	for _, seg := range path {
		switch c := cur.(type) {
		case []any:
			b.WriteString("[" + seg + "]")
			if i, err := strconv.Atoi(seg); err == nil && i >= 0 && i < len(c) {
				cur = c[i]
			} else {
				cur = nil
			}
			continue
		case map[string]any:
			cur = c[seg]
		default:
			cur = nil
		}
		if IsIdentifier(seg) {
			b.WriteString("." + seg)
		} else {
			q, _ := json.Marshal(seg)
			b.WriteString("[" + string(q) + "]")
		}
	}
	return b.String()
}

// literalOf renders a decoded JSON value as JSON text.
func literalOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func joinLiterals(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = literalOf(v)
	}
	return strings.Join(parts, ", ")
}

// ratString renders a number the way JSON would.
func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// jsonType names the JSON type of a decoded value.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64, int, int64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// omap is a JSON object that keeps its key order.
type omap struct {
	keys []string
	vals map[string]any
}

func (m *omap) get(k string) (any, bool) {
	if m == nil {
		return nil, false
	}
	v, ok := m.vals[k]
	return v, ok
}

func (m *omap) str(k string) string {
	v, _ := m.get(k)
	s, _ := v.(string)
	return s
}

// decodeOrdered decodes JSON keeping object key order (*omap) and numbers
// as json.Number.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: trailing data", ErrInvalidJSON)
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := &omap{vals: make(map[string]any)}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				if _, dup := m.vals[k]; !dup {
					m.keys = append(m.keys, k)
				}
				m.vals[k] = v
			}
			_, err := dec.Token()
			return m, err
		case '[':
			var arr []any
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			if arr == nil {
				arr = []any{}
			}
			return arr, err
		}
		return nil, fmt.Errorf("%w: unexpected %v", ErrInvalidJSON, t)
	default:
		return tok, nil
	}
}

// encodeOrdered writes v back as compact JSON.
func encodeOrdered(b *strings.Builder, v any) {
	switch t := v.(type) {
	case *omap:
		b.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			q, _ := json.Marshal(k)
			b.Write(q)
			b.WriteByte(':')
			encodeOrdered(b, t.vals[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			encodeOrdered(b, e)
		}
		b.WriteByte(']')
	default:
		q, _ := json.Marshal(t)
		b.Write(q)
	}
}

func literal(v any) string {
	var b strings.Builder
	encodeOrdered(&b, v)
	return b.String()
}
