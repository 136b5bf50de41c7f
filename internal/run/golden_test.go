package run

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden/format<N>.json from the current build (only when adding a new format version)")

// goldenProgram suspends with closures, a generator mid-iteration, pending promises, a Map, a
// Set, a class instance with a private field, a Date and a RegExp alive on the heap.
const goldenProgram = `
class Account {
  #balance
  constructor(owner, balance) { this.owner = owner; this.#balance = balance }
  deposit(n) { this.#balance += n; return this.#balance }
  get balance() { return this.#balance }
}
function* ids() { let i = 100; while (true) yield i++ }
const gen = ids()
gen.next()
const counter = (() => { let n = 0; return () => ++n })()
counter()
const acct = new Account("ada", 10)
const seen = new Map([["a", 1], ["b", [2, 3]]])
const tags = new Set(["x", "y"])
const when = new Date(Date.UTC(2024, 0, 2, 3, 4, 5))
const re = /(\d+)-(?<word>\w+)/g
const first = await tools.math.add({a: 1, b: 2})
const later = Promise.resolve("later")
const [x, y] = await Promise.all([
  tools.approvals.request({what: "x"}),
  tools.approvals.request({what: "y"}),
])
acct.deposit(first.sum)
const m = re.exec("12-ab 34-cd")
return {
  x, y, n: counter(), next: gen.next().value, balance: acct.balance, owner: acct.owner,
  seen: [...seen], tags: [...tags], when: when.toISOString(), group: m.groups.word,
  later: await later, lastIndex: re.lastIndex,
}`

// goldenResult is what goldenProgram returns after both approvals arrive.
const goldenResult = `{"x":"yes-x","y":"yes-y","n":2,"next":101,"balance":13,"owner":"ada",
  "seen":[["a",1],["b",[2,3]]],"tags":["x","y"],"when":"2024-01-02T03:04:05.000Z","group":"ab",
  "later":"later","lastIndex":5}`

// TestGoldenSnapshotsResume resumes a suspended run saved by each format version this build
// must read (testdata/golden/format<N>.json) and checks the program finishes correctly.
func TestGoldenSnapshotsResume(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "golden", fmt.Sprintf("format%d.json", StateFormat))
	if *updateGolden {
		b, _ := setup(t, Limits{}, Hooks{})
		e := execute(t, b, goldenProgram)
		require.Equal(t, StateSuspended, e.State())
		s, err := e.Suspend()
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, stateFileOf(t, s.State), 0o644))
	}
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "format*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no golden snapshots: run go test -run TestGoldenSnapshotsResume -update-golden once per format version")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			state := parseStateFile(t, data)
			if codegenShifted && !bytes.Contains(state.VM, []byte(`"compiled":`)) {
				t.Skip("the state carries no compiled code, and this build's code generator differs")
			}
			pending, err := PendingOf(state)
			require.NoError(t, err)
			require.Len(t, pending, 2)
			b, _ := setup(t, Limits{}, Hooks{})
			var outcomes []OutcomeFor
			for _, p := range pending {
				var in struct{ What string }
				require.NoError(t, json.Unmarshal(p.Args, &in))
				outcomes = append(outcomes, OutcomeFor{Key: p.Key, Outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`"yes-` + in.What + `"`)}})
			}
			e, err := b.rt.Resume(context.Background(), state, outcomes, ExecOptions{})
			require.NoError(t, err)
			res := resultOf(t, e)
			require.True(t, res.OK, "%+v", res.Error)
			require.JSONEq(t, goldenResult, string(res.Value))
		})
	}
}
