"""The create → suspend → approve → result flow against a real service: CODEMODE_URL names it,
CODEMODE_TOOLSET the name the test toolset (internal/toolset/toolsettest) is registered under
(default "ops"). The flow tests are skipped without CODEMODE_URL."""

import os
import threading
import unittest

from codemode_client import ApiError, Codemode, WaitTimeout, finished, settled, sse_data

URL = os.environ.get("CODEMODE_URL")
OPS = os.environ.get("CODEMODE_TOOLSET", "ops")
APPROVAL = f"""const {{sum}} = await tools.{OPS}.math.add({{a: 2, b: 40}});
const ok = await tools.{OPS}.approvals.request({{reason: "ship " + sum + "?"}});
return ok.approved ? sum : -1"""


class SSETest(unittest.TestCase):
    def test_sse_data(self):
        lines = [b"id: 1\n", b"event: started\n", b'data: {"seq":1}\n', b"\n", b": comment\n", b"\n",
                 "data: a\r\n", "data:b\r\n", "\r\n", "data: unfinished\n"]
        self.assertEqual(list(sse_data(lines)), ['{"seq":1}', "a\nb"])


@unittest.skipUnless(URL, "CODEMODE_URL is not set")
class FlowTest(unittest.TestCase):
    def setUp(self):
        self.cm = Codemode(URL)

    def test_create_suspend_approve_result(self):
        cm = self.cm
        run = cm.create_and_wait(APPROVAL, toolsets=[OPS], timeout=30)
        self.assertEqual(run["status"], "suspended")
        self.assertTrue(settled(run))
        self.assertFalse(finished(run))
        self.assertEqual(len(run["pending"]), 1)
        call = run["pending"][0]
        self.assertEqual(call["callId"], 2)
        self.assertEqual(call["path"], f"{OPS}.approvals.request")
        self.assertEqual(call["key"], f"{run['id']}:2")

        types = []
        stream = threading.Thread(target=lambda: types.extend(e["type"] for e in cm.events(run["id"])))
        stream.start()

        self.assertEqual(cm.complete(run["id"], call["callId"], {"approved": True})["status"], "recorded")
        self.assertEqual(cm.complete(run["id"], call["callId"], {"approved": True})["status"], "duplicate")
        with self.assertRaises(ApiError) as ctx:
            cm.fail(run["id"], call["callId"], "changed my mind")
        self.assertEqual((ctx.exception.status, ctx.exception.code), (409, "conflict"))

        run = cm.wait(run["id"], timeout=30)
        self.assertEqual(run["status"], "succeeded")
        self.assertEqual(run["result"]["value"], 42)

        stream.join(30)
        self.assertFalse(stream.is_alive(), "the event stream did not end after the run finished")
        self.assertIn("suspended", types)
        self.assertEqual(types[-1], "finished")

    def test_failed_outcome_fails_the_run(self):
        cm = self.cm
        run = cm.create_and_wait(APPROVAL)
        self.assertEqual(run["status"], "suspended")
        cm.fail(run["id"], run["pending"][0]["callId"], "not today")
        run = cm.wait(run["id"], timeout=30)
        self.assertEqual(run["status"], "failed")
        self.assertIn("not today", run["result"]["error"]["message"])

    def test_timeouts_and_errors(self):
        cm = Codemode(URL, token="ignored by a service without a token")
        with self.assertRaises(WaitTimeout) as ctx:
            cm.create_and_wait(f"await tools.{OPS}.slow({{ms: 3000}}); return 1", timeout=0.2)
        self.assertFalse(settled(ctx.exception.run))
        self.assertEqual(cm.wait(ctx.exception.run["id"], timeout=30)["result"]["value"], 1)
        with self.assertRaises(ApiError) as ctx:
            cm.get("run_does_not_exist")
        self.assertEqual((ctx.exception.status, ctx.exception.code), (404, "not_found"))
        with self.assertRaises(ApiError) as ctx:
            list(cm.events("run_does_not_exist"))
        self.assertEqual(ctx.exception.status, 404)
        names = [t["name"] for t in cm.request("GET", "/v1/toolsets")["toolsets"]]
        self.assertIn(OPS, names)


if __name__ == "__main__":
    unittest.main()
