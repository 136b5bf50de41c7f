package run

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/interp"
	"github.com/codemode/codemode/internal/toolcall"
)

// approvalProgram asks for two approvals concurrently, then one more, and reports everything.
const approvalProgram = `
const counter = (() => { let n = 0; return () => ++n })()
counter()
const sum = await tools.math.add({a: 20, b: 1})
function* steps() { yield "a"; yield "b" }
const it = steps(); it.next()
const m = new Map([["k", sum.sum]])
const [x, y] = await Promise.all([
  tools.approvals.request({what: "x"}),
  tools.approvals.request({what: "y"}),
])
let third
try { third = await tools.approvals.request({what: "z"}) } catch (e) { third = "denied: " + e.message }
return {x, y, third, n: counter(), next: it.next().value, m: m.get("k")}`

func TestSuspendResumeWithPartialOutcomes(t *testing.T) {
	t.Parallel()
	b, appr := setup(t, Limits{}, Hooks{})
	e := execute(t, b, approvalProgram)
	require.Equal(t, StateSuspended, e.State())
	s1, err := e.Suspend()
	require.NoError(t, err)
	require.Len(t, s1.Pending, 2)
	require.Equal(t, "r1:2", s1.Pending[0].Key)
	require.Equal(t, "approvals.request", s1.Pending[0].Path)
	require.JSONEq(t, `{"what":"x"}`, string(s1.Pending[0].Args))
	require.JSONEq(t, `{"ticket":"r1:2"}`, string(s1.Pending[0].Handle))

	// A fresh runtime (another process) resumes with one of the two outcomes: still suspended.
	b2, _ := setup(t, Limits{}, Hooks{})
	e2, err := b2.rt.Resume(context.Background(), s1.State, []OutcomeFor{
		{Key: "r1:3", Outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`"yes-y"`)}},
	}, ExecOptions{})
	require.NoError(t, err)
	require.Equal(t, StateSuspended, e2.State())
	s2, err := e2.Suspend()
	require.NoError(t, err)
	require.Len(t, s2.Pending, 1)
	require.Equal(t, "r1:2", s2.Pending[0].Key)

	// The second outcome lets the program reach the third approval: a second suspension.
	e3, err := b2.rt.Resume(context.Background(), s2.State, []OutcomeFor{
		{Key: "r1:2", Outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`"yes-x"`)}},
	}, ExecOptions{})
	require.NoError(t, err)
	require.Equal(t, StateSuspended, e3.State())
	s3, err := e3.Suspend()
	require.NoError(t, err)
	require.Len(t, s3.Pending, 1)
	require.Equal(t, "r1:4", s3.Pending[0].Key)

	e4, err := b2.rt.Resume(context.Background(), s3.State, []OutcomeFor{
		{Key: "r1:4", Outcome: toolcall.Outcome{OK: false, Error: &toolcall.OutcomeError{Message: "no way"}}},
	}, ExecOptions{})
	require.NoError(t, err)
	res := resultOf(t, e4)
	require.True(t, res.OK, "%+v", res.Error)
	require.JSONEq(t, `{"x":"yes-x","y":"yes-y","third":"denied: no way","n":2,"next":"b","m":21}`, string(res.Value))
	require.Len(t, res.ToolCalls, 4)
	for i, c := range res.ToolCalls {
		require.EqualValues(t, i+1, c.CallID)
	}
	require.Equal(t, CallFailed, res.ToolCalls[3].Status)
	require.Empty(t, appr.cancelled)
}

