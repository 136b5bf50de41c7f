// The codemode client: openapi-fetch over the types openapi-typescript generates from
// api/openapi.yaml (src/schema.d.ts), and helpers for the common flows. Plain ESM JavaScript
// with JSDoc types, checked by `npm run check`.
import createClient from "openapi-fetch";

/** @typedef {import("./schema.js").paths} paths */
/** @typedef {import("./schema.js").components["schemas"]} schemas */
/** @typedef {schemas["Run"]} Run */
/** @typedef {schemas["RunStatus"]} RunStatus */
/** @typedef {schemas["Call"]} Call */
/** @typedef {schemas["Event"]} Event */
/** @typedef {schemas["Limits"]} Limits */
/** @typedef {schemas["WebhookTarget"]} WebhookTarget */
/** @typedef {schemas["OutcomeAccepted"]} OutcomeAccepted */
/** @typedef {import("openapi-fetch").Client<paths>} ApiClient */

/**
 * @typedef {object} ClientOptions
 * @property {string} [baseUrl] the service, default CODEMODE_URL or http://127.0.0.1:8080
 * @property {string} [token] sent as the bearer token (the service's CODEMODE_API_TOKEN)
 * @property {typeof globalThis.fetch} [fetch] the fetch to use
 */

/**
 * @typedef {object} RunOptions
 * @property {string[]} [toolsets] restricts the run to these toolsets (all when absent)
 * @property {Limits} [limits] lowers the worker's limits for the run
 * @property {WebhookTarget} [webhook] receives the run's events
 * @property {string} [idempotencyKey] a repeated create with the same program returns the first run
 * @property {number} [timeoutMs] how long createAndWait waits for the run to settle (default 60000)
 */

/** An error answer of the service. */
export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status
   * @param {unknown} body the answer: the API's error document, or its text
   */
  constructor(status, body) {
    const err = /** @type {{error?: {code?: string, message?: string}}} */ (
      typeof body === "object" && body !== null ? body : {}
    ).error;
    const code = err?.code ?? "";
    const message = err?.message ?? String(body);
    super(`codemode: HTTP ${status}${code ? `: ${code}` : ""}: ${message}`);
    this.name = "ApiError";
    /** @type {number} */
    this.status = status;
    /** @type {string} stable machine-readable code (not_found, conflict, ...) */
    this.code = code;
  }
}

/** Thrown when a run has not settled within a wait; `run` is the run as last seen. */
export class WaitTimeoutError extends Error {
  /** @param {Run} run */
  constructor(run) {
    super(`codemode: run ${run.id} is still ${run.status} after the wait`);
    this.name = "WaitTimeoutError";
    this.run = run;
  }
}

/** @type {ReadonlySet<RunStatus>} */
const finalStatuses = new Set(["succeeded", "failed", "cancelled"]);

/**
 * Whether the run finished: succeeded, failed or cancelled.
 * @param {Run} run
 */
export function finished(run) {
  return finalStatuses.has(run.status);
}

/**
 * Whether the run needs nothing more from the service to make progress: it finished, or it is
 * suspended on a call waiting for an outcome (a suspended run whose outcomes are all posted is
 * about to resume and is not settled).
 * @param {Run} run
 */
export function settled(run) {
  return finished(run) || (run.status === "suspended" && run.pending.length > 0);
}

/** The longest wait the service accepts in one request, in seconds. */
const maxWaitSeconds = 300;

/** @param {number} ms */
function waitSeconds(ms) {
  return Math.min(Math.ceil(Math.max(ms, 0) / 1000), maxWaitSeconds);
}

/**
 * @template T
 * @param {{data?: T, error?: unknown, response: Response}} answer
 * @returns {T}
 */
function unwrap(answer) {
  if (answer.data === undefined) {
    throw new ApiError(answer.response.status, answer.error);
  }
  return answer.data;
}

/**
 * Resolves after ms, or rejects with the signal's reason when it aborts first.
 * @param {number} ms
 * @param {AbortSignal} [signal]
 * @returns {Promise<void>}
 */
function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * A client of one codemode service.
 * @param {ClientOptions} [options]
 */
