package runtools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolset"
)

// deepSchema is a schema whose objects nest depth levels deep.
func deepSchema(depth int) string {
	return strings.Repeat(`{"items":`, depth-1) + `{}` + strings.Repeat(`}`, depth-1)
}

func TestParseManifest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		data    string
		wantErr error
		tools   int
	}{
		{name: "minimal", data: `{"tools":[{"path":"a"}]}`, tools: 1},
		{name: "empty tool list", data: `{"tools":[]}`, tools: 0},
		{name: "unknown fields ignored", data: `{"version":2,"tools":[{"path":"a.b","durable":true,"extra":1}],"namespaces":[{"path":"a","description":"A"}]}`, tools: 1},
		{name: "not JSON", data: `<html>`, wantErr: toolset.ErrInvalidManifest},
		{name: "no tools", data: `{"namespaces":[]}`, wantErr: toolset.ErrInvalidManifest},
		{name: "tools not array", data: `{"tools":{}}`, wantErr: toolset.ErrInvalidManifest},
		{name: "empty path", data: `{"tools":[{"path":""}]}`, wantErr: run.ErrInvalidTool},
		{name: "duplicate", data: `{"tools":[{"path":"a"},{"path":"a"}]}`, wantErr: run.ErrInvalidTool},
		{name: "tool and namespace", data: `{"tools":[{"path":"a"},{"path":"a.b"}]}`, wantErr: run.ErrInvalidTool},
		{name: "bad schema", data: `{"tools":[{"path":"a","input":{"type":7}}]}`, wantErr: run.ErrInvalidSchema},
		{name: "remote ref", data: `{"tools":[{"path":"a","input":{"$ref":"http://evil/x"}}]}`, wantErr: run.ErrInvalidSchema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m, err := ParseManifest([]byte(tt.data))
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				require.ErrorIs(t, err, toolset.ErrInvalidManifest)
				return
			}
			require.NoError(t, err)
			require.Len(t, m.Tools, tt.tools)
		})
	}
}

// Registration refuses schemas nested deeper than MaxSchemaDepth (a 1000-deep one took 25 s to
// compile, a 2000-deep one 100 s, at registration and for every run mounting it); Check does
// not, so that manifests stored before the limit keep loading.
func TestCheckDepth(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		data string
		ok   bool
	}{
		{"deep input schema", `{"tools":[{"path":"a","input":` + deepSchema(MaxSchemaDepth+1) + `}]}`, false},
		{"deep output schema", `{"tools":[{"path":"a","output":` + deepSchema(5000) + `}]}`, false},
		{"schema at the depth limit", `{"tools":[{"path":"a","input":` + deepSchema(MaxSchemaDepth) + `}]}`, true},
		{"brackets in strings do not nest", `{"tools":[{"path":"a","input":{"description":"` + strings.Repeat(`[{\"`, 100) + `"}}]}`, true},
	} {
		m, err := toolset.DecodeManifest([]byte(tt.data))
		require.NoError(t, err, tt.name)
		err = CheckDepth(m)
		if tt.ok {
			require.NoError(t, err, tt.name)
			continue
		}
		require.ErrorIs(t, err, toolset.ErrInvalidManifest, tt.name)
	}
	// Stored before the limit, a manifest one level too deep still loads for its runs.
	m, err := ParseManifest([]byte(`{"tools":[{"path":"a","input":` + deepSchema(MaxSchemaDepth+1) + `}]}`))
	require.NoError(t, err)
	require.Len(t, m.Tools, 1)
}

