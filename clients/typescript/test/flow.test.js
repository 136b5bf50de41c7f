// The create → suspend → approve → result flow against a real service: CODEMODE_URL names it,
// CODEMODE_TOOLSET the name the test toolset (internal/toolset/toolsettest) is registered
// under (default "ops"). Skipped without CODEMODE_URL.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ApiError, WaitTimeoutError, codemode, finished, settled } from "../src/index.js";

const url = process.env.CODEMODE_URL;
const ops = process.env.CODEMODE_TOOLSET ?? "ops";
const skip = url ? false : "CODEMODE_URL is not set";

const approval = `const {sum} = await tools.${ops}.math.add({a: 2, b: 40});
const ok = await tools.${ops}.approvals.request({reason: "ship " + sum + "?"});
return ok.approved ? sum : -1`;

test("create, suspend, approve, result", { skip }, async () => {
  const cm = codemode({ baseUrl: url });
  let run = await cm.createAndWait(approval, { toolsets: [ops], timeoutMs: 30_000 });
  assert.equal(run.status, "suspended");
  assert.ok(settled(run));
  assert.ok(!finished(run));
  assert.equal(run.pending.length, 1);
  const call = run.pending[0];
  assert.equal(call.callId, 2);
  assert.equal(call.path, `${ops}.approvals.request`);
  assert.equal(call.key, `${run.id}:2`);

  const streamed = (async () => {
    const types = [];
    for await (const e of cm.events(run.id)) {
      types.push(e.type);
    }
    return types;
  })();

  const accepted = await cm.complete(run.id, call.callId, { approved: true });
  assert.equal(accepted.status, "recorded");
  assert.equal((await cm.complete(run.id, call.callId, { approved: true })).status, "duplicate");
  await assert.rejects(cm.fail(run.id, call.callId, "changed my mind"), (err) => {
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 409);
    assert.equal(err.code, "conflict");
    return true;
  });

  run = await cm.wait(run.id, 30_000);
  assert.equal(run.status, "succeeded");
  assert.equal(run.result?.value, 42);

  const types = await streamed;
  assert.ok(types.includes("suspended"), `events ${types}`);
  assert.equal(types.at(-1), "finished");
});

test("a failed outcome fails the run", { skip }, async () => {
  const cm = codemode({ baseUrl: url });
  let run = await cm.createAndWait(approval);
  assert.equal(run.status, "suspended");
  await cm.fail(run.id, run.pending[0].callId, "not today");
  run = await cm.wait(run.id, 30_000);
  assert.equal(run.status, "failed");
  assert.match(JSON.stringify(run.result?.error), /not today/);
});

test("waits end with WaitTimeoutError, error answers are ApiErrors", { skip }, async () => {
  const cm = codemode({ baseUrl: url, token: "ignored by a service without a token" });
  await assert.rejects(cm.createAndWait(`await tools.${ops}.slow({ms: 3000}); return 1`, { timeoutMs: 200 }), (err) => {
    assert.ok(err instanceof WaitTimeoutError);
    assert.ok(!settled(err.run));
    return true;
  });
  await assert.rejects(cm.get("run_does_not_exist"), (err) => {
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 404);
    assert.equal(err.code, "not_found");
    return true;
  });
  await assert.rejects(cm.events("run_does_not_exist").next(), { status: 404 });
  const { data } = await cm.api.GET("/v1/toolsets");
  assert.ok(data?.toolsets.some((t) => t.name === ops));
});
