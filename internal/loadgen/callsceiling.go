package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/codemode/codemode/internal/durable"
)

// CallsCeilingScenario names, in results, the least a run of 10 sequential tool calls costs.
const CallsCeilingScenario = "calls10-ceiling"

// callsCeilingSchema holds the scratch copies of the service's tables that CallsCeiling works
// on; it is created and dropped by CallsCeiling, so the service's own tables are never touched.
const callsCeilingSchema = "loadgen_calls_ceiling"

// callsPerRun is how many sequential calls a run of calls10, and of the calls ceiling, makes.
const callsPerRun = 10

// The statements of the calls ceiling: what the service writes for a run of calls at least,
// each in the shape the service sends it (runs, run_events and calls of the scratch schema).
var (
	// callsCeilingCreate inserts a run already leased, with its created and started events,
	// as a run the API hands straight to a free worker; it waits for the disk, as the 201 of
	// a run does.
	callsCeilingCreate = fmt.Sprintf(`WITH r AS (
    INSERT INTO %[1]s.runs (status, code, toolsets, lease_owner, lease_expires_at, fence, event_seq)
    VALUES ('running', $1, ARRAY['loadgen'], 1, now() + interval '1 minute', 1, 2)
    RETURNING id
)
INSERT INTO %[1]s.run_events (run_id, seq, type, data)
SELECT r.id, e.seq, e.type, '{}' FROM r, (VALUES (1, 'created'), (2, 'started')) AS e(seq, type)
RETURNING run_id`, callsCeilingSchema)

	// callsCeilingFinish stores the result and the finished event, and waits for the disk.
	callsCeilingFinish = fmt.Sprintf(`WITH s AS (
    UPDATE %[1]s.runs SET status = 'succeeded', result = $2, finished_at = now(), updated_at = now(),
        event_seq = event_seq + 1, lease_owner = NULL, lease_expires_at = NULL
    WHERE id = $1 AND fence = 1 AND status = 'running'
    RETURNING event_seq
)
INSERT INTO %[1]s.run_events (run_id, seq, type, data) SELECT $1, s.event_seq, 'finished', $2 FROM s
RETURNING seq`, callsCeilingSchema)
)

// CallsCeiling measures the most runs of 10 sequential tool calls per second that the machine
// allows under the service's promise that a completed call is never repeated: the outcome of
// each call is stored before the program can use it, so each call costs at least one exchange
// with the toolset and then one durable write, one after the other. It drives concurrency runs
// at once for duration (after warmup) with nothing else: no API, no queue, no interpreter.
// Each run is created leased, makes its calls over HTTP to the generator's toolset (the tool
// protocol's request, as the service sends it), records each settled call as the worker's
// journal does (with the worker's own group commit, which sends the records that arrive while
// a batch is on its way as the next batch; committed without waiting for the disk unless
// syncJournal), and finishes. The statements run on scratch copies of the service's runs,
// run_events and calls (columns, constraints and indexes), dropped afterwards, and every run is
// checked to have left its 10 calls and 23 events (rows of run_events, or kept in its calls'
// rows as the service's records keep them). The service's calls10 runs are compared with
// it.
func CallsCeiling(ctx context.Context, dbURL string, concurrency int, duration, warmup time.Duration, syncJournal bool) (Result, error) {
	res := Result{Scenario: CallsCeilingScenario, Concurrency: concurrency,
		Measures: "10 x (toolset HTTP exchange, then its grouped journal write) between create and finish, no service"}
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return res, fmt.Errorf("loadgen: calls ceiling: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	drop, err := scratchSchema(ctx, conn, callsCeilingSchema, "runs", "run_events", "calls")
	if err != nil {
		return res, fmt.Errorf("loadgen: calls ceiling: %w", err)
	}
	defer drop()
	s := callsCeilingSchema

	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return res, fmt.Errorf("loadgen: calls ceiling: %w", err)
	}
	cfg.MaxConns = int32(concurrency + 1)
	// The journal's records (durable.QueueSettledCall) name the service's tables unqualified:
	// they find the scratch copies first.
	cfg.ConnConfig.RuntimeParams["search_path"] = callsCeilingSchema
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return res, fmt.Errorf("loadgen: calls ceiling: %w", err)
	}
	defer pool.Close()
	toolsetURL, stop, err := serveToolset("127.0.0.1:0")
	if err != nil {
		return res, err
	}
	defer stop()
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = concurrency * 2
	r := &ceilingRunner{pool: pool, toolsetURL: toolsetURL, http: &http.Client{Transport: transport, Timeout: time.Minute},
		journal: durable.NewJournalGroup(pool)}
	if !syncJournal {
		off := "off"
		r.commitMode = &off
	}

	meter := newCPUMeter(ctx, conn)
	cpuBefore := meter.sample()
	w := measure(ctx, concurrency, duration, warmup, r.run)
	if err := ctx.Err(); err != nil {
		return res, err
	}
	cpuAfter := meter.sample()
	w.report(&res, duration, perRun(cpuBefore, cpuAfter, w.driven, false))
	res.Machine = machineLoad(cpuBefore, cpuAfter)
	if n := r.exchanges.Load(); n > 0 {
		res.CallTime = time.Duration(r.exchangeTime.Load() / n)
	}

	// Every run that finished left what the service's would: its calls and all its events.
	var finished, wrong int
	if err := conn.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE
    (SELECT count(*) FROM `+s+`.calls c WHERE c.run_id = r.id AND c.status = 'succeeded') <> $1
    OR (SELECT count(*) FROM `+s+`.run_events e WHERE e.run_id = r.id)
       + (SELECT coalesce(sum(cardinality(c.event_types)), 0) FROM `+s+`.calls c WHERE c.run_id = r.id) <> $1 * 2 + 3
    OR r.event_seq <> $1 * 2 + 3)
