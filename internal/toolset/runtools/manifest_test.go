package runtools

import (
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
