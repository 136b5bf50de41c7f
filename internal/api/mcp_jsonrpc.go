package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// JSON-RPC 2.0's codes for a message the server cannot take.
const (
	jsonRPCParseError     = -32700 // the body is not JSON
	jsonRPCInvalidRequest = -32600 // JSON, but not a message this server takes
	jsonRPCMethodNotFound = -32601 // a request for a method the server does not have
)

// sdkNotHandled begins the SDK's plain-text refusal of a method it does not have.
const sdkNotHandled = "JSON RPC not handled"

// mcpNoBatchVersion is the first MCP protocol version without JSON-RPC batches; the SDK
// serves batches of earlier versions (and of requests naming none, read as 2025-03-26).
const mcpNoBatchVersion = "2025-06-18"

// jsonRPCShape answers a POST to the MCP endpoint whose body is not a well-formed JSON-RPC
// message with a JSON-RPC error (400, application/json): -32700 when the body is not JSON,
// -32600 when it is JSON but not a message (not an object, no "jsonrpc": "2.0", an id that is
// not a string or an integer, a method that is not a string, an object neither a request nor a
// response, an empty batch, or a batch the protocol version does not have). The SDK answers
// those with a plain-text 400, which JSON-RPC clients cannot read. Everything else (other
// methods, other content types, well-formed messages and notifications) goes to next with
// the body as it was read. The body was bounded by limitBody; it is bounded here again
// (maxBytes) for a handler mounted without it. With hostCheck (no token: the SDK checks the
// Host), a request the SDK refuses for its Host (403) goes to it unread, so that the refusal
// comes first as before. A well-formed message the SDK still refuses with a plain-text 400
// (a method it does not have, a request without an id, a notification with one, missing
// params, an Accept header without both types) gets a JSON-RPC error too: see rpcRefusal.
func jsonRPCShape(maxBytes int64, hostCheck bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil || (hostCheck && rebound(r)) {
			next.ServeHTTP(w, r)
			return
		}
		// Another content type is the SDK's 415.
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBytes))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				writeJSONRPCError(w, http.StatusRequestEntityTooLarge, nil, jsonRPCInvalidRequest,
					fmt.Sprintf("request body exceeds %d bytes", maxBytes))
				return
			}
			writeJSONRPCError(w, http.StatusBadRequest, nil, jsonRPCParseError, "reading the request body: "+err.Error())
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		id, code, msg := checkJSONRPC(body, r.Header.Get("Mcp-Protocol-Version"))
		if code != 0 {
			writeJSONRPCError(w, http.StatusBadRequest, id, code, msg)
			return
		}
		refusal := &rpcRefusal{ResponseWriter: w}
		next.ServeHTTP(refusal, r)
		refusal.answer(id)
	})
}

// rpcRefusal passes a response through, except the SDK's plain-text 400, which it holds back
// so that answer can send it as a JSON-RPC error: -32601 (404, as the SDK itself answers
// under the newest protocol version) for a method the SDK does not have, -32600 (400) for the
// rest, with the SDK's text as the message. Streams (SSE) and JSON answers pass unchanged; it
// unwraps for http.ResponseController, through which the SDK flushes them.
type rpcRefusal struct {
	http.ResponseWriter
	held bool         // a plain-text 400 is being held back
	text bytes.Buffer // its body
}