// TestResumeOneDocumentLayouts resumes states of the one-document form (format 1, written
// before the state came in two parts: the header's members and the interpreter's state as
// member "vm"), with the members in any order: each resumes as the two-part state does, or
// fails with a SnapshotError.
func TestResumeOneDocumentLayouts(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	e := execute(t, b, approvalProgram)
	s, err := e.Suspend()
	require.NoError(t, err)
	require.NotEmpty(t, s.State.Header)
	vm := vmFormat1(t, s.State.VM) // the one-document form embeds the JSON snapshot
	var members map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(s.State.Header, &members))
	require.Equal(t, "2", string(members["format"]))
	require.NotContains(t, members, "vm", "the header holds no interpreter state")
	members["format"] = json.RawMessage("1")
	others := func(sep string) string {
		var parts []string
		for _, k := range []string{"runId", "limits", "calls", "format", "nextCallId", "activeMs"} {
			parts = append(parts, fmt.Sprintf("%q:%s", k, members[k]))
		}
		return strings.Join(parts, sep)
	}
	doc := `{` + others(",") + `,"vm":` + string(vm) + `}`
	tests := []struct {
		name  string
		state SavedState
		fails bool
	}{
		{name: "two parts", state: s.State},
		{name: "one document", state: SavedState{VM: []byte(doc)}},
		{name: "vm first", state: SavedState{VM: []byte(`{"vm":` + string(vm) + `,` + others(",") + `}`)}},
		{name: "vm before the calls", state: SavedState{VM: []byte(fmt.Sprintf(`{"format":1,"runId":"r1","limits":%s,"vm":%s,"calls":%s,"nextCallId":%s,"activeMs":%s}`,
			members["limits"], vm, members["calls"], members["nextCallId"], members["activeMs"]))}},
		{name: "spaces", state: SavedState{VM: []byte("{ " + others(" , ") + " , \"vm\" : " + string(vm) + " }\n")}},
		{name: "text after the document", state: SavedState{VM: []byte(doc + `x`)}, fails: true},
		{name: "vm cut short", state: SavedState{VM: []byte(`{` + others(",") + `,"vm":` + string(vm[:len(vm)-1]) + `}`)}, fails: true},
		{name: "format 2 as one document", state: SavedState{VM: []byte(strings.Replace(doc, `"format":1`, `"format":2`, 1))}, fails: true},
		{name: "format 1 header in two parts", state: SavedState{Header: []byte(`{` + others(",") + `}`), VM: vm}, fails: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e2, err := b.rt.Resume(context.Background(), tt.state, []OutcomeFor{
				{Key: "r1:2", Outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`"yes-x"`)}},
				{Key: "r1:3", Outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`"yes-y"`)}},
			}, ExecOptions{})
			if tt.fails {
				var se *SnapshotError
				require.ErrorAs(t, err, &se)
				return
			}
			require.NoError(t, err)
			require.Equal(t, StateSuspended, e2.State())
			s2, err := e2.Suspend()
			require.NoError(t, err)
			require.Len(t, s2.Pending, 1)
			require.Equal(t, "r1:4", s2.Pending[0].Key)
		})
	}
}

func TestResumeRejectsBadInput(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	e := execute(t, b, approvalProgram)
	s, err := e.Suspend()
	require.NoError(t, err)
	tests := []struct {
		name     string
		state    SavedState
		outcomes []OutcomeFor
	}{
		{name: "not pending", state: s.State, outcomes: []OutcomeFor{{Key: "r1:1", Outcome: toolcall.Outcome{OK: true}}}},
		{name: "unknown key", state: s.State, outcomes: []OutcomeFor{{Key: "nope", Outcome: toolcall.Outcome{OK: true}}}},
		{name: "malformed outcome", state: s.State, outcomes: []OutcomeFor{{Key: "r1:2", Outcome: toolcall.Outcome{OK: false}}}},
		{name: "not json", state: SavedState{VM: []byte("{{")}},
		{name: "header not json", state: SavedState{Header: []byte("{{"), VM: s.State.VM}},
		{name: "unknown format", state: SavedState{VM: []byte(`{"format": 99}`)}},
		{name: "unknown header format", state: SavedState{Header: []byte(`{"format": 99}`), VM: s.State.VM}},
		{name: "missing vm", state: SavedState{VM: []byte(`{"format": 1, "runId": "r1"}`)}},
		{name: "header without vm", state: SavedState{Header: s.State.Header}},
		{name: "garbage vm", state: SavedState{VM: []byte(`{"format": 1, "runId": "r1", "vm": {"format": 1, "heap": 7}}`)}},
		{name: "garbage vm in two parts", state: SavedState{Header: s.State.Header, VM: []byte(`{"format": 1, "heap": 7}`)}},
		{name: "program compiled to other code", state: SavedState{Header: s.State.Header, VM: changedCode(t, s.State.VM)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := b.rt.Resume(context.Background(), tt.state, tt.outcomes, ExecOptions{})
			var se *SnapshotError
			require.ErrorAs(t, err, &se)
		})
	}
}

