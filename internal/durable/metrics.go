package durable

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/codemode/codemode/internal/toolcall"
)

// Metrics are a worker's Prometheus collectors (WorkerConfig.Metrics). A nil *Metrics records
// nothing. One Metrics may serve several workers of a process; they add up.
type Metrics struct {
	runsStarted   prometheus.Counter
	drives        *prometheus.CounterVec
	driveDuration *prometheus.HistogramVec
	driving       prometheus.Gauge
	calls         prometheus.Counter
	callDuration  *prometheus.HistogramVec
	snapshotBytes *prometheus.HistogramVec
	queue         *queueCollector
}

// Drive outcomes, the outcome label of codemode_worker_drives_total.
const (
	driveSucceeded = "succeeded" // the run finished and succeeded
	driveFailed    = "failed"    // the run finished and failed
	driveSuspended = "suspended" // it waits on durable calls
	driveYielded   = "yielded"   // drained or out of time: it continues in a new job
	driveLost      = "lost"      // another driver or a cancel took the run
	driveError     = "error"     // the drive failed; the job is retried
)

// NewMetrics returns a worker's metrics, registered on reg:
//
//	codemode_worker_runs_started_total          runs whose first drive began
//	codemode_worker_drives_total{outcome}       drives ended: succeeded, failed, suspended,
//	                                            yielded, lost, error
//	codemode_worker_drive_duration_seconds{outcome}
//	codemode_worker_runs_driving                runs being driven now
//	codemode_worker_tool_calls_total            tool calls made (a re-drive's replayed ones
//	                                            not counted)
//	codemode_worker_tool_call_duration_seconds{outcome}  inline calls, start to settle: ok,
//	                                            error
//	codemode_worker_snapshot_bytes{kind}        snapshots written: checkpoint, suspend, yield
//	codemode_worker_queue_jobs{state}           run jobs waiting in River's queue: available,
//	                                            retryable, scheduled (sampled at most every 5s)
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		runsStarted: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "codemode_worker_runs_started_total",
			Help: "Runs whose first drive began on this worker.",
		}),
		drives: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "codemode_worker_drives_total",
			Help: "Drives of runs ended, by outcome: succeeded or failed (the run finished), suspended, yielded, lost (another driver took the run), error (retried).",
		}, []string{"outcome"}),
		driveDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "codemode_worker_drive_duration_seconds",
			Help:    "Duration of one drive of a run (one job), by outcome.",
			Buckets: prometheus.ExponentialBuckets(0.005, 4, 10), // 5 ms to about 22 min
		}, []string{"outcome"}),
		driving: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "codemode_worker_runs_driving",
			Help: "Runs being driven by this worker now.",
		}),
		calls: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "codemode_worker_tool_calls_total",
			Help: "Tool calls the programs started (calls replayed from the journal on a re-drive not counted).",
		}),
		callDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "codemode_worker_tool_call_duration_seconds",
			Help:    "Latency of inline tool calls, from start to settled outcome, by outcome: ok or error.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 10), // 1 ms to about 4 min
		}, []string{"outcome"}),
		snapshotBytes: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "codemode_worker_snapshot_bytes",
			Help:    "Size of the snapshots written, by kind: checkpoint, suspend, yield.",
			Buckets: prometheus.ExponentialBuckets(1024, 4, 10), // 1 KiB to 256 MiB
		}, []string{"kind"}),
		queue: &queueCollector{desc: prometheus.NewDesc("codemode_worker_queue_jobs",
			"Run jobs (run.execute, run.resume, run.redrive) waiting in River's queue, by state: available, retryable, scheduled. Sampled at most every 5 seconds.",
			[]string{"state"}, nil)},
	}
	reg.MustRegister(m.runsStarted, m.drives, m.driveDuration, m.driving, m.calls, m.callDuration, m.snapshotBytes, m.queue)
	return m
}

// driveStarted records the start of a drive; done records its end with an outcome.
func (m *Metrics) driveStarted(first bool) (done func(outcome string)) {
	if m == nil {
		return func(string) {}
	}
	if first {
		m.runsStarted.Inc()
	}
	m.driving.Inc()
	start := time.Now()
	return func(outcome string) {
		m.driving.Dec()
		m.drives.WithLabelValues(outcome).Inc()
		m.driveDuration.WithLabelValues(outcome).Observe(time.Since(start).Seconds())
	}
}

func (m *Metrics) snapshot(kind string, n int) {
	if m != nil {
		m.snapshotBytes.WithLabelValues(kind).Observe(float64(n))
	}
}

