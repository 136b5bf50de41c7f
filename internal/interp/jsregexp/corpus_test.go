package jsregexp

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/stretchr/testify/require"
)

// jsString is a JSON string decoded to UTF-16 code units, keeping lone surrogates that
// encoding/json would replace with U+FFFD.
type jsString []uint16

// UnmarshalJSON decodes a JSON string literal escape by escape.
func (s *jsString) UnmarshalJSON(data []byte) error {
	lit := string(data)
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return fmt.Errorf("not a JSON string: %s", lit)
	}
	lit = lit[1 : len(lit)-1]
	var out []uint16
	for i := 0; i < len(lit); {
		if lit[i] != '\\' {
			r, size := rune(lit[i]), 1
			if r >= 0x80 {
				rs := []rune(lit[i:min(len(lit), i+4)])
				r = rs[0]
				size = len(string(r))
			}
			out = utf16.AppendRune(out, r)
			i += size
			continue
		}
		switch lit[i+1] {
		case 'u':
			v, err := strconv.ParseUint(lit[i+2:i+6], 16, 16)
			if err != nil {
				return err
			}
			out = append(out, uint16(v))
			i += 6
			continue
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		default:
			out = append(out, uint16(lit[i+1]))
		}
		i += 2
	}
	*s = out
	return nil
}

// corpusCase is one node 20 result from testdata/corpus.json.
type corpusCase struct {
	Pattern   jsString `json:"p"`
	Flags     string   `json:"f"`
	Input     jsString `json:"in"`
	LastIndex int      `json:"li"`
	Match     *struct {
		Start  int      `json:"start"`
		End    int      `json:"end"`
		Groups [][2]int `json:"groups"`
	} `json:"match"`
	Names []string `json:"names"`
	Error string   `json:"error"`
}

func TestNodeCorpus(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/corpus.json")
	require.NoError(t, err)
	var cases []corpusCase
	require.NoError(t, json.Unmarshal(data, &cases))
	require.GreaterOrEqual(t, len(cases), 80)
	for _, tt := range cases {
		name := fmt.Sprintf("/%s/%s@%d", sourceString(tt.Pattern), tt.Flags, tt.LastIndex)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			flags, err := ParseFlags(tt.Flags)
			require.NoError(t, err)
			re, err := Compile(tt.Pattern, flags)
			if tt.Error != "" {
				require.Error(t, err)
				var se *SyntaxError
				require.ErrorAs(t, err, &se)
				require.Equal(t, tt.Error, se.Error())
				return
			}
			require.NoError(t, err)
			// Like RegExpBuiltinExec, node ignores lastIndex unless the g or y flag is set.
			lastIndex := tt.LastIndex
			if !flags.Global && !flags.Sticky {
				lastIndex = 0
			}
			m, err := re.Exec(tt.Input, lastIndex, time.Now().Add(10*time.Second))
			require.NoError(t, err)
			if tt.Match == nil {
				require.Nil(t, m, "want no match")
				return
			}
			require.NotNil(t, m, "want a match")
			require.Equal(t, tt.Match.Start, m.Start, "start")
			require.Equal(t, tt.Match.End, m.End, "end")
			groups := tt.Match.Groups
			if groups == nil {
				groups = [][2]int{}
			}
			require.Equal(t, groups, m.Groups, "groups")
			var named []string
			for _, n := range m.Names {
				if n != "" {
					named = append(named, n)
				}
			}
			if len(tt.Names) == 0 {
				require.Empty(t, named)
			} else {
				require.Equal(t, tt.Names, named)
			}
		})
	}
}
