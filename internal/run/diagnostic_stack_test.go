package run

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// The diagnostic of an uncaught error carries the frames that made it, innermost first, also
// for an error made before a suspend and thrown after the resume.
func TestDiagnosticCarriesTheStack(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	res := resultOf(t, execute(t, b, "function inner() { null.x }\nfunction outer() { inner() }\nouter()"))
	require.False(t, res.OK)
	require.Equal(t, []StackFrame{{Function: "inner", Line: 1, Column: 25}, {Function: "outer", Line: 2, Column: 20}, {Line: 3, Column: 1}}, res.Error.Stack)
	raw, err := json.Marshal(res.Error)
	require.NoError(t, err)
	require.Contains(t, string(raw), `"stack":[{"function":"inner","line":1,"column":25},`)

	e := execute(t, b, "function make() { return new RangeError(\"late\") }\nconst err = make()\nawait tools.approvals.request({})\nthrow err")
	require.Equal(t, StateSuspended, e.State())
	s, err := e.Suspend()
	require.NoError(t, err)
	e2, err := b.rt.Resume(context.Background(), s.State, []OutcomeFor{{Key: s.Pending[0].Key, Outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`true`)}}}, ExecOptions{})
	require.NoError(t, err)
	res = resultOf(t, e2)
	require.False(t, res.OK)
	require.Equal(t, []StackFrame{{Function: "make", Line: 1, Column: 26}, {Line: 2, Column: 13}}, res.Error.Stack)

	// A thrown value that is no error has no stack.
	res = resultOf(t, execute(t, b, "throw 5"))
	require.Nil(t, res.Error.Stack)
}