export function codemode(options = {}) {
  const baseUrl = (options.baseUrl ?? process.env.CODEMODE_URL ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
  /** @type {Record<string, string>} */
  const headers = options.token ? { Authorization: `Bearer ${options.token}` } : {};
  const fetchImpl = options.fetch ?? globalThis.fetch;
  /** Every operation of the API, typed from the OpenAPI document. */
  /** @type {ApiClient} */
  const api = createClient({ baseUrl, headers, fetch: fetchImpl });

  /**
   * The run; with waitMs, answers at its next status change or when the wait is over.
   * @param {string} id
   * @param {number} [waitMs]
   */
  async function get(id, waitMs = 0) {
    const wait = waitMs > 0 ? waitSeconds(waitMs) : undefined;
    return unwrap(await api.GET("/v1/runs/{id}", { params: { path: { id }, query: { wait } } }));
  }

  /**
   * The run once it has settled (see settled), asking the service to answer at each status
   * change. Throws WaitTimeoutError when timeoutMs passes first.
   * @param {string} id
   * @param {number} [timeoutMs]
   */
  async function wait(id, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    let run = await get(id);
    while (!settled(run)) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new WaitTimeoutError(run);
      }
      run = await get(id, left);
    }
    return run;
  }

  /**
   * Starts a run of code and waits until it has settled: the finished run, or the suspended
   * run with its pending calls. Throws WaitTimeoutError when options.timeoutMs passes first.
   * @param {string} code
   * @param {RunOptions} [options]
   */
  async function createAndWait(code, options = {}) {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    const run = unwrap(
      await api.POST("/v1/runs", {
        params: {
          query: { wait: waitSeconds(timeoutMs) },
          header: options.idempotencyKey ? { "Idempotency-Key": options.idempotencyKey } : {},
        },
        body: { code, toolsets: options.toolsets, limits: options.limits, webhook: options.webhook },
      }),
    );
    if (settled(run)) {
      return run;
    }
    return wait(run.id, deadline - Date.now());
  }

  /**
   * @param {string} id
   * @param {number} callId
   * @param {schemas["Outcome"]} outcome
   */
  async function postOutcome(id, callId, outcome) {
    return unwrap(await api.POST("/v1/runs/{id}/calls/{callId}", { params: { path: { id, callId } }, body: outcome }));
  }

  /**
   * Posts value as the successful outcome of the pending durable call; the run resumes with it.
   * @param {string} id
   * @param {number} callId
   * @param {unknown} value
   */
  function complete(id, callId, value) {
    return postOutcome(id, callId, { ok: true, value });
  }

  /**
   * Posts a failed outcome: the program's await of the call throws a ToolError with message.
   * @param {string} id
   * @param {number} callId
   * @param {string} message
   */
  function fail(id, callId, message) {
    return postOutcome(id, callId, { ok: false, error: { message } });
  }

  /**
   * The run's events with a sequence number above after, as the service writes them
   * (server-sent events), until the run has finished. A stream that breaks or ends before that
   * (a proxy's timeout, a restart of the service) is opened again after the last event yielded,
   * reconnectPauseMs (default 1000) later: every event is yielded once, in order. Breaking out
   * of the loop closes the stream; options.signal aborts it.
   * @param {string} id
   * @param {{after?: number, signal?: AbortSignal, reconnectPauseMs?: number}} [options]
   * @returns {AsyncGenerator<Event>}
   */
  async function* events(id, options = {}) {
    let after = options.after ?? 0;
    // The service ends a finished run's stream once every event was sent: a stream opened after
    // the run was seen finished, and ended without breaking, had them all.
    let finishedSeen = false;
    for (;;) {
      const url = `${baseUrl}/v1/runs/${encodeURIComponent(id)}/events?after=${after}`;
      const controller = new AbortController();
      const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
      const response = await fetchImpl(url, { headers: { ...headers, Accept: "text/event-stream" }, signal });
      if (!response.ok || !response.body) {
        const text = await response.text();
        let body;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        throw new ApiError(response.status, body);
      }
      let broken = false;
      try {
        for await (const data of sseData(response.body)) {
          const event = /** @type {Event} */ (JSON.parse(data));
          if (event.seq <= after) {
            continue; // given already (a stream that repeats itself)
          }
          yield event;
          after = event.seq;
        }
      } catch (err) {
        if (options.signal?.aborted || err instanceof SyntaxError) {
          throw err;
        }
        broken = true; // the stream broke: read on from the last event
      } finally {
        controller.abort();
      }
      if (finishedSeen && !broken) {
        return;
      }
      if (finished(await get(id))) {
        finishedSeen = true;
        continue;
      }
      await pause(options.reconnectPauseMs ?? 1000, options.signal);
    }
  }

  return { api, get, wait, createAndWait, complete, fail, events };
}

/**
 * The data of each server-sent event of a byte stream (its data lines joined by newlines);
 * comments and the other fields are ignored.
 * @param {AsyncIterable<Uint8Array>} stream
 * @returns {AsyncGenerator<string>}
 */
export async function* sseData(stream) {
  const decoder = new TextDecoder();
  let buffer = "";
  /** @type {string[] | null} */
  let data = null;
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      if (newline === buffer.length - 1 && buffer.endsWith("\r")) {
        break; // maybe the first half of a \r\n: wait for the next chunk
      }
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
      if (line === "") {
        if (data !== null) {
          yield data.join("\n");
        }
        data = null;
        continue;
      }
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) {
        value = value.slice(1);
      }
      if (field === "data") {
        (data ??= []).push(value);
      }
    }
  }
}
