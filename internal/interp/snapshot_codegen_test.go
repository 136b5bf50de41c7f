package interp

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/interp/compiler"
)

var updateCodegen = flag.Bool("update-codegen", false,
	"write testdata/codegen/<generator>.json: snapshots written by this build's code generator (with and without -tags codegen_shift)")

// codegenName names this build's code generator.
func codegenName(shift bool) string {
	if shift {
		return "shift"
	}
	return "normal"
}

// codegenPrograms wait on later() (answered with 1) in a generator, a closure, an async
// function, a class method, a loop and a try/finally.
var codegenPrograms = []struct{ src, want string }{
	{src: upgradeProgram, want: "42,x1,1"},
	{src: `
let out = ""
for (let i = 0; i < 3; i++) {
  try { if (i === 1) out += await later() } finally { out += i }
}
class C { static async m(x) { return x + await later() } }
out + "/" + await C.m(10)`, want: "0112/11"},
}

// TestSnapshotsOfOtherCodeGenerator resumes snapshots written by the other code generator (the
// normal build reads those of -tags codegen_shift, and the other way round): the programs
// compile to other code here, and the runs finish correctly on the code they carry.
func TestSnapshotsOfOtherCodeGenerator(t *testing.T) {
	type written struct {
		Source   string          `json:"source"`
		Snapshot json.RawMessage `json:"snapshot"`
		Want     string          `json:"want"`
	}
	if *updateCodegen {
		var out []written
		for _, p := range codegenPrograms {
			data, _ := waitingSnapshot(t, p.src)
			out = append(out, written{Source: p.src, Snapshot: data, Want: p.want})
		}
		b, err := json.Marshal(out)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Join("testdata", "codegen"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join("testdata", "codegen", codegenName(compiler.CodegenShift)+".json"), append(b, '\n'), 0o644))
	}
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("testdata", "codegen", codegenName(!compiler.CodegenShift)+".json"))
	require.NoError(t, err)
	var runs []written
	require.NoError(t, json.Unmarshal(b, &runs))
	require.NotEmpty(t, runs)
	for _, w := range runs {
		p, err := Compile(w.Source)
		require.NoError(t, err)
		require.NotContains(t, string(w.Snapshot), `"code":"`+p.CodeFingerprint()+`"`, "the other generator made the same code")
		h := &testHost{}
		vm, err := Restore(w.Snapshot, Config{Host: h})
		require.NoError(t, err)
		require.NotEqual(t, p.CodeFingerprint(), vm.exec.program.CodeFingerprint())
		for ids := vm.pendingHostPromises(); len(ids) > 0; ids = vm.pendingHostPromises() {
			require.NoError(t, vm.SettleHostPromise(ids[0], true, Number(1)))
			_, err := vm.Run(context.Background(), RunOptions{})
			require.NoError(t, err)
		}
		v, thrown := vm.Result()
		require.False(t, thrown)
		require.Equal(t, w.Want, vm.ToGoString(v))
	}
}