func (w *rpcRefusal) WriteHeader(status int) {
	if status == http.StatusBadRequest && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.held = true
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *rpcRefusal) Write(b []byte) (int, error) {
	if w.held {
		return w.text.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

func (w *rpcRefusal) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// answer sends the held refusal, if any, as a JSON-RPC error for the message with id (nil:
// none, or a batch).
func (w *rpcRefusal) answer(id json.RawMessage) {
	if !w.held {
		return
	}
	text := strings.TrimSpace(w.text.String())
	h := w.ResponseWriter.Header()
	h.Del("X-Content-Type-Options")
	h.Del("Content-Length")
	if strings.HasPrefix(text, sdkNotHandled) {
		writeJSONRPCError(w.ResponseWriter, http.StatusNotFound, id, jsonRPCMethodNotFound,
			"Method not found: "+strings.TrimPrefix(strings.TrimPrefix(text, sdkNotHandled), ": "))
		return
	}
	writeJSONRPCError(w.ResponseWriter, http.StatusBadRequest, id, jsonRPCInvalidRequest, "Invalid Request: "+text)
}

// rebound reports a request the SDK's DNS rebinding check refuses: received on a loopback
// address, naming another host.
func rebound(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return ok && local != nil && isLoopback(local.String()) && !isLoopback(r.Host)
}

// isLoopback reports whether a host, with or without a port, is localhost or a loopback
// address, as the SDK reads it.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	return loopbackName(host)
}

// checkJSONRPC returns the error code (0: none) and message for a body that is not a JSON-RPC
// message or batch the endpoint takes under protocol version (empty: unnamed), with the
// message's id when it has a valid one.
func checkJSONRPC(body []byte, version string) (id json.RawMessage, code int, message string) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, jsonRPCParseError, "Parse error: the request body is empty"
	}
	if !json.Valid(body) {
		var v any
		err := json.Unmarshal(body, &v)
		return nil, jsonRPCParseError, "Parse error: the request body is not JSON: " + err.Error()
	}
	if body[0] == '[' {
		var batch []json.RawMessage
		_ = json.Unmarshal(body, &batch) // valid JSON
		switch {
		case len(batch) == 0:
			return nil, jsonRPCInvalidRequest, "Invalid Request: an empty batch"
		case version >= mcpNoBatchVersion:
			return nil, jsonRPCInvalidRequest, fmt.Sprintf("Invalid Request: a batch: MCP protocol version %s has no JSON-RPC batches (none since %s); send one message per request", version, mcpNoBatchVersion)
		}
		for i, m := range batch {
			if _, code, msg := checkMessage(m); code != 0 {
				return nil, code, fmt.Sprintf("%s (batch element %d)", msg, i)
			}
		}
		return nil, 0, ""
	}
	return checkMessage(body)
}

// checkMessage checks one message, valid JSON, as checkJSONRPC does.
func checkMessage(raw json.RawMessage) (id json.RawMessage, code int, message string) {
	invalid := func(format string, args ...any) (json.RawMessage, int, string) {
		return id, jsonRPCInvalidRequest, "Invalid Request: " + fmt.Sprintf(format, args...)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return invalid("a JSON-RPC message is an object, not %s", jsonKind(raw))
	}
	rawID, hasID := m["id"]
	if hasID {
		if !validJSONRPCID(rawID) {
			return invalid(`"id" must be a string or an integer, not %s`, rawID)
		}
		id = rawID
	}
	if v, ok := m["jsonrpc"]; !ok || string(bytes.TrimSpace(v)) != `"2.0"` {
		return invalid(`"jsonrpc" must be "2.0"`)
	}
	if method, ok := m["method"]; ok {
		var s string
		if json.Unmarshal(method, &s) != nil {
			return invalid(`"method" must be a string, not %s`, jsonKind(method))
		}
		return id, 0, ""
	}
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if !hasID || hasResult == hasError {
		return invalid(`neither a request (with "method") nor a response (with "id" and one of "result" and "error")`)
	}
	return id, 0, ""
}

// validJSONRPCID reports whether an id is one MCP allows: a string or an integer (not null;
// an integer the SDK reads exactly, so its answer carries the same id).
func validJSONRPCID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		return json.Unmarshal(raw, &s) == nil
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && n >= -(1<<53-1) && n <= 1<<53-1
}

// jsonKind names the JSON type of a valid JSON value.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// jsonRPCError is a JSON-RPC error response.
type jsonRPCError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// writeJSONRPCError writes a JSON-RPC error response; id nil is null.
func writeJSONRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string) {
	resp := jsonRPCError{JSONRPC: "2.0", ID: id}
	if resp.ID == nil {
		resp.ID = json.RawMessage("null")
	}
	resp.Error.Code, resp.Error.Message = code, message
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(resp)
}
