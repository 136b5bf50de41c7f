"""Client of the codemode HTTP API (api/openapi.yaml), standard library only.

    from codemode_client import Codemode

    cm = Codemode("http://127.0.0.1:8080")
    run = cm.create_and_wait(program)        # suspended, with run["pending"]
    cm.complete(run["id"], run["pending"][0]["callId"], {"approved": True})
    run = cm.wait(run["id"])                 # succeeded, run["result"]["value"]
    for event in cm.events(run["id"]):
        print(event["seq"], event["type"])

Runs, calls and events are the API's JSON documents as dicts.
"""

import http.client
import json
import math
import os
import time
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["Codemode", "ApiError", "WaitTimeout", "settled", "finished", "sse_data"]

FINAL_STATUSES = ("succeeded", "failed", "cancelled")
MAX_WAIT_SECONDS = 300  # the longest wait the service accepts in one request


class ApiError(Exception):
    """An error answer of the service: status (HTTP), code (not_found, conflict, ...), message."""

    def __init__(self, status, code, message):
        super().__init__(f"codemode: HTTP {status}: {code + ': ' if code else ''}{message}")
        self.status = status
        self.code = code
        self.message = message


class WaitTimeout(Exception):
    """A run did not settle within a wait; run is the run as last seen."""

    def __init__(self, run):
        super().__init__(f"codemode: run {run['id']} is still {run['status']} after the wait")
        self.run = run


def finished(run):
    """Whether the run succeeded, failed or was cancelled."""
    return run["status"] in FINAL_STATUSES


def settled(run):
    """Whether the run needs nothing more from the service to make progress: it finished, or it
    is suspended on a call waiting for an outcome (a suspended run whose outcomes are all posted
    is about to resume and is not settled)."""
    return finished(run) or (run["status"] == "suspended" and len(run.get("pending") or []) > 0)


def _wait_seconds(seconds):
    return min(math.ceil(max(seconds, 0)), MAX_WAIT_SECONDS)


class Codemode:
    """A client of one codemode service.

    base_url defaults to CODEMODE_URL, then http://127.0.0.1:8080; a token is sent as the bearer
    token (the service's CODEMODE_API_TOKEN).
    """

    def __init__(self, base_url=None, token=None, timeout=330):
        self.base_url = (base_url or os.environ.get("CODEMODE_URL") or "http://127.0.0.1:8080").rstrip("/")
        self.token = token
        self.timeout = timeout  # seconds per HTTP request; above the longest wait
        self.reconnect_pause = 1.0  # seconds events waits before it opens a stream again

    def request(self, method, path, body=None, query=None, headers=None):
        """Sends a request to the API and returns its decoded JSON answer (None when empty).
        Error answers raise ApiError."""
        with self._open(method, path, body, query, headers) as resp:
            data = resp.read()
        return json.loads(data) if data else None

    def _open(self, method, path, body=None, query=None, headers=None):
        url = self.base_url + path
        query = {k: v for k, v in (query or {}).items() if v is not None}
        if query:
            url += "?" + urllib.parse.urlencode(query)
        req = urllib.request.Request(url, method=method)
        for name, value in (headers or {}).items():
            req.add_header(name, value)
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            req.add_header("Content-Type", "application/json")
        try:
            return urllib.request.urlopen(req, data=data, timeout=self.timeout)
        except urllib.error.HTTPError as e:
            text = e.read().decode("utf-8", "replace")
            e.close()
            try:
                err = json.loads(text)["error"]
                raise ApiError(e.code, err.get("code", ""), err.get("message", "")) from None
            except (ValueError, KeyError, TypeError):
                raise ApiError(e.code, "", text.strip()) from None

    def get(self, run_id, wait=0):
        """The run; with wait (seconds), answers at its next status change or when the wait is over."""
        query = {"wait": _wait_seconds(wait)} if wait > 0 else None
        return self.request("GET", "/v1/runs/" + urllib.parse.quote(run_id, safe=""), query=query)

    def wait(self, run_id, timeout=60):
        """The run once it has settled (see settled), asking the service to answer at each status
        change. Raises WaitTimeout when timeout (seconds) passes first."""
        deadline = time.monotonic() + timeout
        run = self.get(run_id)
        while not settled(run):
            left = deadline - time.monotonic()
            if left <= 0:
                raise WaitTimeout(run)
            run = self.get(run_id, wait=left)
        return run

    def create_and_wait(self, code, toolsets=None, limits=None, webhook=None, idempotency_key=None, timeout=60):
        """Starts a run of code and returns it once it has settled: finished, or suspended with
        its pending calls. Raises WaitTimeout when timeout (seconds) passes first."""
        deadline = time.monotonic() + timeout
        body = {"code": code}
        for name, value in (("toolsets", toolsets), ("limits", limits), ("webhook", webhook)):
            if value is not None:
                body[name] = value
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        run = self.request("POST", "/v1/runs", body, query={"wait": _wait_seconds(timeout)}, headers=headers)
        if settled(run):
            return run
        return self.wait(run["id"], deadline - time.monotonic())

    def _post_outcome(self, run_id, call_id, outcome):
        path = f"/v1/runs/{urllib.parse.quote(run_id, safe='')}/calls/{int(call_id)}"
        return self.request("POST", path, outcome)

    def complete(self, run_id, call_id, value):
        """Posts value as the successful outcome of the pending durable call; the run resumes
        with it. Returns the OutcomeAccepted document (status "recorded" or "duplicate")."""
        return self._post_outcome(run_id, call_id, {"ok": True, "value": value})

    def fail(self, run_id, call_id, message):
        """Posts a failed outcome: the program's await of the call throws a ToolError with message."""
        return self._post_outcome(run_id, call_id, {"ok": False, "error": {"message": message}})

    def events(self, run_id, after=0):
        """Yields the run's events with a sequence number above after, as the service writes them
        (server-sent events), until the run has finished. A stream that breaks or ends before
        that (a proxy's timeout, a restart of the service) is opened again after the last event
        yielded, reconnect_pause seconds later: every event is yielded once, in order."""
        path = "/v1/runs/" + urllib.parse.quote(run_id, safe="") + "/events"
        # The service ends a finished run's stream once every event was sent: a stream opened
        # after the run was seen finished, and ended without breaking, had them all.
        finished_seen = False
        while True:
            broken = False
            with self._open("GET", path, query={"after": after}, headers={"Accept": "text/event-stream"}) as resp:
                try:
                    for data in sse_data(resp):
                        event = json.loads(data)
                        if event["seq"] <= after:
                            continue  # given already (a stream that repeats itself)
                        yield event
                        after = event["seq"]
                except (OSError, http.client.HTTPException):
                    broken = True
            if finished_seen and not broken:
                return
            if finished(self.get(run_id)):
                finished_seen = True
                continue
            time.sleep(self.reconnect_pause)

def sse_data(lines):
    """Yields the data of each server-sent event of an iterable of lines (bytes or str): its data
    lines joined by newlines. Comments and the other fields are ignored."""
    data = None
    for line in lines:
        if isinstance(line, bytes):
            line = line.decode("utf-8")
        line = line.rstrip("\r\n")
        if line == "":
            if data is not None:
                yield "\n".join(data)
            data = None
            continue
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "data":
            data = (data or []) + [value]