// host returns h, measured: its calls and checkpoints are recorded in m.
func (m *Metrics) host(h Host) Host {
	if m == nil {
		return h
	}
	return &meteredHost{Host: h, m: m, started: map[int]time.Time{}}
}

// meteredHost is a Host recording calls and checkpoints in Metrics.
type meteredHost struct {
	Host
	m       *Metrics
	mu      sync.Mutex
	started map[int]time.Time // inline calls in flight, by call id
}

func (h *meteredHost) CallStarted(ctx context.Context, c CallStart) (CallRecord, error) {
	rec, err := h.Host.CallStarted(ctx, c)
	if err == nil && rec.Outcome == nil && rec.Handle == nil {
		h.m.calls.Inc()
		h.mu.Lock()
		h.started[c.CallID] = time.Now()
		h.mu.Unlock()
	}
	return rec, err
}

func (h *meteredHost) CallSettled(ctx context.Context, callID int, o toolcall.Outcome) error {
	h.mu.Lock()
	start, ok := h.started[callID]
	delete(h.started, callID)
	h.mu.Unlock()
	if ok {
		outcome := "ok"
		if !o.OK {
			outcome = "error"
		}
		h.m.callDuration.WithLabelValues(outcome).Observe(time.Since(start).Seconds())
	}
	return h.Host.CallSettled(ctx, callID, o)
}

func (h *meteredHost) CallPending(ctx context.Context, callID int, handle json.RawMessage) error {
	h.mu.Lock()
	delete(h.started, callID)
	h.mu.Unlock()
	return h.Host.CallPending(ctx, callID, handle)
}

func (h *meteredHost) TimerPending(ctx context.Context, callID int, handle json.RawMessage, until time.Time, output json.RawMessage) error {
	h.mu.Lock()
	delete(h.started, callID)
	h.mu.Unlock()
	return h.Host.TimerPending(ctx, callID, handle, until, output)
}

func (h *meteredHost) Checkpoint(ctx context.Context, snapshot Snapshot) error {
	err := h.Host.Checkpoint(ctx, snapshot)
	if err == nil {
		h.m.snapshot("checkpoint", snapshot.Len())
	}
	return err
}

// queueCollector reports the run jobs waiting in River's table, sampling it at most every
// queueSampleEvery however often it is scraped.
type queueCollector struct {
	desc *prometheus.Desc
	pool atomic.Pointer[pgxpool.Pool]

	mu      sync.Mutex
	sampled time.Time
	counts  map[string]float64
}

const queueSampleEvery = 5 * time.Second

var queueStates = []string{"available", "retryable", "scheduled"}

func (q *queueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- q.desc }

func (q *queueCollector) Collect(ch chan<- prometheus.Metric) {
	pool := q.pool.Load()
	if pool == nil {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.counts == nil || time.Since(q.sampled) >= queueSampleEvery {
		counts, err := sampleQueue(pool)
		if err != nil {
			return // no sample: the series is absent from this scrape
		}
		q.counts, q.sampled = counts, time.Now()
	}
	for _, state := range queueStates {
		ch <- prometheus.MustNewConstMetric(q.desc, prometheus.GaugeValue, q.counts[state], state)
	}
}

func sampleQueue(pool *pgxpool.Pool) (map[string]float64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	rows, err := pool.Query(ctx, `SELECT state::text, count(*) FROM river_job
		WHERE queue = $1 AND state IN ('available', 'retryable', 'scheduled') GROUP BY state`, QueueRuns)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	counts := map[string]float64{}
	for rows.Next() {
		var (
			state string
			n     int64
		)
		if err := rows.Scan(&state, &n); err != nil {
			return nil, err
		}
		counts[state] = float64(n)
	}
	return counts, rows.Err()
}

// watchQueue makes m report the queue of the database behind pool.
func (m *Metrics) watchQueue(pool *pgxpool.Pool) {
	if m != nil {
		m.queue.pool.Store(pool)
	}
}

// ErrNotStarted is Worker.Ready's answer before Start and after Stop.
var ErrNotStarted = errors.New("durable: worker not started")

// Ready reports whether the worker can drive runs: the database answers and it was started
// (and not stopped).
func (w *Worker) Ready(ctx context.Context) error {
	if err := w.store.Ping(ctx); err != nil {
		return err
	}
	if !w.started.Load() {
		return ErrNotStarted
	}
	return nil
}
