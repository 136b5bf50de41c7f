// The test MCP server written with the TypeScript SDK: the tools of the Go one
// (internal/toolset/mcp/mcptest) over stateless streamable HTTP at /mcp. It prints
// "listening on http://127.0.0.1:<port>/mcp" once ready. Usage: node server.mjs [token]
import http from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const token = process.argv[2] || "";
const seen = new Map();
const text = (t) => ({ content: [{ type: "text", text: t }] });

function server() {
  const s = new McpServer({ name: "mcptest-ts", version: "1" });
  s.registerTool("add", {
    title: "Add", description: "Add two numbers",
    inputSchema: { a: z.number(), b: z.number() },
    outputSchema: { sum: z.number() },
  }, async ({ a, b }) => {
    const out = { sum: a + b };
    return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
  });
  s.registerTool("echo", { description: "Echo the text", inputSchema: { text: z.string() } },
    async ({ text: t }) => text(t));
  s.registerTool("fail", { description: "Fail with the message", inputSchema: { message: z.string().optional() } },
    async ({ message }) => ({ ...text(String(message)), isError: true }));
  s.registerTool("pair", { description: "Two text items" },
    async () => ({ content: [{ type: "text", text: "one" }, { type: "text", text: "two" }] }));
  s.registerTool("resolve-library-id", { description: "A name that is not an identifier", inputSchema: { name: z.string().optional() } },
    async ({ name }) => text("/lib/" + name));
  s.registerTool("docs.search", { description: "A dotted name", inputSchema: { q: z.string().optional() } },
    async ({ q }) => text("found " + q));
  s.registerTool("slow", { description: "Answers after ms milliseconds", inputSchema: { ms: z.number().optional() } },
    async ({ ms }) => { await new Promise((r) => setTimeout(r, ms || 0)); return text("done"); });
  s.registerTool("keyed", { description: "Reports the idempotency key of the call and how often it was seen" },
    async (extra) => {
      const key = String((extra._meta || {})["codemode/idempotencyKey"]);
      seen.set(key, (seen.get(key) || 0) + 1);
      const out = { key, seen: seen.get(key) };
      return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
    });
  return s;
}

const httpServer = http.createServer(async (req, res) => {
  if (token && req.headers.authorization !== `Bearer ${token}`) {
    res.writeHead(401).end("unauthorized");
    return;
  }
  if (req.url !== "/mcp" || req.method !== "POST") {
    res.writeHead(405).end();
    return;
  }
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const s = server();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => { transport.close(); s.close(); });
  await s.connect(transport);
  await transport.handleRequest(req, res, body);
});
httpServer.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${httpServer.address().port}/mcp`);
});
