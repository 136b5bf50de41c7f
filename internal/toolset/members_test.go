package toolset

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// membersCases are answers members must split exactly as encoding/json's tokenizer does, or
// refuse with the same error.
var membersCases = []string{
	`{}`,
	` { } `,
	`{"output":{"i":3}}`,
	" {\t\"output\" :\n[1, {\"c\": \"}]\\\"\"}] , \"handle\": \"h\" ,\"n\":-1.5e3,\"t\":true,\"z\":null} \n",
	`{"output":"a\"b\\","error":{"message":"x"}}`,
	`{"\u006futput":1}`,
	`{"é":1,"e":2}`,
	"{\"k\xff\":1}",
	`{"a":1,"a":2}`,
	`{"a":1,"\u0061":2}`,
	`{"a":{"a":1},"b":[]}`,
	`[1]`,
	`"output"`,
	`null`,
	`{"a":1} x`,
	`{"a":1`,
	`{"a" 1}`,
	``,
}

// TestMembersAsTheTokenizer holds members to decodeMembers (encoding/json's tokenizer): the same
// members, values and errors.
func TestMembersAsTheTokenizer(t *testing.T) {
	for _, c := range membersCases {
		want, wantErr := decodeMembers([]byte(c))
		got, err := members([]byte(c))
		if wantErr != nil {
			require.EqualError(t, err, wantErr.Error(), "%q", c)
			continue
		}
		require.NoError(t, err, "%q", c)
		require.Equal(t, want, got, "%q", c)
	}
}

func FuzzMembers(f *testing.F) {
	for _, c := range membersCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := decodeMembers(data)
		got, err := members(data)
		if wantErr != nil {
			if err == nil || err.Error() != wantErr.Error() {
				t.Fatalf("%q: error %v, want %v", data, err, wantErr)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		require.Equal(t, want, got, "%q", data)
	})
}
