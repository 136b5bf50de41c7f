package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/durable"
)

// streamKeepAlive is how often an idle event stream sends a comment line, so that proxies keep
// the connection; it also rereads the run then, in case the notification listener is down.
var streamKeepAlive = 15 * time.Second

// streamPage is how many events a stream reads at once.
const streamPage = 1000

// acceptsKey is the context key of the request's Accept header (see withAccept): the strict
// handlers see the context, not the request.
type acceptsKey struct{}

// withAccept is a strict middleware handing the Accept header of a listEvents request to the
// handler, which streams when it asks for text/event-stream.
func withAccept(f gen.StrictHandlerFunc, operationID string) gen.StrictHandlerFunc {
	if operationID != "ListEvents" {
		return f
	}
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, request any) (any, error) {
		return f(context.WithValue(ctx, acceptsKey{}, r.Header.Get("Accept")), w, r, request)
	}
}

func wantsStream(ctx context.Context) bool {
	accept, _ := ctx.Value(acceptsKey{}).(string)
	return strings.Contains(accept, "text/event-stream")
}

// eventStream is the response of listEvents with "Accept: text/event-stream": the run's events
// as server-sent events, live, until the run has finished and every event was sent or the
// client leaves. It reads the run when PostgreSQL announces new events (durable.WatchEvents),
// never on a timer of its own.
type eventStream struct {
	ctx   context.Context
	store *durable.Store
	runID string
	after int64
}

// VisitListEventsResponse implements gen.ListEventsResponseObject.
func (s eventStream) VisitListEventsResponse(w http.ResponseWriter) error {
	ctx := s.ctx
	// Subscribe before the first read: events added after it are announced.
	changed, unwatch := s.store.WatchEvents(ctx, s.runID)
	defer unwatch()
	rc := http.NewResponseController(w) // reaches the Flusher through wrapping writers
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if err := rc.Flush(); err != nil {
		return nil
	}
	keepAlive := time.NewTicker(streamKeepAlive)
	defer keepAlive.Stop()
	after := s.after
	for {
		events, status, err := s.store.EventsSince(ctx, s.runID, after, streamPage)
		if err != nil {
			return nil // the client left, or the run was deleted: the stream just ends
		}
		for _, e := range events {
			payload, _ := json.Marshal(toEvent(e))
			if _, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", e.Seq, e.Type, payload); err != nil {
				return nil
			}
			after = e.Seq
		}
		if err := rc.Flush(); err != nil {
			return nil
		}
		if len(events) == streamPage {
			continue // more to read
		}
		if durable.IsFinal(status) {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-changed:
		case <-keepAlive.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return nil
			}
		}
	}
}

// toEvent is the API form of a stored event; its data is always an object.
func toEvent(e durable.Event) gen.Event {
	data := rawObject(e.Data)
	if data == nil {
		data = map[string]any{}
	}
	return gen.Event{Seq: e.Seq, Type: e.Type, Data: data, At: e.At}
}
