"""The create → suspend → approve → result flow against a real service: CODEMODE_URL names it,
CODEMODE_TOOLSET the name the test toolset (internal/toolset/toolsettest) is registered under
(default "ops"). The flow tests are skipped without CODEMODE_URL."""

import contextlib
import http.client
import http.server
import os
import socket
import threading
import unittest
import urllib.parse

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

    def test_events_give_each_event_once(self):
        """A stream opened again that repeats events given already (a server or proxy that
        ignores after) does not make events give them twice."""

        def event(seq, type_):
            return [f"id: {seq}\n".encode(), f'data: {{"seq":{seq},"type":"{type_}"}}\n'.encode(), b"\n"]

        class Repeating(Codemode):
            streams, gets = 0, 0

            def _open(self, method, path, body=None, query=None, headers=None):
                self.streams += 1
                lines = event(1, "created") + (event(2, "finished") if self.streams > 1 else [])
                return contextlib.nullcontext(lines)

            def get(self, run_id, wait=0):
                self.gets += 1
                return {"id": run_id, "status": "succeeded" if self.gets > 1 else "running"}

        cm = Repeating("http://127.0.0.1:1")
        cm.reconnect_pause = 0
        self.assertEqual([e["seq"] for e in cm.events("r1")], [1, 2])
        self.assertEqual(cm.streams, 3)


class CuttingProxy(http.server.ThreadingHTTPServer):
    """An HTTP proxy in front of the service that passes every request on, but cuts the first
    event stream it relays abruptly after its first event, as a proxy's timeout or a restart of
    the service would. streams counts the event streams relayed."""

    daemon_threads = True

    def __init__(self, upstream):
        super().__init__(("127.0.0.1", 0), _ProxyHandler)
        self.upstream = urllib.parse.urlsplit(upstream)
        self.streams = 0
        self.lock = threading.Lock()
        self.url = f"http://127.0.0.1:{self.server_address[1]}"
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def stop(self):
        self.shutdown()
        self.server_close()


class _ProxyHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _relay(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        up = self.server.upstream
        conn = http.client.HTTPConnection(up.hostname, up.port, timeout=60)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
        conn.request(self.command, self.path, body=body, headers=headers)
        resp = conn.getresponse()
        if not resp.getheader("Content-Type", "").startswith("text/event-stream"):
            data = resp.read()
            self.send_response(resp.status)
            for k, v in resp.getheaders():
                if k.lower() not in ("content-length", "transfer-encoding", "connection"):
                    self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            conn.close()
            return
        with self.server.lock:
            self.server.streams += 1
            cut = self.server.streams == 1
        self.send_response(resp.status)
        self.send_header("Content-Type", resp.getheader("Content-Type"))
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        has_data = False
        while True:
            line = resp.readline()
            if not line:
                break
            self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
            self.wfile.flush()
            has_data = has_data or line.startswith(b"data:")
            if cut and has_data and line in (b"\n", b"\r\n"):
                # The first event went through: the connection closes mid-stream.
                self.connection.shutdown(socket.SHUT_RDWR)
                self.close_connection = True
                conn.close()
                return
        self.wfile.write(b"0\r\n\r\n")
        conn.close()

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _relay


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

    def test_events_follow_the_run_across_a_broken_stream(self):
        proxy = CuttingProxy(URL)
        self.addCleanup(proxy.stop)
        cm = Codemode(proxy.url)
        cm.reconnect_pause = 0.05
        run = cm.create_and_wait(APPROVAL, toolsets=[OPS], timeout=30)
        self.assertEqual(run["status"], "suspended")

        events = []
        stream = threading.Thread(target=lambda: events.extend(cm.events(run["id"])))
        stream.start()
        for _ in range(600):
            if proxy.streams >= 2:
                break
            threading.Event().wait(0.05)
        self.assertGreaterEqual(proxy.streams, 2, "the stream was not opened again after it was cut")
        self.cm.complete(run["id"], run["pending"][0]["callId"], {"approved": True})

        stream.join(30)
        self.assertFalse(stream.is_alive(), "the events did not end after the run finished")
        self.assertEqual([e["seq"] for e in events], list(range(1, len(events) + 1)))
        self.assertEqual(events, list(self.cm.events(run["id"])))
        self.assertEqual(events[-1]["type"], "finished")

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