func TestSuspendRefusedWhenDoneOrTooLarge(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	done := execute(t, b, "1")
	_, err := done.Suspend()
	require.ErrorIs(t, err, ErrNotSuspendable)

	small, _ := setup(t, Limits{MaxSnapshotBytes: 100}, Hooks{})
	e := execute(t, small, "const big = 'x'.repeat(10000); await tools.approvals.request({}); big.length")
	require.Equal(t, StateSuspended, e.State())
	_, err = e.Suspend()
	require.ErrorIs(t, err, ErrSnapshotTooLarge)
}

func TestCancelPendingWhenProgramReturns(t *testing.T) {
	t.Parallel()
	b, appr := setup(t, Limits{}, Hooks{})
	res := resultOf(t, execute(t, b, "tools.approvals.request({}); await tools.math.add({a: 1, b: 1}); 'done'"))
	require.True(t, res.OK, "%+v", res.Error)
	require.Equal(t, []string{"r1:1"}, appr.cancelled)
	require.Equal(t, CallCancelled, res.ToolCalls[0].Status)
}

func TestTimeoutCountsAcrossResumes(t *testing.T) {
	t.Parallel()
	// Each drive alone stays inside the limit, with room for a loaded machine; the two together
	// do not.
	b, _ := setup(t, Limits{TimeoutMs: 2000}, Hooks{})
	e := execute(t, b, "await tools.util.sleep({ms: 1200}); await tools.approvals.request({}); await tools.util.sleep({ms: 1200}); 1")
	require.Equal(t, StateSuspended, e.State())
	s, err := e.Suspend()
	require.NoError(t, err)
	e2, err := b.rt.Resume(context.Background(), s.State, []OutcomeFor{{Key: s.Pending[0].Key, Outcome: toolcall.Outcome{OK: true}}}, ExecOptions{})
	require.NoError(t, err)
	res := resultOf(t, e2)
	require.False(t, res.OK)
	require.Equal(t, KindTimeoutExceeded, res.Error.Kind)
}

// changedCode returns state with another compiled-code fingerprint, as a snapshot written by a
// version that compiled the program differently would have.
func changedCode(t *testing.T, state []byte) []byte {
	t.Helper()
	if interp.SnapshotFormatOf(state) == 2 {
		// the fingerprint is an entry of the string table, its 32 hex digits as they are
		re := regexp.MustCompile(`[0-9a-f]{32}`)
		require.Len(t, re.FindAll(state, -1), 1)
		return re.ReplaceAll(state, []byte(`0123456789abcdef0123456789abcdef`))
	}
	re := regexp.MustCompile(`"code":"[0-9a-f]{32}"`)
	require.Len(t, re.FindAll(state, -1), 1)
	return re.ReplaceAll(state, []byte(`"code":"0123456789abcdef0123456789abcdef"`))
}

// vmFormat1 returns an interpreter snapshot in format 1 (JSON), restoring and writing it again.
func vmFormat1(t *testing.T, vm []byte) []byte {
	t.Helper()
	if interp.SnapshotFormatOf(vm) == 1 {
		return vm
	}
	restored, err := interp.Restore(vm, interp.Config{})
	require.NoError(t, err)
	out, err := restored.SnapshotFormat1()
	require.NoError(t, err)
	return out
}
