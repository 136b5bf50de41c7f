import assert from "node:assert/strict";
import { test } from "node:test";

import { codemode, sseData } from "../src/index.js";

/** @param {string[]} chunks */
async function* bytes(chunks) {
  const encoder = new TextEncoder();
  for (const c of chunks) {
    yield encoder.encode(c);
  }
}

/** @param {string[]} chunks */
async function collect(chunks) {
  const out = [];
  for await (const d of sseData(bytes(chunks))) {
    out.push(d);
  }
  return out;
}

test("sseData yields each event's data, however the stream is cut", async () => {
  const stream = 'id: 1\nevent: started\ndata: {"seq":1}\n\n: comment\n\nid: 2\r\ndata: a\r\ndata:b\r\n\r\n';
  assert.deepEqual(await collect([stream]), ['{"seq":1}', "a\nb"]);
  assert.deepEqual(await collect(stream.split("")), ['{"seq":1}', "a\nb"]);
  assert.deepEqual(await collect(["data: unfinished"]), []);
});

test("events give each event once when a stream repeats itself", async () => {
  // A server (or proxy) that ignores after: every stream starts again from the first event.
  let streams = 0;
  let gets = 0;
  /** @param {number} seq @param {string} type */
  const event = (seq, type) => `id: ${seq}\ndata: {"seq":${seq},"type":"${type}"}\n\n`;
  /** @type {typeof globalThis.fetch} */
  const fetch = async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith("/events")) {
      streams++;
      const text = event(1, "created") + (streams > 1 ? event(2, "finished") : "");
      return new Response(text, { headers: { "Content-Type": "text/event-stream" } });
    }
    gets++;
    return Response.json({ id: "r1", status: gets > 1 ? "succeeded" : "running", pending: [] });
  };
  const cm = codemode({ baseUrl: "http://127.0.0.1:1", fetch });
  const seqs = [];
  for await (const e of cm.events("r1", { reconnectPauseMs: 0 })) {
    seqs.push(e.seq);
  }
  assert.deepEqual(seqs, [1, 2]);
  assert.equal(streams, 3);
});