FROM `+s+`.runs r WHERE r.status = 'succeeded'`, callsPerRun).Scan(&finished, &wrong); err != nil {
		return res, fmt.Errorf("loadgen: calls ceiling: check the runs: %w", err)
	}
	if finished < res.Runs || wrong > 0 {
		return res, fmt.Errorf("loadgen: calls ceiling: %d runs finished (%d measured), %d of them without their %d calls and events",
			finished, res.Runs, wrong, callsPerRun)
	}
	return res, nil
}

// ceilingRunner drives the runs of the calls ceiling.
type ceilingRunner struct {
	pool       *pgxpool.Pool
	toolsetURL string
	http       *http.Client
	journal    *durable.JournalGroup // the worker's group commit
	commitMode *string               // the journal's synchronous_commit: off, or nil for the server's
	// exchanges counts the runs' exchanges with the toolset (warm-up included, as the
	// service's own timing of its calls does), exchangeTime sums their durations in ns: from
	// the request's start to its answer read.
	exchanges, exchangeTime atomic.Int64
}

// run drives one run from its creation to its end and returns its latency.
func (r *ceilingRunner) run(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	var runID string
	if err := r.pool.QueryRow(ctx, callsCeilingCreate, "calls ceiling").Scan(&runID); err != nil {
		return 0, fmt.Errorf("create: %w", err)
	}
	sum := 0
	for callID := 1; callID <= callsPerRun; callID++ {
		key := fmt.Sprintf("%s:%d", runID, callID)
		input := fmt.Sprintf(`{"i":%d}`, callID)
		callStart := time.Now()
		answer, err := r.call(ctx, runID, key, input)
		if err != nil {
			return 0, fmt.Errorf("call %s: %w", key, err)
		}
		r.exchanges.Add(1)
		r.exchangeTime.Add(int64(time.Since(callStart)))
		var answered struct {
			Output struct {
				I int `json:"i"`
			} `json:"output"`
		}
		if err := json.Unmarshal(answer, &answered); err != nil || answered.Output.I != callID {
			return 0, fmt.Errorf("call %s: unexpected answer %s", key, answer)
		}
		sum += answered.Output.I
		outcome := fmt.Sprintf(`{"ok":true,"value":{"i":%d}}`, callID)
		started := fmt.Sprintf(`{"callId":%d,"path":"loadgen.echo","args":%s}`, callID, input)
		settled := fmt.Sprintf(`{"callId":%d,"outcome":%s}`, callID, outcome)
		record := &pgx.Batch{}
		durable.QueueSettledCall(record, durable.SettledCall{RunID: runID, Fence: 1, LeaseTTL: time.Minute, CommitMode: r.commitMode,
			EventTypes: []string{"call.started", "call.settled"}, EventData: []string{started, settled},
			CallID: callID, Key: key, Toolset: "loadgen", Path: "echo", Args: json.RawMessage(input), StartedAt: callStart,
			Status: durable.CallSucceeded, Outcome: []byte(outcome)})
		switch found, err := r.journal.Send(ctx, record); {
		case err != nil:
			return 0, fmt.Errorf("record call %s: %w", key, err)
		case !found:
			return 0, fmt.Errorf("record call %s: the run's lease was lost", key)
		}
	}
	var seq int
	if err := r.pool.QueryRow(ctx, callsCeilingFinish, runID, fmt.Sprintf(`{"value":%d}`, sum)).Scan(&seq); err != nil {
		return 0, fmt.Errorf("finish: %w", err)
	}
	return time.Since(start), nil
}

// call makes one call of the generator's echo tool as the service makes it (tool protocol:
// POST with the key in the body and in Idempotency-Key) and returns the toolset's answer.
func (r *ceilingRunner) call(ctx context.Context, runID, key, input string) ([]byte, error) {
	body, err := json.Marshal(struct {
		Tool  string          `json:"tool"`
		Input json.RawMessage `json:"input"`
		Key   string          `json:"key"`
		RunID string          `json:"runId"`
	}{"echo", json.RawMessage(input), key, runID})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.toolsetURL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	resp, err := r.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, answer)
	}
	return answer, nil
}
