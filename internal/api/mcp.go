package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/run"
)

// MCPPath is where the service is an MCP server (streamable HTTP, docs/mcp.md).
const MCPPath = "/mcp"

// mcpHandler serves the MCP server: stateless (every request is answered on its own, so any
// API server of a deployment can take any request), answering with JSON. Each request gets a
// server built for it, so that execute's description is the catalog of the toolsets as they
// are now; "?toolsets=a,b" on the endpoint's URL scopes the server to those toolsets, and
// "?budgetTokens=N" bounds the description as GET /v1/catalog/prompt does.
//
// A body that is not a JSON-RPC message gets a JSON-RPC error (jsonRPCShape), not the SDK's
// plain text.
//
// Without a token, the SDK's own check refuses a request received on a loopback address whose
// Host is not a loopback name (DNS rebinding). With a token, as for /v1 (middleware_host.go),
// the token is what protects the endpoint and any Host is served: a reverse proxy on the same
// machine passes its own name.
func (h *handlers) mcpHandler() http.Handler {
	getServer, once := oncePerRequest(h.mcpServer)
	return once(jsonRPCShape(h.cfg.MaxBodyBytes, h.cfg.Token == "", mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		Stateless: true, JSONResponse: true, Logger: h.cfg.Logger,
		DisableLocalhostProtection: h.cfg.Token != "",
	})))
}

// oncePerRequest makes build run at most once per HTTP request: the SDK asks for the server
// of a request more than once (to check the protocol version, then to serve), and building
// one reads the catalog. wrap must wrap the SDK's handler; it also answers 405 to GET (a
// client's attempt at an event stream) and the other methods a stateless endpoint refuses
// without building a server.
func oncePerRequest(build func(*http.Request) *mcp.Server) (getServer func(*http.Request) *mcp.Server, wrap func(http.Handler) http.Handler) {
	type key struct{}
	type memo struct {
		once sync.Once
		s    *mcp.Server
	}
	getServer = func(r *http.Request) *mcp.Server {
		m, ok := r.Context().Value(key{}).(*memo)
		if !ok {
			return build(r)
		}
		m.once.Do(func() { m.s = build(r) })
		return m.s
	}
	wrap = func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost && r.Method != http.MethodDelete { // DELETE: the SDK's (legacy sessions)
				w.Header().Set("Allow", http.MethodPost)
				http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), key{}, &memo{})))
		})
	}
	return getServer, wrap
}

// mcpServer builds the MCP server of one request.
func (h *handlers) mcpServer(r *http.Request) *mcp.Server {
	scope := mcpScope(r.URL.Query().Get("toolsets"))
	s := mcp.NewServer(&mcp.Implementation{Name: "codemode", Version: "1"}, &mcp.ServerOptions{
		Instructions: "Run JavaScript programs that call tools with execute; find tools with search; read a run with get_run.",
	})
	prompt := "Run a JavaScript program that calls the toolsets' tools (tools.<toolset>.<tool>) and return its result."
	budget, _ := strconv.Atoi(r.URL.Query().Get("budgetTokens"))
	if box, err := h.toolbox(r.Context(), scope); err == nil {
		prompt = box.Prompt(max(budget, 0))
	} else {
		h.cfg.Logger.WarnContext(r.Context(), "MCP: the catalog could not be read", "error", err)
	}
	s.AddTool(&mcp.Tool{Name: "execute", Title: "Run a program", Description: prompt,
		InputSchema: json.RawMessage(executeInputSchema), OutputSchema: json.RawMessage(runOutputSchema)},
		boundToRequest(r, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return h.mcpExecute(ctx, scope, req.Params.Arguments)
		}))
	s.AddTool(&mcp.Tool{Name: "search", Title: "Search the tools",
		Description: "Search the tools programs can call, as the runtime's search(): ranked by the query's words; each hit has its access path, description and TypeScript signature.",
		InputSchema: json.RawMessage(searchInputSchema), OutputSchema: json.RawMessage(searchOutputSchema)},
		boundToRequest(r, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return h.mcpSearch(ctx, scope, req.Params.Arguments)
		}))
	s.AddTool(&mcp.Tool{Name: "get_run", Title: "Read a run",
		Description: "Read a run started by execute: its status, its result once finished, and the calls it waits on while suspended (post their outcomes with POST /v1/runs/{id}/calls/{callId}).",
		InputSchema: json.RawMessage(getRunInputSchema), OutputSchema: json.RawMessage(runOutputSchema)},
		boundToRequest(r, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return h.mcpGetRun(ctx, req.Params.Arguments)
		}))
	return s
}

