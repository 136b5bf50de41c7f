package run

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCompileSchema(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		schema  string
		wantNil bool
		wantErr error
	}{
		{name: "empty is anything", schema: ``, wantNil: true},
		{name: "null is anything", schema: `null`, wantNil: true},
		{name: "true", schema: `true`},
		{name: "object", schema: `{"type":"object"}`},
		{name: "draft 7 with definitions", schema: `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"n":{"type":"number"}},"items":[{"$ref":"#/definitions/n"}]}`},
		{name: "malformed JSON", schema: `{"type":`, wantErr: ErrInvalidSchema},
		{name: "array is not a schema", schema: `[{}]`, wantErr: ErrInvalidSchema},
		{name: "number is not a schema", schema: `3`, wantErr: ErrInvalidSchema},
		{name: "unknown type", schema: `{"type":"thing"}`, wantErr: ErrInvalidSchema},
		{name: "dangling ref", schema: `{"$ref":"#/$defs/missing"}`, wantErr: ErrInvalidSchema},
		{name: "remote ref refused", schema: `{"$ref":"https://example.com/s.json"}`, wantErr: ErrInvalidSchema},
		{name: "ECMAScript lookahead pattern", schema: `{"type":"string","pattern":"^(?!tmp_)[a-z_]+$"}`},
		{name: "invalid pattern", schema: `{"type":"string","pattern":"(unclosed"}`, wantErr: ErrInvalidSchema},
		{name: "file ref refused", schema: `{"$ref":"file:///etc/passwd"}`, wantErr: ErrInvalidSchema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := CompileSchema(json.RawMessage(tt.schema))
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.wantNil, s == nil)
		})
	}
}

