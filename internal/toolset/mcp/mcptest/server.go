// Package mcptest serves an MCP server (the Go SDK's streamable HTTP handler) with a few
// tools covering what an MCP toolset maps: structured output, text output, several content
// items, an isError result, names that are not identifiers, dotted names, a slow tool and the
// call's _meta. Tests run it as a process (cmd/mcpserverd); a second implementation with the
// TypeScript SDK serves the same tools (internal/toolset/mcp/testdata/ts).
package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addInput and addOutput are the tool add's.
type addInput struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

type addOutput struct {
	Sum float64 `json:"sum"`
}

// Handler serves the test server's tools at any path. A non-empty token is required as
// "Authorization: Bearer <token>" (401 otherwise). The tools list comes in pages of two, so a
// client must follow the cursor.
func Handler(token string) http.Handler {
	server := mcp.NewServer(&mcp.Implementation{Name: "mcptest", Version: "1"}, &mcp.ServerOptions{PageSize: 2})
	mcp.AddTool(server, &mcp.Tool{Name: "add", Title: "Add", Description: "Add two numbers"},
		func(_ context.Context, _ *mcp.CallToolRequest, in addInput) (*mcp.CallToolResult, addOutput, error) {
			return nil, addOutput{Sum: in.A + in.B}, nil
		})
	raw(server, "echo", "Echo the text", `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`,
		func(args map[string]any, _ mcp.Meta) *mcp.CallToolResult {
			return text(fmt.Sprint(args["text"]))
		})
	raw(server, "fail", "Fail with the message", `{"type":"object","properties":{"message":{"type":"string"}}}`,
		func(args map[string]any, _ mcp.Meta) *mcp.CallToolResult {
			r := text(fmt.Sprint(args["message"]))
			r.IsError = true
			return r
		})
	raw(server, "pair", "Two text items", `{"type":"object"}`,
		func(map[string]any, mcp.Meta) *mcp.CallToolResult {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "one"}, &mcp.TextContent{Text: "two"}}}
		})
	raw(server, "resolve-library-id", "A name that is not an identifier", `{"type":"object","properties":{"name":{"type":"string"}}}`,
		func(args map[string]any, _ mcp.Meta) *mcp.CallToolResult {
			return text("/lib/" + fmt.Sprint(args["name"]))
		})
	raw(server, "docs.search", "A dotted name", `{"type":"object","properties":{"q":{"type":"string"}}}`,
		func(args map[string]any, _ mcp.Meta) *mcp.CallToolResult {
			return text("found " + fmt.Sprint(args["q"]))
		})
	raw(server, "slow", "Answers after ms milliseconds", `{"type":"object","properties":{"ms":{"type":"number"}}}`,
		func(args map[string]any, _ mcp.Meta) *mcp.CallToolResult {
			ms, _ := args["ms"].(float64)
			time.Sleep(time.Duration(ms) * time.Millisecond)
			return text("done")
		})
	var mu sync.Mutex
	seen := map[string]int{}
	raw(server, "keyed", "Reports the idempotency key of the call and how often it was seen", `{"type":"object"}`,
		func(_ map[string]any, meta mcp.Meta) *mcp.CallToolResult {
			key := fmt.Sprint(meta["codemode/idempotencyKey"])
			mu.Lock()
			seen[key]++
			n := seen[key]
			mu.Unlock()
			out, _ := json.Marshal(map[string]any{"key": key, "seen": n})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}, StructuredContent: json.RawMessage(out)}
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	if token == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); !ok || got != token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// raw adds a tool with a JSON Schema written out and a handler of its decoded arguments.
func raw(server *mcp.Server, name, description, schema string, h func(map[string]any, mcp.Meta) *mcp.CallToolResult) {
	server.AddTool(&mcp.Tool{Name: name, Description: description, InputSchema: json.RawMessage(schema)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args map[string]any
			if len(req.Params.Arguments) > 0 {
				if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
					return nil, err
				}
			}
			return h(args, req.Params.Meta), nil
		})
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