// boundToRequest ends a tool call when the HTTP request that carries it ends (the client went
// away): the endpoint is stateless, so the answer could only go on that request, and the SDK
// cancels a call's context on the request's only for the newest protocol versions. Without
// it, an abandoned execute or get_run would go on waiting for its run for up to a minute. (A
// run that execute created goes on: only the wait ends.)
func boundToRequest(r *http.Request, handler mcp.ToolHandler) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		stop := context.AfterFunc(r.Context(), func() { cancel(context.Cause(r.Context())) })
		defer stop()
		return handler(ctx, req)
	}
}

const limitsSchema = `{"type":"object","additionalProperties":false,"properties":{
	"timeoutMs":{"type":"integer","minimum":1},"maxToolCalls":{"type":"integer","minimum":1},
	"maxOutputBytes":{"type":"integer","minimum":1},"maxMemoryBytes":{"type":"integer","minimum":1}}}`

const executeInputSchema = `{"type":"object","required":["code"],"additionalProperties":false,"properties":{
	"code":{"type":"string","minLength":1,"description":"The program: the body of an async function; return its result."},
	"toolsets":{"type":"array","items":{"type":"string"},"maxItems":100,"description":"The toolsets the program may call (default: all the server offers)."},
	"limits":` + limitsSchema + `,
	"input":{"description":"Any JSON value but null: the program reads a copy of it as the global input."}}}`

const getRunInputSchema = `{"type":"object","required":["id"],"additionalProperties":false,"properties":{
	"id":{"type":"string","maxLength":36,"description":"The run's id, from execute."},
	"wait":{"type":"number","minimum":0,"description":"Seconds to wait for the run to change first (bounded by the server)."}}}`

const searchInputSchema = `{"type":"object","required":["query"],"additionalProperties":false,"properties":{
	"query":{"type":"string","description":"Free text; empty lists every tool."},
	"namespace":{"type":"string","description":"Only tools under this dotted path."},
	"limit":{"type":"integer","minimum":0,"maximum":100},
	"offset":{"type":"integer","minimum":0}}}`

const runOutputSchema = `{"type":"object","required":["id","status","pending"],"properties":{
	"id":{"type":"string"},
	"status":{"type":"string","enum":["queued","running","suspended","succeeded","failed","cancelled"]},
	"result":{"type":"object","description":"The program's Result once finished: ok, value, logs, warnings, error."},
	"pending":{"type":"array","description":"The calls a suspended run waits on.","items":{"type":"object","properties":{
		"callId":{"type":"integer"},"path":{"type":"string"},"key":{"type":"string"},"handle":{},"args":{}}}}}}`

const searchOutputSchema = `{"type":"object","required":["items","remaining"],"properties":{
	"items":{"type":"array","items":{"type":"object","properties":{
		"path":{"type":"string"},"description":{"type":"string"},"signature":{"type":"string"}}}},
	"remaining":{"type":"integer"},"next":{"type":["integer","null"]}}}`

// mcpExecuteWait bounds how long execute waits for its run before answering with the run as
// it is (still running: call get_run later).
const mcpExecuteWait = 60 * time.Second

// maxCodeBytes bounds a program, as RunCreate's code does in the REST API.
const maxCodeBytes = 1 << 20

// executeArgs is execute's input.
type executeArgs struct {
	Code     string           `json:"code"`
	Toolsets *[]string        `json:"toolsets"`
	Limits   *gen.Limits      `json:"limits"`
	Input    *json.RawMessage `json:"input"`
}

