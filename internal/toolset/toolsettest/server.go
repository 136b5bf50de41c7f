// Package toolsettest serves a toolset that follows the tool protocol, for
// tests of any package and for a standalone process (cmd/toolsetd).
//
// Its tools:
//
//   - math.add {a, b} → {sum}; math.divide {a, b} → {quotient}, failing
//     with a tool error on division by zero.
//   - string.upper {text} → {text}; string.concat {parts, separator?} →
//     {text}; string.split {text, separator} → {parts}.
//   - echo (any input) → the input.
//   - fail {message, status?} → a tool error: 200 {"error"} by default, or
//     the given 4xx status with the error body.
//   - flaky {failures?, value?} → answers 503 to the first failures
//     attempts under a key (default 2), then {attempts, value}.
//   - slow {ms} → waits ms milliseconds (at most 10000) then {slept}.
//   - approvals.request {reason, autoApprove?} (durable) → 202 {"handle":
//     {"approvalId": "apr_<key>"}}, or 200 {approved: true, by: "auto"} at
//     once when autoApprove is true.
//
// A completed call's answer is stored under its Idempotency-Key and replayed
// for the same key, so a repeated call never runs twice; Attempts and
// Executions count per key so tests can assert exactly that.
package toolsettest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codemode/codemode/internal/signing"
)

// Options configures a Handler.
type Options struct {
	// Secret, when set, makes every POST require valid Standard Webhooks
	// signature headers (401 otherwise); same format as toolset.Config.Secret.
	Secret string
}

// Cancel is one cancel request received.
type Cancel struct {
	// Tool is the tool path of the cancelled call.
	Tool string `json:"tool"`
	// Key is the call's key.
	Key string `json:"key"`
	// Handle is the handle of the work.
	Handle json.RawMessage `json:"handle"`
}

// Handler serves the toolset. It is safe for concurrent use.
type Handler struct {
	verifier *signing.Key

	mu         sync.Mutex
	attempts   map[string]int // POSTs received per key
	executions map[string]int // tool runs per key (replays excluded)
	answers    map[string]stored
	cancels    []Cancel
	manifests  int
}

type stored struct {
	status int
	body   []byte
}

// NewHandler returns a Handler.
func NewHandler(opts Options) (*Handler, error) {
	h := &Handler{
		attempts:   make(map[string]int),
		executions: make(map[string]int),
		answers:    make(map[string]stored),
	}
	if opts.Secret != "" {
		v, err := signing.ParseSecret(opts.Secret)
		if err != nil {
			return nil, fmt.Errorf("toolsettest: secret: %w", err)
		}
		h.verifier = v
	}
	return h, nil
}

// Server is a Handler served by an httptest.Server.
type Server struct {
	*Handler
	// URL is the toolset's base URL.
	URL string
	srv *httptest.Server
}

// New starts a test toolset server, closed when the test ends.
func New(t testing.TB, opts Options) *Server {
	t.Helper()
	h, err := NewHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &Server{Handler: h, URL: srv.URL, srv: srv}
}

// Close stops the server early (to test connection failures).
func (s *Server) Close() { s.srv.Close() }

// Attempts returns how many POSTs were received under key.
func (h *Handler) Attempts(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.attempts[key]
}

// Executions returns how many times a tool actually ran under key (replayed
// answers and 503s from flaky do not count).
func (h *Handler) Executions(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.executions[key]
}

// Cancels returns the cancel requests received, in order.
func (h *Handler) Cancels() []Cancel {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Cancel(nil), h.cancels...)
}

// ManifestReads returns how many times the manifest was read.
func (h *Handler) ManifestReads() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.manifests
}