// Registration refuses a schema with a reference cycle validation can reach (a subschema that
// applies to the same value again with no keyword between that descends into it): each call
// whose input reached the cycle failed with "causing reference cycle". Recursion through
// properties or items validates and is accepted. Check does not refuse cycles, so that manifests
// stored before the check keep loading.
func TestCheckCycles(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		schema string
		// value validates when the schema is accepted; reaches the cycle when it is refused
		// (empty: validation does not fail, though the schema means nothing).
		value string
		cycle string // the cycle named in the error; empty when accepted
	}{
		{"$ref to itself", `{"$ref":"#"}`, `{}`, `# -$ref-> #`},
		{"$ref to $defs that $ref each other", `{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`, `1`,
			`#/$defs/a -$ref-> #/$defs/b -$ref-> #/$defs/a`},
		{"allOf back to the root", `{"type":"object","allOf":[{"$ref":"#"}]}`, `{}`, `# -allOf/0-> #/allOf/0 -$ref-> #`},
		{"anyOf branch back to the root", `{"anyOf":[{"type":"string"},{"$ref":"#"}]}`, `1`, `# -anyOf/1-> #/anyOf/1 -$ref-> #`},
		{"then back to the root", `{"if":{"type":"string"},"then":{"$ref":"#"}}`, `"x"`, `# -then-> #/then -$ref-> #`},
		{"dependentSchemas back to the root", `{"dependentSchemas":{"x":{"$ref":"#"}}}`, `{"x":1}`, `# -dependentSchemas/x-> #/dependentSchemas/x -$ref-> #`},
		{"not back to the root", `{"not":{"$ref":"#"}}`, ``, `# -not-> #/not -$ref-> #`},
		{"$anchor to itself", `{"$ref":"#A","$defs":{"a":{"$anchor":"A","$ref":"#A"}}}`, `1`, `#/$defs/a -$ref-> #/$defs/a`},
		{"$dynamicRef to itself", `{"$dynamicAnchor":"n","$dynamicRef":"#n"}`, `1`, `# -$dynamicRef-> #`},
		{"draft 7 definitions", `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/a","definitions":{"a":{"$ref":"#/definitions/a"}}}`, `1`,
			`#/definitions/a -$ref-> #/definitions/a`},
		{"cycle below a property", `{"type":"object","properties":{"x":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/a"}}}`, `{"x":1}`,
			`#/$defs/a -$ref-> #/$defs/a`},

		{"tree through properties and items", `{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}}}`,
			`{"name":"a","children":[{"name":"b","children":[{"name":"c"}]}]}`, ``},
		{"tree node in $defs", `{"$ref":"#/$defs/node","$defs":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`,
			`{"children":[{"children":[]}]}`, ``},
		{"draft 7 tree", `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/n","definitions":{"n":{"type":"object","properties":{"c":{"type":"array","items":{"$ref":"#/definitions/n"}}}}}}`,
			`{"c":[{"c":[]}]}`, ``},
		{"map of itself", `{"type":"object","additionalProperties":{"$ref":"#"}}`, `{"a":{"b":{}}}`, ``},
		{"linked list through anyOf", `{"$defs":{"list":{"anyOf":[{"type":"null"},{"type":"object","properties":{"next":{"$ref":"#/$defs/list"}}}]}},"$ref":"#/$defs/list"}`,
			`{"next":{"next":null}}`, ``},
		{"property names against the root", `{"propertyNames":{"$ref":"#"}}`, `{"a":1}`, ``},
		{"one subschema reached twice", `{"allOf":[{"$ref":"#/$defs/s"},{"$ref":"#/$defs/t"}],"$defs":{"s":{"$ref":"#/$defs/t"},"t":{"type":"string"}}}`, `"x"`, ``},
		{"unreachable cycle in $defs", `{"type":"object","$defs":{"a":{"$ref":"#/$defs/a"}}}`, `{}`, ``},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, where := range []string{"input", "output"} {
				data := `{"tools":[{"path":"ns.tool","` + where + `":` + tt.schema + `}]}`
				// Stored manifests load whatever their schemas' cycles.
				_, err := ParseManifest([]byte(data))
				require.NoError(t, err)
				compiled, err := run.CompileSchema(json.RawMessage(tt.schema))
				require.NoError(t, err)
				_, err = ParseNewManifest([]byte(data))
				if tt.cycle == "" {
					require.NoError(t, err)
					require.NoError(t, compiled.Validate(where, json.RawMessage(tt.value)))
					continue
				}
				require.ErrorIs(t, err, toolset.ErrInvalidManifest)
				require.ErrorIs(t, err, run.ErrInvalidSchema)
				require.ErrorContains(t, err, "tool ns.tool: "+where+" schema: invalid JSON Schema: reference cycle "+tt.cycle+": ")
				if tt.value != "" {
					require.ErrorContains(t, compiled.Validate(where, json.RawMessage(tt.value)), "causing reference cycle")
				}
			}
		})
	}
}