// mcpExecute creates a run as POST /v1/runs?wait= does (the same handler) and answers with it.
func (h *handlers) mcpExecute(ctx context.Context, scope *string, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var args executeArgs
	if err := decodeArgs(raw, &args); err != nil {
		return toolError(fmt.Sprintf("execute: invalid arguments: %v", err)), nil
	}
	if args.Code == "" || len(args.Code) > maxCodeBytes {
		return toolError(fmt.Sprintf("execute: code must be 1 to %d bytes", maxCodeBytes)), nil
	}
	toolsets, err := scoped(scope, args.Toolsets)
	if err != nil {
		return toolError(err.Error()), nil
	}
	wait := gen.Wait(min(mcpExecuteWait, h.cfg.MaxWait).Seconds())
	resp, err := h.CreateRun(ctx, gen.CreateRunRequestObject{
		Params: gen.CreateRunParams{Wait: &wait},
		Body:   &gen.CreateRunJSONRequestBody{Code: args.Code, Toolsets: toolsets, Limits: args.Limits, Input: args.Input},
	})
	if err != nil {
		return h.clientError(ctx, err)
	}
	var r gen.Run
	switch v := resp.(type) {
	case gen.CreateRun201JSONResponse:
		r = gen.Run(v)
	case gen.CreateRun200JSONResponse:
		r = gen.Run(v)
	default:
		return nil, fmt.Errorf("execute: unexpected answer %T", resp)
	}
	return runResult(r), nil
}

// mcpScope is the endpoint's scope from its ?toolsets= parameter: the names it lists, trimmed,
// comma-separated; nil (every toolset) when it lists none, so that the description, search and
// runs agree on what "?toolsets=," or "?toolsets= " offers.
func mcpScope(param string) *string {
	names := nameList(param)
	if len(names) == 0 {
		return nil
	}
	s := strings.Join(names, ",")
	return &s
}

// scoped is the toolsets a run of an MCP request may call: those asked for, which must be
// within the endpoint's scope, else the scope (nil: all).
func scoped(scope *string, asked *[]string) (*[]string, error) {
	if scope == nil {
		return asked, nil
	}
	allowed := map[string]bool{}
	names := nameList(*scope)
	for _, n := range names {
		allowed[n] = true
	}
	if asked == nil {
		return &names, nil
	}
	for _, n := range *asked {
		if !allowed[n] {
			return nil, fmt.Errorf("toolset %q is not offered by this MCP endpoint (its toolsets: %s)", n, *scope)
		}
	}
	return asked, nil
}

// getRunArgs is get_run's input.
type getRunArgs struct {
	ID   string   `json:"id"`
	Wait *float64 `json:"wait"`
}

// mcpGetRun reads a run as GET /v1/runs/{id}?wait= does.
func (h *handlers) mcpGetRun(ctx context.Context, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var args getRunArgs
	if err := decodeArgs(raw, &args); err != nil {
		return toolError(fmt.Sprintf("get_run: invalid arguments: %v", err)), nil
	}
	if len(args.ID) > maxIDLength {
		// As GET /v1/runs/{id} refuses it (the spec's maxLength): a UUID is 36 characters.
		return toolError(fmt.Sprintf("get_run: id is %d characters, more than %d: a run's id is a UUID as execute answers it", len(args.ID), maxIDLength)), nil
	}
	req := gen.GetRunRequestObject{Id: args.ID}
	if args.Wait != nil {
		w := gen.Wait(min(*args.Wait, mcpExecuteWait.Seconds()))
		req.Params.Wait = &w
	}
	resp, err := h.GetRun(ctx, req)
	if err != nil {
		return h.clientError(ctx, err)
	}
	r, ok := resp.(gen.GetRun200JSONResponse)
	if !ok {
		return nil, fmt.Errorf("get_run: unexpected answer %T", resp)
	}
	return runResult(gen.Run(r)), nil
}

// mcpSearch searches the catalog of the endpoint's toolsets as a program's search() does.
func (h *handlers) mcpSearch(ctx context.Context, scope *string, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var q run.Query
	if err := decodeArgs(raw, &q); err != nil {
		return toolError(fmt.Sprintf("search: invalid arguments: %v", err)), nil
	}
	if err := q.Validate(); err != nil {
		return toolError(err.Error()), nil
	}
	box, err := h.toolbox(ctx, scope)
	if err != nil {
		return h.clientError(ctx, err)
	}
	page := run.Search(box.Catalog(), q)
	if page.Items == nil {
		page.Items = []run.Item{}
	}
	var b strings.Builder
	if len(page.Items) == 0 {
		b.WriteString("No tools match.\n")
	}
	for _, it := range page.Items {
		fmt.Fprintf(&b, "%s\n", it.Signature)
	}
	if page.Next != nil {
		fmt.Fprintf(&b, "(%d more: search again with offset %d)\n", page.Remaining, *page.Next)
	}
	return structured(page, b.String(), false)
}

