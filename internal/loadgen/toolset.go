package loadgen

import (
	"encoding/json"

	"github.com/valyala/fasthttp"
)

// maxEchoRequest caps the bodies the echo fast path reads; a larger one is the test
// toolset's to refuse.
const maxEchoRequest = 1 << 20

// maxToolsetRequest caps every request body the served toolset reads.
const maxToolsetRequest = 8 << 20

// echoFirst answers calls of the test toolset's echo tool itself and hands every other
// request to next (the test toolset). The test toolset keeps every answer it gave, by key,
// to replay it to a repeated call: over a long measurement that is a growing map and a
// growing heap in this process, which shares the machine with the service it measures.
// echo is pure (its answer is its input), so answering a repeated call again is already
// its deduplication and nothing needs keeping.
//
// It is served by fasthttp, whose server costs a fraction of net/http's per request: the
// toolset shares the cores with the service it measures, and the less it takes of them, the
// closer a run's latency is to the service's own (the service's client is net/http's, as
// with any toolset).
type echoFirst struct{ next fasthttp.RequestHandler }

// echoCall is what the fast path reads of a call (the tool protocol's request body).
type echoCall struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
	Key   string          `json:"key"`
}

func (e echoFirst) serve(ctx *fasthttp.RequestCtx) {
	if !ctx.IsPost() {
		e.next(ctx)
		return
	}
	body := ctx.PostBody()
	var call echoCall
	if len(body) <= maxEchoRequest && json.Unmarshal(body, &call) == nil &&
		call.Tool == "echo" && call.Key != "" && string(ctx.Request.Header.Peek("Idempotency-Key")) == call.Key {
		out := call.Input
		if len(out) == 0 {
			out = json.RawMessage("null")
		}
		answer := make([]byte, 0, len(out)+len(`{"output":}`))
		answer = append(append(append(answer, `{"output":`...), out...), '}')
		ctx.SetContentType("application/json")
		ctx.SetBody(answer)
		return
	}
	e.next(ctx)
}
