// A program that asks for an approval: the run suspends on the call, the approval is posted,
// and the run resumes to return its value. Needs a service (CODEMODE_URL, default
// http://127.0.0.1:8080) with the test toolset registered as "ops"; see README.md.
import { codemode } from "./src/index.js";

const cm = codemode({ token: process.env.CODEMODE_API_TOKEN });

let run = await cm.createAndWait(`
  const {sum} = await tools.ops.math.add({a: 2, b: 40});
  const ok = await tools.ops.approvals.request({reason: "ship " + sum + "?"});
  return ok.approved ? sum : -1`);
const call = run.pending[0];
console.log(run.status, call.callId, call.path); // suspended 2 ops.approvals.request

await cm.complete(run.id, call.callId, { approved: true });
run = await cm.wait(run.id);
console.log(run.status, run.result?.value); // succeeded 42

for await (const event of cm.events(run.id)) {
  console.log(event.seq, event.type);
}
