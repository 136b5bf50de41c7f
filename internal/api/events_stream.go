package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/durable"
)

// streamPoll is how often a live event stream looks for new events.
const streamPoll = 250 * time.Millisecond

// streamEvents serves GET /v1/runs/{id}/events with "Accept: text/event-stream" as server-sent
// events, live, until the run has finished and every event was sent or the client leaves.
// Other requests for the route go to next (the JSON listing).
func streamEvents(store *durable.Store) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			runID, isEvents := eventsRunID(r.URL.Path)
			if !isEvents || r.Method != http.MethodGet || !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
				next.ServeHTTP(w, r)
				return
			}
			after, _ := strconv.ParseInt(r.Header.Get("Last-Event-ID"), 10, 64)
			if v := r.URL.Query().Get("after"); v != "" {
				after, _ = strconv.ParseInt(v, 10, 64)
			}
			ctx := r.Context()
			if _, err := store.GetRun(ctx, runID); err != nil {
				status, code := statusOf(err)
				writeError(w, status, code, err.Error())
				return
			}
			rc := http.NewResponseController(w) // reaches the Flusher through wrapping writers
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-cache")
			w.WriteHeader(http.StatusOK)
			if err := rc.Flush(); err != nil {
				return
			}
			ticker := time.NewTicker(streamPoll)
			defer ticker.Stop()
			for {
				// Read the status first: events written before a final status are all visible.
				run, err := store.GetRun(ctx, runID)
				if err != nil {
					return
				}
				events, err := store.ListEvents(ctx, runID, after, 1000)
				if err != nil {
					return
				}
				for _, e := range events {
					data := map[string]any{}
					_ = json.Unmarshal(e.Data, &data)
					payload, _ := json.Marshal(gen.Event{Seq: e.Seq, Type: e.Type, Data: data, At: e.At})
					if _, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", e.Seq, e.Type, payload); err != nil {
						return
					}
					after = e.Seq
				}
				if err := rc.Flush(); err != nil {
					return
				}
				if durable.IsFinal(run.Status) && len(events) < 1000 {
					return
				}
				select {
				case <-ctx.Done():
					return
				case <-ticker.C:
				}
			}
		})
	}
}

// eventsRunID returns the run id of a /v1/runs/{id}/events path.
func eventsRunID(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, "/v1/runs/")
	if !ok {
		return "", false
	}
	id, ok := strings.CutSuffix(rest, "/events")
	if !ok || id == "" || strings.Contains(id, "/") {
		return "", false
	}
	return id, true
}
