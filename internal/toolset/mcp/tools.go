package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolcall"
)

// MetaKey is the key of a call's idempotency key ("<runId>:<callId>") in the _meta of its
// tools/call request; MetaRunKey's value is the run's id.
const (
	MetaKey    = "codemode/idempotencyKey"
	MetaRunKey = "codemode/runId"
)

// Toolset is an MCP toolset as a worker mounts it.
type Toolset struct {
	// Name mounts the tools under tools.<Name>.
	Name string
	// Description describes the mount namespace.
	Description string
	// Config reaches the server.
	Config Config
	// Manifest is the stored manifest (List).
	Manifest *Manifest
}

// Tools returns the toolset's tools, mounted under its name, and its namespace. Their calls
// use pool's session for the toolset's server.
func (ts Toolset) Tools(pool *Pool) ([]run.Tool, []run.Namespace) {
	key := sessionKey(ts.Config)
	tools := make([]run.Tool, 0, len(ts.Manifest.Tools))
	for _, mt := range ts.Manifest.Tools {
		tools = append(tools, run.Tool{
			Path: ts.Name + "." + mt.Path, Description: mt.Description, Input: mt.Input, Output: mt.Output,
			Execute: executeFunc(pool, key, ts.Config, mt.Name),
		})
	}
	return tools, []run.Namespace{{Path: ts.Name, Description: ts.Description}}
}

// sessionKey identifies the sessions that can serve a configuration.
func sessionKey(cfg Config) string {
	auth, _ := json.Marshal(cfg.Auth)
	return cfg.URL + "\x00" + string(auth)
}

func executeFunc(pool *Pool, key string, cfg Config, name string) func(context.Context, json.RawMessage, toolcall.Call) (json.RawMessage, error) {
	timeout := cfg.withDefaults().Timeout
	return func(ctx context.Context, input json.RawMessage, call toolcall.Call) (json.RawMessage, error) {
		params := &mcp.CallToolParams{Name: name, Arguments: argumentsOf(input),
			Meta: mcp.Meta{MetaKey: call.Key, MetaRunKey: call.RunID}}
		// A session that fails (the server restarted, the connection broke) is replaced and
		// the call sent once more under the same idempotency key.
		var res *mcp.CallToolResult
		for attempt := 0; ; attempt++ {
			s, err := pool.session(ctx, key, cfg)
			if err != nil {
				return nil, err
			}
			callCtx, cancel := context.WithTimeout(ctx, timeout)
			res, err = s.CallTool(callCtx, params)
			cancel()
			if err == nil {
				break
			}
			if isProtocolError(err) {
				return nil, &toolcall.ToolError{Message: fmt.Sprintf("MCP tool %s: %v", name, err)}
			}
			if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
				// The tool is slow, not the session broken: sending it again would only wait
				// as long once more.
				return nil, fmt.Errorf("MCP tool %s at %s: no answer within %s", name, cfg.URL, timeout)
			}
			pool.drop(key, s)
			if attempt > 0 || ctx.Err() != nil {
				return nil, fmt.Errorf("MCP tool %s at %s: %w", name, cfg.URL, err)
			}
		}
		return Output(res)
	}
}

// argumentsOf is the call's input as the arguments of tools/call: an object, or none.
func argumentsOf(input json.RawMessage) any {
	if len(input) == 0 || string(input) == "null" {
		return map[string]any{}
	}
	return input
}

// Output maps a tools/call result to the tool's output: its structuredContent when present;
// otherwise a single text item's text (a JSON string), no content as null, and any other
// content as the array of its content items ({"type": "text", "text"}, {"type": "image",
// "data", "mimeType"}, ...). A result with isError is a *toolcall.ToolError whose message is
// its text.
func Output(res *mcp.CallToolResult) (json.RawMessage, error) {
	if res.IsError {
		return nil, &toolcall.ToolError{Message: errorText(res)}
	}
	if res.StructuredContent != nil {
		if raw, ok := res.StructuredContent.(json.RawMessage); ok {
			return raw, nil
		}
		return json.Marshal(res.StructuredContent)
	}
	switch {
	case len(res.Content) == 0:
		return json.RawMessage("null"), nil
	case len(res.Content) == 1:
		if t, ok := res.Content[0].(*mcp.TextContent); ok {
			return json.Marshal(t.Text)
		}
	}
	return json.Marshal(res.Content)
}

// errorText is an error result's text items, one per line.
func errorText(res *mcp.CallToolResult) string {
	var lines []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && t.Text != "" {
			lines = append(lines, t.Text)
		}
	}
	if len(lines) == 0 {
		return "the MCP tool reported an error"
	}
	return strings.Join(lines, "\n")
}
