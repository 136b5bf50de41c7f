"""A program that asks for an approval: the run suspends on the call, the approval is posted, and
the run resumes to return its value. Needs a service (CODEMODE_URL, default
http://127.0.0.1:8080) with the test toolset registered as "ops"; see README.md."""

import os

from codemode_client import Codemode

cm = Codemode(token=os.environ.get("CODEMODE_API_TOKEN"))
run = cm.create_and_wait("""
const {sum} = await tools.ops.math.add({a: 2, b: 40});
const ok = await tools.ops.approvals.request({reason: "ship " + sum + "?"});
return ok.approved ? sum : -1""")
call = run["pending"][0]
print(run["status"], call["callId"], call["path"])  # suspended 2 ops.approvals.request

cm.complete(run["id"], call["callId"], {"approved": True})
run = cm.wait(run["id"])
print(run["status"], run["result"]["value"])  # succeeded 42

for event in cm.events(run["id"]):
    print(event["seq"], event["type"])
