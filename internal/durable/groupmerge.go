package durable

import (
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"
)

// A group of journal writes (journalGroup) mostly holds records of calls that settled before
// their start was written, each one statement (EventsInsertLockingCallSettled) that locks its
// run under its lease's fence and writes the call's row and events. Sent as they come, each
// costs PostgreSQL a statement of its own: its bind, executor start-up and end, and an
// insertion into each table. The group merges those of distinct runs into one statement
// (EventsInsertLockingCallsSettled), which writes the same rows: with four runs' records in a
// group, a pgbench of the two forms put PostgreSQL's CPU at 92–137 µs a record sent as four
// statements and 66–77 µs merged.

// settledCallStatement returns EventsInsertLockingCallSettled and its arguments: lock, the
// arguments EventsInsertLocking takes (run, types, datas, fence, lease extension, commit mode;
// see Lease.oneShotWith), then the call's. It is the lock of Lease.CallSettled for a call
// whose row is not written yet.
func settledCallStatement(lock []any, callID int, key, toolset, path string, args json.RawMessage,
	durable bool, startedAt time.Time, status string, outcome []byte) (string, []any) {
	return q("EventsInsertLockingCallSettled"), append(lock, callID, key, toolset, path, args, durable, startedAt, status, outcome)
}

// settledCallOf returns the record a queued statement of settledCallStatement writes, and
// false for any other statement.
func settledCallOf(qq *pgx.QueuedQuery) (rec SettledCall, ok bool) {
	if qq.SQL != q("EventsInsertLockingCallSettled") || len(qq.Arguments) != 15 {
		return rec, false
	}
	a := qq.Arguments
	var (
		oks [15]bool
		ttl string
	)
	rec.RunID, oks[0] = a[0].(string)
	rec.EventTypes, oks[1] = a[1].([]string)
	rec.EventData, oks[2] = a[2].([]string)
	rec.Fence, oks[3] = a[3].(int64)
	ttl, oks[4] = a[4].(string)
	rec.CommitMode, oks[5] = a[5].(*string)
	rec.CallID, oks[6] = a[6].(int)
	rec.Key, oks[7] = a[7].(string)
	rec.Toolset, oks[8] = a[8].(string)
	rec.Path, oks[9] = a[9].(string)
	rec.Args, oks[10] = a[10].(json.RawMessage)
	rec.Durable, oks[11] = a[11].(bool)
	rec.StartedAt, oks[12] = a[12].(time.Time)
	rec.Status, oks[13] = a[13].(string)
	rec.Outcome, oks[14] = a[14].([]byte)
	for _, ok := range oks {
		if !ok {
			return SettledCall{}, false
		}
	}
	var err error
	if rec.LeaseTTL, err = time.ParseDuration(ttl); err != nil {
		return SettledCall{}, false
	}
	return rec, len(rec.EventTypes) == len(rec.EventData)
}

// mergeable reports whether rec can go in one statement with the records of merged: another
// run's, with the same lease extension and commit mode (the statement takes one of each),
// within maxMergedRecords.
func (rec *SettledCall) mergeable(merged []SettledCall) bool {
	if len(merged) == 0 {
		return true
	}
	if len(merged) == maxMergedRecords {
		return false
	}
	first := merged[0]
	if rec.LeaseTTL != first.LeaseTTL || (rec.CommitMode == nil) != (first.CommitMode == nil) ||
		(rec.CommitMode != nil && *rec.CommitMode != *first.CommitMode) {
		return false
	}
	for _, m := range merged {
		if m.RunID == rec.RunID {
			return false
		}
	}
	return true
}

// maxMergedRecords bounds the records merged into one statement; those of a bigger group
// beyond it go as statements of their own, in the same batch.
const maxMergedRecords = 64

// queueMerged queues EventsInsertLockingCallsSettled for recs, after PlanJoinsByIndex (which
// returns a row to skip), writing every record of recs; its rows are the 1-based numbers, in
// recs, of the records whose lease was found. It must be the last statements of the batch:
// the planner settings last until the end of its transaction.
func queueMerged(b *pgx.Batch, recs []SettledCall) {
	n := len(recs)
	var (
		runIDs, keys, toolsets, paths = make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		args, statuses, outcomes      = make([]string, n), make([]string, n), make([]string, n)
		fences                        = make([]int64, n)
		eventCounts, callIDs, firsts  = make([]int32, n), make([]int32, n), make([]int32, n)
		durables                      = make([]bool, n)
		startedAts                    = make([]time.Time, n)
		eventTypes, eventDatas        []string
	)
	for i, r := range recs {
		runIDs[i], fences[i], eventCounts[i], callIDs[i] = r.RunID, r.Fence, int32(len(r.EventTypes)), int32(r.CallID)
		keys[i], toolsets[i], paths[i], args[i] = r.Key, r.Toolset, r.Path, string(r.Args)
		durables[i], startedAts[i], statuses[i], outcomes[i] = r.Durable, r.StartedAt, r.Status, string(r.Outcome)
		firsts[i] = int32(len(eventTypes) + 1) // PostgreSQL's arrays count from 1
		eventTypes = append(eventTypes, r.EventTypes...)
		eventDatas = append(eventDatas, r.EventData...)
	}
	b.Queue(q("PlanJoinsByIndex"))
	b.Queue(q("EventsInsertLockingCallsSettled"), runIDs, fences, eventCounts, callIDs, keys, toolsets, paths,
		args, durables, startedAts, statuses, outcomes, firsts, eventTypes, eventDatas,
		recs[0].LeaseTTL.String(), recs[0].CommitMode)
}

// SettledCall is a lease's record of a call that settled before its start was written: the
// arguments of EventsInsertLockingCallSettled (see settledCallStatement), as QueueSettledCall
// takes them and a journal group reads them back to merge (settledCallOf).
type SettledCall struct {
	RunID      string
	Fence      int64
	LeaseTTL   time.Duration
	CommitMode *string // "off", or nil to wait for the disk
	// EventTypes and EventData are the events appended, in order: the call's started and
	// settled events (data as JSON texts).
	EventTypes, EventData []string
	CallID                int
	Key, Toolset, Path    string
	Args                  json.RawMessage
	Durable               bool
	StartedAt             time.Time
	Status                string // CallSucceeded or CallFailed
	Outcome               []byte
}

// QueueSettledCall queues on b the statement with which a worker's lease records c, the one a
// JournalGroup merges with the records of other runs sent meanwhile. It writes to the runs,
// run_events and calls tables of the connection's search_path (cmd/loadgen's calls ceiling
// points it at scratch copies).
func QueueSettledCall(b *pgx.Batch, c SettledCall) {
	sql, args := settledCallStatement([]any{c.RunID, c.EventTypes, c.EventData, c.Fence, c.LeaseTTL.String(), c.CommitMode},
		c.CallID, c.Key, c.Toolset, c.Path, c.Args, c.Durable, c.StartedAt, c.Status, c.Outcome)
	b.Queue(sql, args...)
}