// decodeArgs decodes a tool's arguments into v, refusing properties the tool's input schema
// does not declare (every schema has additionalProperties false, as the REST API's bodies do):
// a misspelt limit would otherwise be dropped and the run would go on without it.
func decodeArgs(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the arguments object")
	}
	return nil
}

// runResult is a run as an execute or get_run answer: the run's id, status, result and
// pending calls as structured content, and a text rendering of them.
func runResult(r gen.Run) *mcp.CallToolResult {
	type pending struct {
		CallID int    `json:"callId"`
		Path   string `json:"path"`
		Key    string `json:"key"`
		Handle any    `json:"handle,omitempty"`
		Args   any    `json:"args,omitempty"`
	}
	out := struct {
		ID      string          `json:"id"`
		Status  string          `json:"status"`
		Result  *map[string]any `json:"result,omitempty"`
		Pending []pending       `json:"pending"`
	}{ID: r.Id, Status: string(r.Status), Result: r.Result, Pending: []pending{}}
	for _, c := range r.Pending {
		p := pending{CallID: c.CallId, Path: c.Path, Key: c.Key}
		if c.Handle != nil {
			p.Handle = *c.Handle
		}
		if c.Args != nil {
			p.Args = *c.Args
		}
		out.Pending = append(out.Pending, p)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Run %s is %s.\n", r.Id, r.Status)
	failed := false
	if r.Result != nil {
		res := *r.Result
		var (
			ok             bool
			logs, warnings []json.RawMessage
		)
		resultField(res, "ok", &ok)
		resultField(res, "logs", &logs)
		resultField(res, "warnings", &warnings)
		if ok {
			fmt.Fprintf(&b, "Value: %s\n", compact(res["value"]))
		} else {
			failed = true
			fmt.Fprintf(&b, "Error: %s\n", compact(res["error"]))
		}
		if len(logs) > 0 {
			b.WriteString("Logs:\n")
			for _, l := range logs {
				var line string
				if json.Unmarshal(l, &line) == nil {
					fmt.Fprintf(&b, "  %s\n", line)
				} else {
					fmt.Fprintf(&b, "  %s\n", compact(l))
				}
			}
		}
		if len(warnings) > 0 {
			b.WriteString("Warnings:\n")
			for _, w := range warnings {
				fmt.Fprintf(&b, "  %s\n", compact(w))
			}
		}
	}
	if len(out.Pending) > 0 {
		b.WriteString("It waits on these calls; post each one's outcome with POST /v1/runs/" + r.Id + "/calls/{callId}, then call get_run:\n")
		for _, p := range out.Pending {
			fmt.Fprintf(&b, "  call %d: %s key %s", p.CallID, run.AccessPath(p.Path), p.Key)
			if p.Handle != nil {
				fmt.Fprintf(&b, " handle %s", compact(p.Handle))
			}
			b.WriteString("\n")
		}
	} else if !durable.IsFinal(string(r.Status)) {
		b.WriteString("It has not finished yet: call get_run with its id later.\n")
	}
	res, err := structured(out, b.String(), failed)
	if err != nil {
		return toolError(err.Error())
	}
	return res
}

// structured answers v as structured content with a text rendering.
func structured(v any, text string, isError bool) (*mcp.CallToolResult, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode answer: %w", err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: json.RawMessage(raw), IsError: isError}, nil
}

// toolError is a tool's refusal the model can read and act on.
func toolError(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}, IsError: true}
}

// clientError answers a handler's error: what the REST API would answer 4xx (a bad program,
// an unknown toolset or run) is a tool error with the same message; anything else is the
// server's (logged, and a protocol error without details).
func (h *handlers) clientError(ctx context.Context, err error) (*mcp.CallToolResult, error) {
	if status, _ := statusOf(err); status < 500 {
		return toolError(err.Error()), nil
	}
	if ctx.Err() != nil {
		// The client went away (boundToRequest): nobody to answer, nothing to log.
		return nil, ctx.Err()
	}
	h.cfg.Logger.ErrorContext(ctx, "MCP request failed", "error", err)
	return nil, errors.New("internal error")
}

// resultField decodes the field key of a run's result (as toRun makes it: each value a JSON
// text) into dst; dst is left alone when the field is missing or of another type.
func resultField(res map[string]any, key string, dst any) {
	if raw, ok := res[key].(json.RawMessage); ok {
		_ = json.Unmarshal(raw, dst)
	}
}

func compact(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(raw)
}
