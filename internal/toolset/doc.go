// Package toolset speaks the tool protocol (docs/tool-protocol.md): it is the
// only package that sends requests to toolsets of that kind (the subpackage mcp
// speaks to MCP servers). It also holds AuthConfig, the credentials a worker
// applies to the requests of other kinds of toolset.
//
// A toolset is a base URL that any language can serve:
//
//   - GET URL returns the manifest: {"tools": [{"path", "description",
//     "input", "output", "durable"}], "namespaces": [{"path",
//     "description"}], "extensions": [{"name", "async", "functions":
//     [{"path", "async"}]}]}.
//   - POST URL with {"tool", "input", "key", "runId"} and the header
//     Idempotency-Key: <key> calls a tool. 200 {"output": X} is success;
//     200 {"error": {"message"}} or a 4xx is the tool's failure (a
//     *toolcall.ToolError); 202 {"handle": H} starts durable work; 5xx,
//     connection errors and timeouts are retried with exponential backoff
//     under the same key.
//   - POST URL with {"extension", "function", "args", "runId"} calls an
//     extension function (CallExtension): no key, 200 {"output": X} or a
//     failure as for a tool.
//   - POST URL with {"cancel": {"tool", "key", "handle"}} under the key
//     CancelKey(key) cancels durable work, retried the same way; a refusal
//     wraps ErrRejected.
//
// When the toolset has a secret, every POST carries Standard Webhooks
// signature headers (webhook-id, webhook-timestamp, webhook-signature;
// internal/signing).
//
// Client.Send sends the requests of other kinds of toolsets (an OpenAPI
// operation's) with the same transport, size cap and retries.
//
// The package knows nothing of the runtime: a call is a toolcall.Call and its
// failure a toolcall.ToolError (internal/toolcall). The subpackage runtools
// makes the runtime's tools of a manifest, the subpackage openapi those of an
// OpenAPI document; the subpackage toolsettest serves a toolset for tests and
// for a standalone process (toolsettest/cmd/toolsetd).
package toolset
