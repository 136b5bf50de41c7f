package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/sse"
)

// Codemode is a client of one codemode service: the common flows as methods, and every
// operation of the API through the embedded ClientWithResponses.
type Codemode struct {
	*ClientWithResponses
	raw *Client
}

// New returns a client of the service at baseURL (say "http://127.0.0.1:8080"). A non-empty
// token is sent as the bearer token of every request (the service's CODEMODE_API_TOKEN). opts
// add to it, e.g. WithHTTPClient.
func New(baseURL, token string, opts ...ClientOption) (*Codemode, error) {
	if token != "" {
		opts = append(opts, WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			req.Header.Set("Authorization", "Bearer "+token)
			return nil
		}))
	}
	raw, err := NewClient(strings.TrimRight(baseURL, "/"), opts...)
	if err != nil {
		return nil, err
	}
	return &Codemode{ClientWithResponses: &ClientWithResponses{ClientInterface: raw}, raw: raw}, nil
}

// APIError is an error answer of the service.
type APIError struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Code is the stable machine-readable code (not_found, conflict, invalid_request, ...);
	// empty when the answer was not the API's error document.
	Code string
	// Message describes the error.
	Message string
}

func (e *APIError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("codemode: HTTP %d: %s", e.StatusCode, e.Message)
	}
	return fmt.Sprintf("codemode: HTTP %d: %s: %s", e.StatusCode, e.Code, e.Message)
}

// apiError returns the APIError of an answer with the given status and body.
func apiError(status int, body []byte) error {
	var doc Error
	if err := json.Unmarshal(body, &doc); err == nil && doc.Error.Code != "" {
		return &APIError{StatusCode: status, Code: doc.Error.Code, Message: doc.Error.Message}
	}
	return &APIError{StatusCode: status, Message: strings.TrimSpace(string(body))}
}

// ErrWaitTimeout is returned, with the run as last seen, when a run has not settled within the
// time a wait allowed.
var ErrWaitTimeout = errors.New("codemode: the run has not settled within the wait")

// Settled reports whether a run needs nothing more from the service to make progress: it has
// finished (succeeded, failed or cancelled) or it is suspended on a call waiting for an outcome.
// A suspended run whose outcomes are all posted is about to resume and is not settled.
func (r *Run) Settled() bool {
	return r.Finished() || (r.Status == RunStatusSuspended && len(r.Pending) > 0)
}

// Finished reports whether the run succeeded, failed or was cancelled.
func (r *Run) Finished() bool {
	return r.Status == RunStatusSucceeded || r.Status == RunStatusFailed || r.Status == RunStatusCancelled
}

// RunError is the error of a run that finished without a value.
type RunError struct {
	// RunID names the run.
	RunID string
	// Status is the run's status (failed or cancelled).
	Status RunStatus
	// Kind is the kind of the program's error (TypeError, ToolError, LimitExceeded, ...) when
	// the run has a result.
	Kind string
	// Message describes the error.
	Message string
}

func (e *RunError) Error() string {
	if e.Kind == "" {
		return fmt.Sprintf("codemode: run %s %s: %s", e.RunID, e.Status, e.Message)
	}
	return fmt.Sprintf("codemode: run %s %s: %s: %s", e.RunID, e.Status, e.Kind, e.Message)
}

