// A client of the service's MCP server written with the TypeScript SDK, run by the Go tests
// (internal/api/mcp_node_test.go). Usage: node client.mjs <endpoint> <token> <tool> [<arguments as JSON>]
// It prints one JSON line: {"tools": [names]} for the tool "list", else the call's
// {"isError", "structuredContent", "text"}; a failure to connect prints {"error": message}.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [endpoint, token, tool, args] = process.argv.slice(2);
const headers = token ? { Authorization: `Bearer ${token}` } : {};
const client = new Client({ name: "codemode-test", version: "1" });
const transport = new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers } });
try {
  await client.connect(transport);
} catch (e) {
  console.log(JSON.stringify({ error: String(e && e.message || e) }));
  process.exit(0);
}
if (tool === "list") {
  const { tools } = await client.listTools();
  console.log(JSON.stringify({ tools: tools.map((t) => t.name).sort(), execute: tools.find((t) => t.name === "execute") }));
} else {
  const res = await client.callTool({ name: tool, arguments: JSON.parse(args || "{}") });
  const text = (res.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");
  console.log(JSON.stringify({ isError: !!res.isError, structuredContent: res.structuredContent, text }));
}
await client.close();
