import assert from "node:assert/strict";
import { test } from "node:test";

import { sseData } from "../src/index.js";

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
