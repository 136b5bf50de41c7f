package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseMetadata(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		source  string
		want    *metadata
		wantErr error
	}{
		{
			name: "includes flags features",
			source: `// Copyright
/*---
esid: sec-array.prototype.at
description: >
  Property type and descriptor.
includes: [propertyHelper.js, compareArray.js]
flags: [onlyStrict, async]
features: [Array.prototype.at, Symbol]
---*/
assert.sameValue(1, 1);`,
			want: &metadata{
				Includes: []string{"propertyHelper.js", "compareArray.js"},
				Flags:    []string{"onlyStrict", "async"},
				Features: []string{"Array.prototype.at", "Symbol"},
			},
		},
		{
			name: "negative parse",
			source: `/*---
description: x
negative:
  phase: parse
  type: SyntaxError
---*/
$DONOTEVALUATE();
var a = ;`,
			want: &metadata{Negative: &negative{Phase: "parse", Type: "SyntaxError"}},
		},
		{
			name:   "block lists",
			source: "/*---\nflags:\n  - raw\nincludes:\n  - a.js\n---*/",
			want:   &metadata{Flags: []string{"raw"}, Includes: []string{"a.js"}},
		},
		{
			name:    "no frontmatter",
			source:  "var x = 1;",
			wantErr: ErrNoFrontmatter,
		},
		{
			name:    "unterminated frontmatter",
			source:  "/*---\nflags: [raw]\n",
			wantErr: ErrNoFrontmatter,
		},
		{
			name:    "unknown negative phase",
			source:  "/*---\nnegative:\n  phase: early\n  type: SyntaxError\n---*/",
			wantErr: ErrBadNegativePhase,
		},
		{
			name:    "negative without type",
			source:  "/*---\nnegative:\n  phase: runtime\n---*/",
			wantErr: ErrBadNegativePhase,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseMetadata(tt.source)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestParseMetadataBadYAML(t *testing.T) {
	t.Parallel()
	_, err := parseMetadata("/*---\nflags: [raw\n---*/")
	require.Error(t, err)
	require.NotErrorIs(t, err, ErrNoFrontmatter)
}

func TestHasFlag(t *testing.T) {
	t.Parallel()
	md := &metadata{Flags: []string{"async", "onlyStrict"}}
	require.True(t, md.hasFlag(flagAsync))
	require.True(t, md.hasFlag(flagOnlyStrict))
	require.False(t, md.hasFlag(flagRaw))
}
