package run

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// Documents leaving a program are well-formed text: lone surrogates become U+FFFD in the
// result, in tool arguments and in tool outputs as the program sees them; U+0000 is kept.
func TestDocumentsLeavingTheProgramAreWellFormed(t *testing.T) {
	var gotArgs json.RawMessage
	rt, err := New(testOptions(Options{Tools: []Tool{{Path: "t.echo", Description: "Echo.",
		Execute: func(_ context.Context, in json.RawMessage, _ toolcall.Call) (json.RawMessage, error) {
			gotArgs = append(json.RawMessage(nil), in...)
			return json.RawMessage(`{"s":"x\ud800y","z":"a\u0000b"}`), nil
		}}}}))
	require.NoError(t, err)
	src := `const out = await tools.t.echo({s: "\uD800", z: "a\u0000b"});
return {codes: [...out.s].map(c => c.charCodeAt(0)), z: out.z, lone: "\uDC00", pair: "\uD83D\uDE00"}`
	exec, err := rt.Execute(context.Background(), src, ExecOptions{})
	require.NoError(t, err)
	res, ok := exec.Result()
	require.True(t, ok)
	require.True(t, res.OK, "%+v", res.Error)
	require.JSONEq(t, `{"s":"\ufffd","z":"a\u0000b"}`, string(gotArgs))
	require.Equal(t, `{"codes":[120,65533,121],"z":"a\u0000b","lone":"\ufffd","pair":"😀"}`, string(res.Value))
}