// Decode stores the value the program returned in v (as json.Unmarshal does). It returns a
// *RunError when the run finished without a value, and an error when it has not finished.
func (r *Run) Decode(v any) error {
	if !r.Finished() {
		return fmt.Errorf("codemode: run %s is %s, not finished", r.Id, r.Status)
	}
	var res struct {
		OK    bool            `json:"ok"`
		Value json.RawMessage `json:"value"`
		Error *struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if r.Result != nil {
		data, err := json.Marshal(*r.Result)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(data, &res); err != nil {
			return err
		}
	}
	if r.Status != RunStatusSucceeded || !res.OK {
		e := &RunError{RunID: r.Id, Status: r.Status, Message: "no result"}
		if res.Error != nil {
			e.Kind, e.Message = res.Error.Kind, res.Error.Message
		}
		return e
	}
	if len(res.Value) == 0 {
		res.Value = json.RawMessage("null")
	}
	return json.Unmarshal(res.Value, v)
}

// RunOptions are the optional parts of a run.
type RunOptions struct {
	// Toolsets restricts the run to these toolsets (all registered ones when empty).
	Toolsets []string
	// Limits lowers the worker's limits for the run.
	Limits *Limits
	// Webhook receives the run's events.
	Webhook *WebhookTarget
	// IdempotencyKey makes a repeated create with the same program return the first run.
	IdempotencyKey string
	// Timeout bounds how long CreateAndWait waits for the run to settle (default one minute).
	Timeout time.Duration
}

// maxWait is the longest wait the service accepts in one request.
const maxWait = 300 * time.Second

// waitParam returns d as the API's wait parameter, at most 300 seconds.
func waitParam(d time.Duration) *Wait {
	w := Wait(math.Ceil(min(d, maxWait).Seconds()))
	return &w
}

// CreateAndWait starts a run of code and waits until it has settled (see Run.Settled): it
// returns the finished run, or the suspended run with its pending calls. When opts.Timeout
// passes first it returns the run as last seen and ErrWaitTimeout.
func (c *Codemode) CreateAndWait(ctx context.Context, code string, opts *RunOptions) (*Run, error) {
	if opts == nil {
		opts = &RunOptions{}
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	deadline := time.Now().Add(timeout)
	body := RunCreate{Code: code, Limits: opts.Limits, Webhook: opts.Webhook}
	if len(opts.Toolsets) > 0 {
		body.Toolsets = &opts.Toolsets
	}
	params := &CreateRunParams{Wait: waitParam(timeout)}
	if opts.IdempotencyKey != "" {
		params.IdempotencyKey = &opts.IdempotencyKey
	}
	resp, err := c.CreateRunWithResponse(ctx, params, body)
	if err != nil {
		return nil, err
	}
	run := resp.JSON201
	if run == nil {
		run = resp.JSON200
	}
	if run == nil {
		return nil, apiError(resp.StatusCode(), resp.Body)
	}
	if run.Settled() {
		return run, nil
	}
	return c.Wait(ctx, run.Id, time.Until(deadline))
}

// Get returns the run.
func (c *Codemode) Get(ctx context.Context, runID string) (*Run, error) {
	return c.get(ctx, runID, 0)
}

func (c *Codemode) get(ctx context.Context, runID string, wait time.Duration) (*Run, error) {
	params := &GetRunParams{}
	if wait > 0 {
		params.Wait = waitParam(wait)
	}
	resp, err := c.GetRunWithResponse(ctx, runID, params)
	if err != nil {
		return nil, err
	}
	if resp.JSON200 == nil {
		return nil, apiError(resp.StatusCode(), resp.Body)
	}
	return resp.JSON200, nil
}

// Wait returns the run once it has settled (see Run.Settled), asking the service to answer at
// each status change (GET /v1/runs/{id}?wait=). When timeout passes first it returns the run
// as last seen and ErrWaitTimeout.
func (c *Codemode) Wait(ctx context.Context, runID string, timeout time.Duration) (*Run, error) {
	deadline := time.Now().Add(timeout)
	run, err := c.get(ctx, runID, 0)
	for err == nil && !run.Settled() {
		left := time.Until(deadline)
		if left <= 0 {
			return run, ErrWaitTimeout
		}
		run, err = c.get(ctx, runID, left)
	}
	return run, err
}

// Complete posts the value as the successful outcome of the pending durable call callID of
// the run, which then resumes with it. value is encoded with encoding/json; a json.RawMessage
// is posted as it is, its key order and number digits kept.
func (c *Codemode) Complete(ctx context.Context, runID string, callID int, value any) (*OutcomeAccepted, error) {
	raw, err := json.Marshal(value)
	if err != nil {
		return nil, fmt.Errorf("codemode: encode the outcome's value: %w", err)
	}
	v := Any(raw)
	return c.postOutcome(ctx, runID, callID, Outcome{Ok: true, Value: &v})
}

// Fail posts a failed outcome with message for the pending durable call callID of the run:
// the program's await of the call throws a ToolError with that message.
func (c *Codemode) Fail(ctx context.Context, runID string, callID int, message string) (*OutcomeAccepted, error) {
	o := Outcome{Ok: false}
	o.Error = &struct {
		Message string `json:"message"`
	}{Message: message}
	return c.postOutcome(ctx, runID, callID, o)
}

func (c *Codemode) postOutcome(ctx context.Context, runID string, callID int, o Outcome) (*OutcomeAccepted, error) {
	resp, err := c.PostOutcomeWithResponse(ctx, runID, callID, o)
	if err != nil {
		return nil, err
	}
	if a := resp.JSON202; a != nil {
		return a, nil
	}
	if a := resp.JSON200; a != nil {
		return a, nil
	}
	return nil, apiError(resp.StatusCode(), resp.Body)
}

// reconnectPause is how long Events waits before it opens the stream again when it ended while
// the run had not finished.
var reconnectPause = time.Second

// Events streams the run's events with a sequence number above after, as the service
// writes them (server-sent events), until the run has finished and its last event was
// yielded. A stream that breaks or ends before that (a proxy's timeout, a restart of the
// service) is opened again from the last event yielded, so no event is skipped or yielded
// twice. It ends early with an error when a request fails or ctx is done; stop ranging to
// close it.
func (c *Codemode) Events(ctx context.Context, runID string, after int64) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		// The service ends a finished run's stream once every event was sent: a stream opened
		// after the run was seen finished, and ended without breaking, had them all.
		finishedSeen := false
		for {
			broken, stop := c.eventsPass(ctx, runID, &after, yield)
			if stop || finishedSeen && !broken {
				return
			}
			if err := ctx.Err(); err != nil {
				yield(Event{}, err)
				return
			}
			run, err := c.Get(ctx, runID)
			if err != nil {
				yield(Event{}, err)
				return
			}
			if run.Finished() {
				finishedSeen = true
				continue
			}
			select {
			case <-ctx.Done():
				yield(Event{}, ctx.Err())
				return
			case <-time.After(reconnectPause):
			}
		}
	}
}

