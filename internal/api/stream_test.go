package api

import (
	"bufio"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/client"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/secretbox"
)

// sseEvent is one server-sent event.
type sseEvent struct {
	id  int64
	typ string
}

// openStream opens the events stream of a run with the given extra header pairs and returns
// a channel of its events (closed when the stream ends) and a function closing it.
func (b *testBundle) openStream(t *testing.T, runID, query string, header ...string) (<-chan sseEvent, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.url+"/v1/runs/"+runID+"/events"+query, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Accept", "text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	out := make(chan sseEvent, 100)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		scanner := bufio.NewScanner(resp.Body)
		var e sseEvent
		for scanner.Scan() {
			line := scanner.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				e.id, _ = strconv.ParseInt(strings.TrimPrefix(line, "id: "), 10, 64)
			case strings.HasPrefix(line, "event: "):
				e.typ = strings.TrimPrefix(line, "event: ")
			case line == "" && e.typ != "":
				out <- e
				e = sseEvent{}
			}
		}
	}()
	t.Cleanup(cancel)
	return out, cancel
}

func next(t *testing.T, events <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case e, ok := <-events:
		require.True(t, ok, "the stream ended")
		return e
	case <-time.After(30 * time.Second):
		t.Fatal("no event within 30 s")
	}
	return sseEvent{}
}

// A client that reconnects with Last-Event-ID (and no after parameter) gets the events after
// that one, not the timeline from the start.
func TestEventStreamReconnectsWithLastEventID(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	created, err := b.client.CreateRunWithResponse(b.ctx, &client.CreateRunParams{}, client.RunCreate{Code: "durable"})
	require.NoError(t, err)
	runID := created.JSON201.Id

	events, disconnect := b.openStream(t, runID, "")
	var last sseEvent
	for last.typ != durable.EventSuspended {
		last = next(t, events)
	}
	disconnect()

	status, body := b.do(t, "POST", "/v1/runs/"+runID+"/calls/1", `{"ok":true,"value":1}`)
	require.Equal(t, http.StatusAccepted, status, string(body))

	events, _ = b.openStream(t, runID, "", "Last-Event-ID", strconv.FormatInt(last.id, 10))
	var got []sseEvent
	for e := range events {
		got = append(got, e)
	}
	require.NotEmpty(t, got)
	require.Equal(t, last.id+1, got[0].id, "the stream continues after Last-Event-ID: %v", got)
	require.Equal(t, durable.EventFinished, got[len(got)-1].typ)

	// The after parameter wins over the header.
	events, _ = b.openStream(t, runID, "?after=0", "Last-Event-ID", strconv.FormatInt(last.id, 10))
	require.Equal(t, int64(1), next(t, events).id)

	// The JSON listing ignores the header.
	status, body = b.do(t, "GET", "/v1/runs/"+runID+"/events", "", "Last-Event-ID", "3")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, string(body), `"seq":1,`)
}

// queryCounter counts the queries sent through a pool.
type queryCounter struct{ n atomic.Int64 }

func (c *queryCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *queryCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// A live stream is woken by the database's notification when an event is added: it issues
// no query while nothing happens (a polling stream read every 250 ms), and an event arrives
// long before its only timer, the 15 s keep-alive.
func TestEventStreamIsWokenNotPolled(t *testing.T) {
	t.Parallel()
	b, counter := countingSetup(t)
	store := b.store

	run, _, err := store.CreateRun(b.ctx, durable.NewRun{Code: "x"}) // no worker: it stays queued
	require.NoError(t, err)
	events, _ := b.openStream(t, run.ID, "")
	require.Equal(t, durable.EventCreated, next(t, events).typ)

	time.Sleep(200 * time.Millisecond) // the stream is waiting now
	before := counter.n.Load()
	time.Sleep(time.Second)
	require.Equal(t, before, counter.n.Load(), "an idle stream sends no queries")

	_, err = store.CancelRun(b.ctx, run.ID)
	require.NoError(t, err)
	start := time.Now()
	e := next(t, events)
	require.Equal(t, durable.EventCancelled, e.typ)
	// The idle stream sends no queries, and its only timer is the 15 s keep-alive: an event
	// within a second came by the notification (typically within milliseconds; the bound
	// leaves room for a loaded machine).
	require.Less(t, time.Since(start), time.Second, "the event arrives when notified")
	_, open := <-events
	require.False(t, open, "the stream ends once the run is final")
}

// A request waiting on a run (?wait=) reads it when notified, not on a timer: while nothing
// changes it sends no queries between its first and last reads.
func TestWaitIsWokenNotPolled(t *testing.T) {
	t.Parallel()
	b, counter := countingSetup(t)
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: "x"}) // no worker: it stays queued
	require.NoError(t, err)
	// A first wait starts the listener, so the one measured finds it listening.
	status, body := b.do(t, http.MethodGet, "/v1/runs/"+run.ID+"?wait=0.1", "")
	require.Equal(t, http.StatusOK, status, string(body))

	before := counter.n.Load()
	start := time.Now()
	status, body = b.do(t, http.MethodGet, "/v1/runs/"+run.ID+"?wait=2", "")
	require.Equal(t, http.StatusOK, status, string(body))
	require.GreaterOrEqual(t, time.Since(start), 2*time.Second)
	// The handler reads the run and its pending calls; the wait reads the run when it starts
	// and at its end, then the pending calls; the answer adds the run's lineage: 6 (a poll
	// every 50 ms to 1 s would make 11).
	require.LessOrEqual(t, counter.n.Load()-before, int64(6))
}

// countingSetup is setup without a worker, on a pool counting the queries sent.
func countingSetup(t *testing.T) (*testBundle, *queryCounter) {
	t.Helper()
	_, dbURL := pgtest.NewDB(t)
	cfg, err := pgxpool.ParseConfig(dbURL)
	require.NoError(t, err)
	counter := &queryCounter{}
	cfg.ConnConfig.Tracer = counter
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	store, err := durable.New(pool, durable.Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	handler, err := New(store, Config{Token: testToken, Egress: egress.Local()})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return &testBundle{url: srv.URL, store: store, ctx: context.Background()}, counter
}
