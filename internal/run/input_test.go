package run

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// A run's input is the global input: a copy of the posted JSON, undefined without one, and
// part of the run's state, so a resumed run (in a fresh runtime) reads the same value.
func TestRunInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		input string
		src   string
		want  string
		kind  Kind
	}{
		{name: "an object", input: `{"a": 40, "b": [2]}`, src: "return input.a + input.b[0]", want: "42"},
		{name: "exact text", input: `{"s": "a\u0000b", "big": 12345678901234567890}`, src: "return [input.s.length, String(input.big)]", want: `[3,"12345678901234567000"]`},
		{name: "a string", input: `"hello"`, src: "return input.toUpperCase()", want: `"HELLO"`},
		{name: "none", src: "return typeof input", want: `"undefined"`},
		{name: "a copy of its own", input: `{"n": 1}`, src: "input.n++; input.extra = true; return input", want: `{"n":2,"extra":true}`},
		{name: "not JSON", input: `{nope`, src: "return 1", kind: KindInvalidDataValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, _ := setup(t, Limits{}, Hooks{})
			e, err := b.rt.Execute(context.Background(), tt.src, ExecOptions{RunID: "r1", Input: json.RawMessage(tt.input)})
			require.NoError(t, err)
			res := resultOf(t, e)
			if tt.kind != "" {
				require.False(t, res.OK)
				require.Equal(t, tt.kind, res.Error.Kind)
				require.Contains(t, res.Error.Message, "input")
				return
			}
			require.True(t, res.OK, "%+v", res.Error)
			require.JSONEq(t, tt.want, string(res.Value))
		})
	}

	t.Run("kept across a suspension", func(t *testing.T) {
		t.Parallel()
		b, _ := setup(t, Limits{}, Hooks{})
		e, err := b.rt.Execute(context.Background(), `const ok = await tools.approvals.request({what: input.what}); return [input.what, ok]`,
			ExecOptions{RunID: "r1", Input: json.RawMessage(`{"what": "ship"}`)})
		require.NoError(t, err)
		require.Equal(t, StateSuspended, e.State())
		s, err := e.Suspend()
		require.NoError(t, err)
		require.JSONEq(t, `{"what":"ship"}`, string(s.Pending[0].Args))
		b2, _ := setup(t, Limits{}, Hooks{})
		e2, err := b2.rt.Resume(context.Background(), s.State, []OutcomeFor{
			{Key: "r1:1", Outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`true`)}},
		}, ExecOptions{})
		require.NoError(t, err)
		res := resultOf(t, e2)
		require.True(t, res.OK, "%+v", res.Error)
		require.JSONEq(t, `["ship", true]`, string(res.Value))
	})
}
