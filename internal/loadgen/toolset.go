package loadgen

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
)

// maxEchoRequest caps the bodies the echo fast path reads; a larger one is the test
// toolset's to refuse.
const maxEchoRequest = 1 << 20

// echoFirst answers calls of the test toolset's echo tool itself and hands every other
// request to next (the test toolset). The test toolset keeps every answer it gave, by key,
// to replay it to a repeated call: over a long measurement that is a growing map and a
// growing heap in this process, which shares the machine with the service it measures.
// echo is pure (its answer is its input), so answering a repeated call again is already
// its deduplication and nothing needs keeping.
type echoFirst struct{ next http.Handler }

// echoCall is what the fast path reads of a call (the tool protocol's request body).
type echoCall struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
	Key   string          `json:"key"`
}

func (e echoFirst) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		e.next.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxEchoRequest+1))
	if err != nil {
		http.Error(w, "unreadable request", http.StatusBadRequest)
		return
	}
	var call echoCall
	if len(body) <= maxEchoRequest && json.Unmarshal(body, &call) == nil &&
		call.Tool == "echo" && call.Key != "" && r.Header.Get("Idempotency-Key") == call.Key {
		out := call.Input
		if len(out) == 0 {
			out = json.RawMessage("null")
		}
		answer := make([]byte, 0, len(out)+len(`{"output":}`))
		answer = append(append(append(answer, `{"output":`...), out...), '}')
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	e.next.ServeHTTP(w, r)
}
