// Package toolset turns HTTP toolsets into run.Tools.
//
// A toolset is a base URL that any language can serve (the tool protocol,
// docs/tool-protocol.md):
//
//   - GET URL returns the manifest: {"tools": [{"path", "description",
//     "input", "output", "durable"}], "namespaces": [{"path",
//     "description"}]}.
//   - POST URL with {"tool", "input", "key", "runId"} and the header
//     Idempotency-Key: <key> calls a tool. 200 {"output": X} is success;
//     200 {"error": {"message"}} or a 4xx is the tool's failure (a
//     *run.ToolError); 202 {"handle": H} starts durable work; 5xx,
//     connection errors and timeouts are retried with exponential backoff
//     under the same key.
//   - POST URL with {"cancel": {"tool", "key", "handle"}} cancels durable
//     work, retried the same way.
//
// When the toolset has a secret, every POST carries Standard Webhooks
// signature headers (webhook-id, webhook-timestamp, webhook-signature).
//
// Load reads and validates a manifest and returns its tools, mounted under
// Config.Name when set. Sleep (time.sleep, attachable in process) and
// Approval (approvals.request, answered from outside) are built-in durable
// tools that need no server. The subpackage toolsettest serves a toolset for
// tests and for a standalone process (toolsettest/cmd/toolsetd).
package toolset