// eventsPass opens the run's event stream once, from *after, and yields its events, moving
// *after along. It returns whether the stream broke (a read error), and stop when the
// iteration is over: the consumer stopped or an error was yielded.
func (c *Codemode) eventsPass(ctx context.Context, runID string, after *int64, yield func(Event, error) bool) (broken, stop bool) {
	req, err := NewListEventsRequest(c.raw.Server, runID, &ListEventsParams{After: after})
	if err != nil {
		yield(Event{}, err)
		return false, true
	}
	req = req.WithContext(ctx)
	req.Header.Set("Accept", "text/event-stream")
	if err := c.raw.applyEditors(ctx, req, nil); err != nil {
		yield(Event{}, err)
		return false, true
	}
	resp, err := c.raw.Client.Do(req)
	if err != nil {
		yield(Event{}, err)
		return false, true
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		yield(Event{}, apiError(resp.StatusCode, body))
		return false, true
	}
	for ev, err := range sse.Read(resp.Body) {
		if errors.Is(err, sse.ErrLineTooLong) { // there again on the next stream
			yield(Event{}, fmt.Errorf("event after %d: %w", *after, err))
			return false, true
		}
		if err != nil {
			return true, false
		}
		var e Event
		if err := json.Unmarshal(ev.Data, &e); err != nil {
			yield(Event{}, fmt.Errorf("event after %d: %w", *after, err))
			return false, true
		}
		if e.Seq <= *after {
			continue // given already (a stream that repeats itself)
		}
		if !yield(e, nil) {
			return false, true
		}
		*after = e.Seq
	}
	return false, false
}
