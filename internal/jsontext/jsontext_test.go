package jsontext

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWellFormed(t *testing.T) {
	cases := []struct{ in, want string }{
		{`"plain"`, `"plain"`},
		{`"a\u0000b"`, `"a\u0000b"`},
		{`"\ud800"`, `"\ufffd"`},
		{`"\uD800x"`, `"\ufffdx"`},
		{`"\udc00"`, `"\ufffd"`},
		{`"\ud83d\ude00"`, `"\ud83d\ude00"`},
		{`"\ud83d\ud83d\ude00"`, `"\ufffd\ud83d\ude00"`},
		{`"\ude00\ud83d"`, `"\ufffd\ufffd"`},
		{`"\\ud800"`, `"\\ud800"`},
		{`"\\\ud800"`, `"\\\ufffd"`},
		{`{"k\ud800":["\u0041","\ud800"]}`, `{"k\ufffd":["\u0041","\ufffd"]}`},
		{"\"a\xffb\"", "\"a\uFFFDb\""},
		{`"\u12"`, `"\u12"`},
		{`"\`, `"\`},
	}
	for _, c := range cases {
		got := string(WellFormed([]byte(c.in)))
		require.Equal(t, c.want, got, "input %q", c.in)
		require.Equal(t, c.in == c.want, IsWellFormed([]byte(c.in)), "input %q", c.in)
		if json.Valid([]byte(c.in)) {
			// Go's decoder agrees on what the text means.
			var a, b any
			require.NoError(t, json.Unmarshal([]byte(c.in), &a))
			require.NoError(t, json.Unmarshal([]byte(got), &b))
			require.Equal(t, a, b, "input %q", c.in)
		}
	}
}

func TestWellFormedKeepsTheSliceWhenNothingChanges(t *testing.T) {
	in := []byte(`{"a":"\u0000\ud83d\ude00"}`)
	out := WellFormed(in)
	require.Same(t, &in[0], &out[0])
}