// Manifest is the manifest the handler serves.
const Manifest = `{
  "tools": [
    {"path": "math.add", "description": "Add two numbers",
     "input": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"], "additionalProperties": false},
     "output": {"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]}},
    {"path": "math.divide", "description": "Divide a by b; fails when b is zero",
     "input": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]},
     "output": {"type": "object", "properties": {"quotient": {"type": "number"}}, "required": ["quotient"]}},
    {"path": "string.upper", "description": "Upper-case a string",
     "input": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
     "output": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
    {"path": "string.concat", "description": "Join strings with a separator",
     "input": {"type": "object", "properties": {"parts": {"type": "array", "items": {"type": "string"}}, "separator": {"type": "string", "default": ""}}, "required": ["parts"]},
     "output": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
    {"path": "string.split", "description": "Split a string on a separator",
     "input": {"type": "object", "properties": {"text": {"type": "string"}, "separator": {"type": "string"}}, "required": ["text", "separator"]},
     "output": {"type": "object", "properties": {"parts": {"type": "array", "items": {"type": "string"}}}, "required": ["parts"]}},
    {"path": "echo", "description": "Return the input unchanged"},
    {"path": "fail", "description": "Fail with the given message (and optional 4xx status)",
     "input": {"type": "object", "properties": {"message": {"type": "string"}, "status": {"type": "integer", "minimum": 400, "maximum": 499}}, "required": ["message"]}},
    {"path": "flaky", "description": "Answer 503 to the first failures attempts of a call, then succeed",
     "input": {"type": "object", "properties": {"failures": {"type": "integer", "minimum": 0, "default": 2}, "value": {}}}},
    {"path": "slow", "description": "Wait ms milliseconds, then answer",
     "input": {"type": "object", "properties": {"ms": {"type": "integer", "minimum": 0, "maximum": 10000}}, "required": ["ms"]},
     "output": {"type": "object", "properties": {"slept": {"type": "integer"}}, "required": ["slept"]}},
    {"path": "approvals.request", "description": "Ask a human to approve; the outcome is posted later", "durable": true,
     "input": {"type": "object", "properties": {"reason": {"type": "string"}, "autoApprove": {"type": "boolean", "description": "Approve at once (200) instead of waiting (202)"}}, "required": ["reason"]},
     "output": {"type": "object", "properties": {"approved": {"type": "boolean"}, "by": {"type": "string"}}, "required": ["approved"]}}
  ],
  "namespaces": [
    {"path": "math", "description": "Arithmetic"},
    {"path": "string", "description": "String utilities"},
    {"path": "approvals", "description": "Human approvals"}
  ]
}`

type request struct {
	Tool   string          `json:"tool"`
	Input  json.RawMessage `json:"input"`
	Key    string          `json:"key"`
	RunID  string          `json:"runId"`
	Cancel *Cancel         `json:"cancel"`
}

// maxRequestBytes caps request bodies.
const maxRequestBytes = 1 << 20

// ServeHTTP serves GET (manifest) and POST (calls and cancels).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		h.mu.Lock()
		h.manifests++
		h.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, Manifest)
	case http.MethodPost:
		h.post(w, r)
	default:
		writeJSON(w, http.StatusMethodNotAllowed, errorBody("method not allowed"))
	}
}

func (h *Handler) post(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBytes+1))
	if err != nil || len(body) > maxRequestBytes {
		writeJSON(w, http.StatusBadRequest, errorBody("unreadable or oversized request"))
		return
	}
	if h.verifier != nil {
		if err := h.verifier.Verify(r.Header, body); err != nil {
			writeJSON(w, http.StatusUnauthorized, errorBody("invalid signature: "+err.Error()))
			return
		}
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, errorBody("malformed request: "+err.Error()))
		return
	}
	if req.Cancel != nil {
		h.mu.Lock()
		h.cancels = append(h.cancels, *req.Cancel)
		h.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]bool{"cancelled": true})
		return
	}
	if req.Key == "" || r.Header.Get("Idempotency-Key") != req.Key {
		writeJSON(w, http.StatusBadRequest, errorBody("Idempotency-Key header must equal the body's key"))
		return
	}
	h.mu.Lock()
	h.attempts[req.Key]++
	attempt := h.attempts[req.Key]
	if a, ok := h.answers[req.Key]; ok {
		h.mu.Unlock()
		writeRaw(w, a.status, a.body)
		return
	}
	h.mu.Unlock()

	status, answer := h.run(r.Context(), req, attempt)
	if status == http.StatusServiceUnavailable {
		writeJSON(w, status, answer)
		return
	}
	b, _ := json.Marshal(answer)
	h.mu.Lock()
	h.executions[req.Key]++
	h.answers[req.Key] = stored{status: status, body: b}
	h.mu.Unlock()
	writeRaw(w, status, b)
}

