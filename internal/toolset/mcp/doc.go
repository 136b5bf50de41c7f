// Package mcp makes a toolset of an MCP server's tools (the toolset kind "mcp",
// docs/toolsets.md): at registration it connects to the server's streamable HTTP endpoint and
// lists its tools (every page) as a manifest; on a worker it mounts the manifest's tools as
// run.Tools whose calls are the server's tools/call, over one session per toolset reused
// across calls and reconnected when it fails.
//
// MCP tool names become tool paths by Path (dots make namespaces, other characters that are
// not those of an identifier become "_"); the manifest keeps each tool's MCP name, which is
// what the calls send. A result's structuredContent is the tool's output; without it, a single
// text item is the output string and other contents are the array of content items. A result
// with isError, and a JSON-RPC error, is the tool's failure (a *toolcall.ToolError, which the
// program can catch). The call's idempotency key travels in the request's _meta under MetaKey.
//
// The package knows nothing of SQL or of the durable service: the worker hands it the stored
// manifest and configuration.
package mcp
