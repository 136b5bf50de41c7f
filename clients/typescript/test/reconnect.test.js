// Following a run's events across a stream that breaks: through a proxy that cuts the first
// event stream after its first event, the whole timeline still comes through, once and in
// order. Runs against the service CODEMODE_URL names; skipped without it.
import assert from "node:assert/strict";
import http from "node:http";
import { test } from "node:test";

import { codemode } from "../src/index.js";

const url = process.env.CODEMODE_URL;
const ops = process.env.CODEMODE_TOOLSET ?? "ops";
const skip = url ? false : "CODEMODE_URL is not set";

/**
 * An HTTP proxy in front of upstream that passes every request on, but cuts the first event
 * stream it relays abruptly after its first event, as a proxy's timeout or a restart of the
 * service would. streams counts the event streams relayed.
 * @param {string} upstream
 */
async function cuttingProxy(upstream) {
  const proxy = { url: "", streams: 0, close: () => {} };
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    const out = http.request(
      { hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        if (!String(up.headers["content-type"] ?? "").startsWith("text/event-stream")) {
          up.pipe(res);
          return;
        }
        const cut = ++proxy.streams === 1;
        let relayed = "";
        up.on("data", (chunk) => {
          relayed += chunk.toString();
          const end = relayed.indexOf("\n\n");
          if (cut && end >= 0 && relayed.slice(0, end).includes("data:")) {
            // The first event goes through, then the connection closes mid-stream.
            up.destroy();
            res.write(chunk, () => res.socket?.destroy());
            return;
          }
          res.write(chunk);
        });
        up.on("end", () => res.end());
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  proxy.url = `http://127.0.0.1:${address.port}`;
  proxy.close = () => {
    server.closeAllConnections();
    server.close();
  };
  return proxy;
}

test("events follow the run across a broken stream", { skip }, async (t) => {
  const proxy = await cuttingProxy(/** @type {string} */ (url));
  t.after(proxy.close);
  const cm = codemode({ baseUrl: proxy.url });
  const direct = codemode({ baseUrl: url });
  const run = await cm.createAndWait(
    `const ok = await tools.${ops}.approvals.request({reason: "ship?"});\nreturn ok.approved`,
    { toolsets: [ops], timeoutMs: 30_000 },
  );
  assert.equal(run.status, "suspended");

  const streamed = (async () => {
    const events = [];
    for await (const e of cm.events(run.id, { reconnectPauseMs: 50 })) {
      events.push(e);
    }
    return events;
  })();
  for (let i = 0; i < 600 && proxy.streams < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(proxy.streams >= 2, "the stream was not opened again after it was cut");
  await direct.complete(run.id, run.pending[0].callId, { approved: true });

  const events = await streamed;
  assert.deepEqual(
    events.map((e) => e.seq),
    events.map((_, i) => i + 1),
  );
  const all = [];
  for await (const e of direct.events(run.id)) {
    all.push(e);
  }
  assert.deepEqual(events, all);
  assert.equal(events.at(-1)?.type, "finished");
});