// run executes one tool. A 503 answer is not stored (flaky).
func (h *Handler) run(ctx context.Context, req request, attempt int) (int, any) {
	var in map[string]any
	if len(req.Input) > 0 && string(req.Input) != "null" {
		if err := json.Unmarshal(req.Input, &in); err != nil && req.Tool != "echo" {
			return http.StatusBadRequest, errorBody("input must be an object")
		}
	}
	num := func(k string) float64 { f, _ := in[k].(float64); return f }
	str := func(k string) string { s, _ := in[k].(string); return s }
	switch req.Tool {
	case "math.add":
		return http.StatusOK, output(map[string]any{"sum": num("a") + num("b")})
	case "math.divide":
		if num("b") == 0 {
			return http.StatusOK, errorBody("division by zero")
		}
		return http.StatusOK, output(map[string]any{"quotient": num("a") / num("b")})
	case "string.upper":
		return http.StatusOK, output(map[string]any{"text": strings.ToUpper(str("text"))})
	case "string.concat":
		parts, _ := in["parts"].([]any)
		ss := make([]string, len(parts))
		for i, p := range parts {
			ss[i], _ = p.(string)
		}
		return http.StatusOK, output(map[string]any{"text": strings.Join(ss, str("separator"))})
	case "string.split":
		return http.StatusOK, output(map[string]any{"parts": strings.Split(str("text"), str("separator"))})
	case "echo":
		out := req.Input
		if len(out) == 0 {
			out = json.RawMessage("null")
		}
		return http.StatusOK, map[string]json.RawMessage{"output": out}
	case "fail":
		status := int(num("status"))
		if status < 400 || status > 499 {
			status = http.StatusOK
		}
		return status, errorBody(str("message"))
	case "flaky":
		failures := 2
		if f, ok := in["failures"].(float64); ok {
			failures = int(f)
		}
		if attempt <= failures {
			return http.StatusServiceUnavailable, errorBody(fmt.Sprintf("flaky: attempt %d of %d fails", attempt, failures))
		}
		return http.StatusOK, output(map[string]any{"attempts": attempt, "value": in["value"]})
	case "slow":
		ms := min(max(int(num("ms")), 0), 10000)
		t := time.NewTimer(time.Duration(ms) * time.Millisecond)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return http.StatusServiceUnavailable, errorBody("request cancelled")
		case <-t.C:
		}
		return http.StatusOK, output(map[string]any{"slept": ms})
	case "approvals.request":
		if in["autoApprove"] == true {
			return http.StatusOK, output(map[string]any{"approved": true, "by": "auto"})
		}
		return http.StatusAccepted, map[string]any{"handle": map[string]string{"approvalId": "apr_" + req.Key}}
	}
	return http.StatusNotFound, errorBody("unknown tool " + req.Tool)
}

func output(v any) map[string]any { return map[string]any{"output": v} }

func errorBody(msg string) map[string]any {
	return map[string]any{"error": map[string]string{"message": msg}}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	writeRaw(w, status, b)
}

func writeRaw(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// ExecutionsByKey returns how many times a tool ran under each key (a copy).
func (h *Handler) ExecutionsByKey() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]int, len(h.executions))
	for k, n := range h.executions {
		out[k] = n
	}
	return out
}
