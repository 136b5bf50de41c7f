package interp

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestToPrimitiveHints checks the hint each operator passes to Symbol.toPrimitive (node's
// answers), and that Date's own Symbol.toPrimitive takes "default" as "string".
func TestToPrimitiveHints(t *testing.T) {
	t.Parallel()
	obj := "const o = {[Symbol.toPrimitive](h) { return h }};\n"
	tests := []struct {
		name, src, want string
	}{
		{name: "addition", src: obj + "o + ''", want: "default"},
		{name: "addition of two objects", src: obj + "o + o", want: "defaultdefault"},
		{name: "loose equality with a string", src: obj + "JSON.stringify([o == 'default', o == 'number', 'default' == o])", want: "[true,false,true]"},
		{name: "template literal", src: obj + "`${o}`", want: "string"},
		{name: "String()", src: obj + "String(o)", want: "string"},
		{name: "relational", src: obj + "JSON.stringify([o < 'o', o > 'nu'])", want: "[true,true]"},
		{name: "unary plus", src: "+{[Symbol.toPrimitive](h) { return h === 'number' ? 7 : 0 }}", want: "7"},
		{name: "Date plus is its string", src: "const d = new Date(0); String(d + 1 === d.toString() + '1')", want: "true"},
		{name: "Date loose equality with its string", src: "const d = new Date(0); String(d == d.toString())", want: "true"},
		{name: "Date minus is its number", src: "String(new Date(5) - 0)", want: "5"},
		{name: "Date toPrimitive rejects an empty hint", src: "let r; try { new Date(0)[Symbol.toPrimitive]('') } catch (e) { r = e.name } r", want: "TypeError"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			kind, result := boundsRun(t, tt.src, 0, 20*time.Second)
			require.Empty(t, kind)
			require.Equal(t, tt.want, result)
		})
	}
}
