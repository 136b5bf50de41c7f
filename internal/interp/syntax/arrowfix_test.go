package syntax

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tdewolff/parse/v2/js"
)

func TestArrowParameterDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		src    string
		params string // the arrow's parameters as js.Params.String prints them
		call   string // line:column of the first call after the arrow
	}{
		{name: "nested array default in object pattern", src: "f = ({ w: [x] = [4] }) => x;\ng()", params: "Params(Binding({ w: Binding([ Binding(x) ] = ([4])) }))", call: "2:1"},
		{name: "object pattern with trailing comma and default", src: "f = ({ x, } = {x: 23}) => x; g()", params: "Params(Binding({ Binding(x) } = ({x: 23})))", call: "1:30"},
		{name: "nested array defaults", src: "f = ([[x, y, z] = [4, 5, 6]]) => x + y;\n  g()", params: "Params(Binding([ Binding([ Binding(x), Binding(y), Binding(z) ] = ([4, 5, 6])) ]))", call: "2:3"},
		{name: "async arrow with block body", src: "f = async ({ a: { b } = { b: 1 } } = {}) => { return b };\ng()", params: "Params(Binding({ a: Binding({ Binding(b) } = ({b: 1})) } = ({})))", call: "2:1"},
		{name: "default referencing an outer variable", src: "let d = 1; f = ({ o: [x] = [d, 2] }) => x; g()", params: "Params(Binding({ o: Binding([ Binding(x) ] = ([d, 2])) }))", call: "1:44"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse(tt.src, ModeAsyncBody)
			require.NoError(t, err)
			arrow := nthNode(t, p.AST, "*js.ArrowFunc", 0).(*js.ArrowFunc)
			require.Equal(t, tt.params, arrow.Params.String())
			call := nthNode(t, p.AST, "*js.CallExpr", 0)
			pos := p.Pos(call)
			require.Equal(t, tt.call, fmt.Sprintf("%d:%d", pos.Line, pos.Column))
			// the parameters are bound in the arrow's own scope
			for _, v := range arrow.Body.Scope.Declared {
				require.Equal(t, js.ArgumentDecl, v.Decl, string(v.Data))
			}
			require.Equal(t, p.Source, tt.src)
		})
	}
}

func TestArrowParameterDefaultsKeepErrors(t *testing.T) {
	t.Parallel()
	_, err := Parse("f = ({ w: [x] = [4] }) => x +", ModeAsyncBody)
	require.Error(t, err)
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, KindParseError, e.Kind)
}
