package run_test

// The TypeScript corpus: every program in testdata/tscorpus is TypeScript;
// Runtime.Execute runs its text as written (the front end blanks the types)
// and its Result must agree with what node gave for the TypeScript
// compiler's JavaScript output (scripts/tscorpus/regen.sh, which pins the
// compiler). Compared as in TestCorpus.

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolset"
	"github.com/codemode/codemode/internal/toolset/runtools"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

// tsCorpusMinPrograms is the least the TypeScript corpus holds.
const tsCorpusMinPrograms = 30

func TestTypeScriptCorpus(t *testing.T) {
	t.Parallel()
	srv := toolsettest.New(t, toolsettest.Options{})
	tools, namespaces, err := runtools.Load(context.Background(), toolset.Config{URL: srv.URL})
	require.NoError(t, err)
	rt, err := run.New(run.Options{Tools: tools, Namespaces: namespaces, Limits: corpusLimits})
	require.NoError(t, err)

	cases := loadCorpusFrom(t, "testdata/tscorpus", ".ts")
	require.GreaterOrEqual(t, len(cases), tsCorpusMinPrograms)
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), corpusRunTimeout)
			defer cancel()
			exec, err := rt.Execute(ctx, tt.source, run.ExecOptions{RunID: "ts_" + tt.name})
			require.NoError(t, err)
			res, done := exec.Result()
			require.True(t, done, "state %s", exec.State())
			full, err := json.Marshal(res)
			require.NoError(t, err)
			require.Equal(t, tt.want, outcomeOf(t, res), "program:\n%s\nfull result: %s", tt.source, full)
		})
	}
}