func TestSchemaValidate(t *testing.T) {
	t.Parallel()
	const object = `{
		"type": "object",
		"properties": {
			"a": {"type": "number"},
			"name": {"type": "string", "minLength": 2, "pattern": "^[a-z]+$"},
			"tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
			"mode": {"enum": ["fast", "slow"]},
			"x-y": {"type": "integer"},
			"node": {"$ref": "#/$defs/Node"},
			"either": {"anyOf": [{"type": "string"}, {"type": "number"}]}
		},
		"required": ["a"],
		"additionalProperties": false,
		"$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}, "v": {"type": "number"}}}}
	}`
	const draft7 = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"array","items":[{"type":"string"},{"$ref":"#/definitions/n"}],"definitions":{"n":{"type":"number","maximum":10}}}`
	tests := []struct {
		name   string
		schema string
		value  string
		want   []Violation
	}{
		{name: "valid", schema: object, value: `{"a":1,"name":"ab","tags":["x"],"mode":"fast","node":{"next":{"v":2}}}`},
		{name: "wrong type", schema: object, value: `{"a":"1"}`, want: []Violation{{"input.a", "expected number, got string"}}},
		{name: "missing required", schema: object, value: `{}`, want: []Violation{{"input", `missing required property "a"`}}},
		{name: "extra property", schema: object, value: `{"a":1,"b":2}`, want: []Violation{{"input", `unexpected property "b"`}}},
		{name: "array item", schema: object, value: `{"a":1,"tags":["x",3]}`, want: []Violation{{"input.tags[1]", "expected string, got number"}}},
		{name: "bracket key", schema: object, value: `{"a":1,"x-y":1.5}`, want: []Violation{{`input["x-y"]`, "expected integer, got number"}}},
		{name: "recursive ref", schema: object, value: `{"a":1,"node":{"next":{"next":{"v":"no"}}}}`, want: []Violation{{"input.node.next.next.v", "expected number, got string"}}},
		{name: "whole value type", schema: object, value: `[1]`, want: []Violation{{"input", "expected object, got array"}}},
		{name: "null input", schema: object, value: ``, want: []Violation{{"input", "expected object, got null"}}},
		{name: "draft 7 tuple", schema: draft7, value: `["a",11]`, want: []Violation{{"input[1]", "expected at most 10, got 11"}}},
		{name: "draft 7 valid", schema: draft7, value: `["a",9]`},
		{name: "negative lookahead rejects", schema: `{"type":"string","pattern":"^(?!tmp_)[a-z_]+$"}`, value: `"tmp_x"`,
			want: []Violation{{"input", `expected a string matching "^(?!tmp_)[a-z_]+$", got "tmp_x"`}}},
		{name: "negative lookahead accepts", schema: `{"type":"string","pattern":"^(?!tmp_)[a-z_]+$"}`, value: `"data_x"`},
		{name: "unicode pattern", schema: `{"type":"string","pattern":"^.$"}`, value: `"😀"`},
		{name: "backtracking bomb ends", schema: `{"type":"string","pattern":"^(a+)+$"}`, value: `"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"`,
			want: []Violation{{"input", `expected a string matching "^(a+)+$", got "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"`}}},
		{name: "false schema", schema: `false`, value: `1`, want: []Violation{{"input", "no value is allowed here"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := CompileSchema(json.RawMessage(tt.schema))
			require.NoError(t, err)
			err = s.Validate("input", json.RawMessage(tt.value))
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			var se *SchemaError
			require.ErrorAs(t, err, &se)
			require.Equal(t, "input", se.Root)
			require.Equal(t, tt.want, se.Violations)
		})
	}
}

func TestSchemaValidateMessages(t *testing.T) {
	t.Parallel()
	s, err := CompileSchema(json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","minLength":3},"code":{"type":"string","pattern":"^[A-Z]{2}$"},"n":{"type":"number","minimum":0.5,"exclusiveMaximum":10,"multipleOf":0.5},"list":{"type":"array","maxItems":1},"k":{"const":"on"},"mode":{"enum":["fast","slow"]},"either":{"anyOf":[{"type":"string"},{"type":"number"}]},"obj":{"anyOf":[{"type":"object","properties":{"y":{"type":"string"},"x":{"type":"string"}}},{"type":"array"}]}}}`))
	require.NoError(t, err)
	tests := []struct {
		name  string
		value string
		want  string
	}{
		{name: "min length", value: `{"name":"ab"}`, want: "input.name: expected at least 3 characters, got 2"},
		{name: "enum", value: `{"mode":"medium"}`, want: `input.mode: expected one of "fast", "slow", got "medium"`},
		{name: "any of", value: `{"either":true}`, want: "input.either: matches none of the allowed alternatives (input.either: expected string, got boolean | input.either: expected number, got boolean)"},
		{name: "pattern", value: `{"code":"usa"}`, want: `input.code: expected a string matching "^[A-Z]{2}$", got "usa"`},
		{name: "minimum", value: `{"n":0}`, want: "input.n: expected at least 0.5, got 0"},
		{name: "exclusive maximum", value: `{"n":10}`, want: "input.n: expected less than 10, got 10"},
		{name: "multiple of", value: `{"n":1.25}`, want: "input.n: expected a multiple of 0.5, got 1.25"},
		{name: "max items", value: `{"list":[1,2]}`, want: "input.list: expected at most 1 items, got 2"},
		{name: "const", value: `{"k":"off"}`, want: `input.k: expected "on", got "off"`},
		{name: "any of objects, deterministic", value: `{"obj":{"x":1,"y":2}}`,
			want: `input.obj: matches none of the allowed alternatives (input.obj.x: expected string, got number | input.obj.y: expected string, got number | input.obj: expected array, got object)`},
		{name: "several", value: `{"name":1,"mode":2}`, want: `input.mode: expected one of "fast", "slow", got 2; input.name: expected string, got number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := s.Validate("input", json.RawMessage(tt.value))
			require.Error(t, err)
			require.Equal(t, tt.want, err.Error())
		})
	}
}

func TestSchemaValidateNotJSON(t *testing.T) {
	t.Parallel()
	s, err := CompileSchema(json.RawMessage(`{"type":"object"}`))
	require.NoError(t, err)
	require.ErrorIs(t, s.Validate("output", json.RawMessage(`{nope`)), ErrInvalidJSON)
	var none *Schema
	require.ErrorIs(t, none.Validate("output", json.RawMessage(`{nope`)), ErrInvalidJSON)
	require.NoError(t, none.Validate("output", json.RawMessage(`{"any":"thing"}`)))
	require.Nil(t, none.Raw())
	require.JSONEq(t, `{"type":"object"}`, string(s.Raw()))
}

func BenchmarkSchemaValidate(b *testing.B) {
	s, err := CompileSchema(json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"tags":{"type":"array","items":{"type":"string"}},"node":{"$ref":"#/$defs/N"}},"required":["a"],"$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"},"v":{"type":"number"}}}}}`))
	if err != nil {
		b.Fatal(err)
	}
	value := json.RawMessage(`{"a":1,"tags":["x","y","z"],"node":{"v":1,"next":{"v":2,"next":{"v":3}}}}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(value)))
	for b.Loop() {
		if err := s.Validate("input", value); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompileSchema(b *testing.B) {
	raw := json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"string","pattern":"^x"}},"required":["a"]}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CompileSchema(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzSchema checks that compiling any bytes, and validating a few values
// against what compiles, never panics and that failures are typed.
func FuzzSchema(f *testing.F) {
	for _, seed := range []string{
		`{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]}`,
		`{"$ref":"#/$defs/N","$defs":{"N":{"items":{"$ref":"#/$defs/N"}}}}`,
		`{"anyOf":[{"const":1},{"pattern":"^(?=a)"}]}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","items":[true,false]}`,
		`true`, `[`, `{"$ref":"http://x"}`,
	} {
		f.Add([]byte(seed))
	}
	values := []json.RawMessage{json.RawMessage(`{"a":1,"b":[1,"x"]}`), json.RawMessage(`[[[]]]`), json.RawMessage(`"a"`), nil}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := CompileSchema(json.RawMessage(data))
		if err != nil {
			if !errors.Is(err, ErrInvalidSchema) {
				t.Fatalf("untyped compile error %v", err)
			}
			return
		}
		for _, v := range values {
			err := s.Validate("input", v)
			var se *SchemaError
			if err != nil && !errors.As(err, &se) {
				t.Fatalf("untyped validation error %v", err)
			}
		}
	})
}
