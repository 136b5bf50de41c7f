package compiler

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// TestDeadZoneChecksLeftOut checks that reads after a declaration, and of this outside derived
// constructors, compile to plain register reads (assignments keep their check instruction).
func TestDeadZoneChecksLeftOut(t *testing.T) {
	t.Parallel()
	p, err := Compile(`function f(o) { const x = o; let y = x.a; y += 1; return x.b + y + this.c } f`, false)
	require.NoError(t, err)
	for _, fc := range p.Funcs {
		for _, in := range fc.Code {
			require.NotEqual(t, bytecode.OpGetRegChecked, in.Op, p.Disassemble())
		}
	}
}
