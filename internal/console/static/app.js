// The codemode console: pages over the public /v1 API, rendered in the browser.
//
// Everything a run carries (its code, input, result, logs, tool arguments and outcomes) is
// untrusted. The DOM is built with createElement and text nodes only (see h); no API data is
// ever parsed as HTML, and the server's Content-Security-Policy refuses inline script besides.
'use strict';

(function () {
  const TOKEN_KEY = 'codemode.token';
  const DRAFT_KEY = 'codemode.draft';
  const STATUSES = ['queued', 'running', 'suspended', 'succeeded', 'failed', 'cancelled'];
  const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);
  const WEBHOOK_EVENTS = ['run.suspended', 'run.completed', 'run.failed', 'run.cancelled', 'call.pending'];
  const main = document.getElementById('main');
  const session = document.getElementById('session');

  // ---- DOM helpers -------------------------------------------------------------------------

  // h builds an element. Strings among the children become text nodes, so data is always
  // shown as text; attributes are set one by one (event handlers as listeners, never as
  // attribute text, which the CSP would refuse anyway).
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else if (k === 'class') el.className = v;
      else if (k === 'value') el.value = v;
      else if (k === 'checked' || k === 'disabled' || k === 'selected') el[k] = Boolean(v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
    return append(el, ...children);
  }

  function append(el, ...children) {
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  function fill(el, ...children) {
    el.replaceChildren();
    return append(el, ...children);
  }

  function json(v) {
    return JSON.stringify(v, null, 2);
  }

  function compact(v) {
    return JSON.stringify(v);
  }

  function pad(n, w) {
    return String(n).padStart(w || 2, '0');
  }

  function fmtTime(iso) {
    if (!iso) return '';
    const d = new Date(iso);
    if (isNaN(d)) return iso;
    return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + ' ' +
      pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds()) + '.' + pad(d.getMilliseconds(), 3);
  }

  function fmtMs(ms) {
    if (ms === null || ms === undefined || isNaN(ms)) return '';
    if (ms < 1000) return Math.round(ms) + ' ms';
    if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
    return Math.floor(ms / 60000) + ' min ' + Math.round((ms % 60000) / 1000) + ' s';
  }

  function fmtBytes(n) {
    if (typeof n !== 'number') return '';
    if (n < 1024) return n + ' B';
    if (n < 1024 * 1024) return (n / 1024).toFixed(1) + ' KiB';
    return (n / (1024 * 1024)).toFixed(1) + ' MiB';
  }

  // summary is the first line of a program that says something, cut to 80 characters.
  function summary(code) {
    const line = (code || '').split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('//')) || '';
    return line.length > 80 ? line.slice(0, 79) + '…' : line;
  }

  function statusBadge(status, extra) {
    return h('span', Object.assign({class: 'status status-' + status}, extra || {}), status);
  }

  function runLink(id, text) {
    return h('a', {href: '#/runs/' + encodeURIComponent(id), class: 'mono'}, text || id);
  }

  function scheduleLink(id, text, attrs) {
    return h('a', Object.assign({href: '#/schedules/' + encodeURIComponent(id), class: 'mono'}, attrs || {}), text || id);
  }

  function errorBox(err) {
    return h('p', {class: 'error', role: 'alert'}, err && err.message ? err.message : String(err));
  }

  // confirmButton asks before a destructive action with a second click, not a blocking dialog:
  // the first click turns the button into the question for 5 s, the second runs action.
  function confirmButton(attrs, label, question, action) {
    let armed = null;
    const b = h('button', Object.assign({type: 'button'}, attrs, {onclick: async () => {
      if (!armed) {
        b.textContent = question;
        b.classList.add('armed');
        armed = setTimeout(() => {
          armed = null;
          b.textContent = label;
          b.classList.remove('armed');
        }, 5000);
        return;
      }
      clearTimeout(armed);
      armed = null;
      b.textContent = label;
      b.classList.remove('armed');
      b.disabled = true;
      try {
        await action();
      } finally {
        b.disabled = false;
      }
    }}), label);
    return b;
  }

  function section(title, id, ...children) {
    return h('section', {id: id}, h('h2', null, title), children);
  }

  // codeList shows a program a line per item, numbered by the style sheet; decorate(li, n), when
  // given, marks line n.
  function codeList(code, id, decorate) {
    return h('ol', {class: 'code', id: id}, code.split('\n').map((text, i) => {
      const li = h('li', {class: 'line', 'data-line': i + 1}, h('span', {class: 'text'}, text === '' ? ' ' : text));
      if (decorate) decorate(li, i + 1);
      return li;
    }));
  }

  // syncRows makes tbody show one row per item, in the items' order. A row is made once per key
  // (make returns {tr, update}) and kept while its item is listed, update given each new version:
  // a list refreshed every second does not replace the link being clicked or the button
  // half-confirmed under the pointer.
  function syncRows(tbody, rows, items, keyOf, make) {
    const seen = new Set();
    items.forEach((item, i) => {
      const key = keyOf(item);
      let row = rows.get(key);
      if (!row) {
        row = make(item);
        rows.set(key, row);
      }
      if (row.update) row.update(item);
      seen.add(key);
      if (tbody.children[i] !== row.tr) tbody.insertBefore(row.tr, tbody.children[i] || null);
    });
    for (const [key, row] of rows) {
      if (seen.has(key)) continue;
      row.tr.remove();
      rows.delete(key);
    }
  }

  // ---- the API -----------------------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, code, message) {
      super(message);
      this.status = status;
      this.code = code;
    }
  }

  function token() {
    return sessionStorage.getItem(TOKEN_KEY) || '';
  }

  function authHeaders(extra) {
    const headers = Object.assign({}, extra || {});
    const t = token();
    if (t) headers.Authorization = 'Bearer ' + t;
    return headers;
  }

  async function api(method, path, body, signal, extraHeaders) {
    const headers = authHeaders(Object.assign({Accept: 'application/json'}, extraHeaders || {}));
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const resp = await fetch(path, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: signal,
      cache: 'no-store',
    });
    const text = await resp.text();
    let data = null;
    if (text) {
      try {
        data = JSON.parse(text);
      } catch (e) {
        data = null;
      }
    }
    if (!resp.ok) {
      const e = (data && data.error) || {};
      if (resp.status === 401) needLogin('The service refused the token.');
      throw new ApiError(resp.status, e.code || 'http_' + resp.status, e.message || resp.status + ' ' + resp.statusText);
    }
    return {status: resp.status, data: data};
  }

  function runPath(id) {
    return '/v1/runs/' + encodeURIComponent(id);
  }

  // streamEvents reads the run's events as server-sent events through fetch (EventSource cannot
  // send the bearer token), calling onEvent for each; it resolves when the server ends the stream
  // (the run finished and every event was sent) and rejects when the connection fails.
  async function streamEvents(id, after, signal, onEvent) {
    const resp = await fetch(runPath(id) + '/events?after=' + after, {
      headers: authHeaders({Accept: 'text/event-stream'}),
      signal: signal,
      cache: 'no-store',
    });
    if (!resp.ok) {
      if (resp.status === 401) needLogin('The service refused the token.');
      throw new ApiError(resp.status, 'http_' + resp.status, 'event stream: ' + resp.status + ' ' + resp.statusText);
    }
    const reader = resp.body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    let data = [];
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return;
      buf += decoder.decode(value, {stream: true});
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).replace(/\r$/, '');
        buf = buf.slice(nl + 1);
        if (line === '') {
          if (data.length) {
            try {
              onEvent(JSON.parse(data.join('\n')));
            } catch (e) {
              // A malformed event is skipped; the next refresh of the timeline shows it.
            }
          }
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(line.slice(5).replace(/^ /, ''));
        }
      }
    }
  }

  // sleep waits ms milliseconds, or until the signal aborts (then it rejects).
  function sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const t = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => {
        clearTimeout(t);
        reject(signal.reason);
      }, {once: true});
    });
  }

  // poll calls load until the signal aborts, waiting between calls: 1 s after a change, twice
  // as long (up to max) each time nothing changed or the call failed. load returns whether
  // something changed.
  async function poll(load, signal, max) {
    let delay = 1000;
    while (!signal.aborted) {
      try {
        await sleep(delay, signal);
        // A hidden tab asks less and less often, as if nothing changed.
        const changed = document.hidden ? false : await load();
        delay = changed ? 1000 : Math.min(delay * 2, max || 16000);
      } catch (e) {
        if (signal.aborted) return;
        delay = Math.min(delay * 2, 30000);
      }
    }
  }

  // loadAndPoll shows a page's first load, then polls it (see poll); a load that fails shows
  // its error in err.
  async function loadAndPoll(load, err, signal) {
    try {
      await load();
    } catch (e) {
      fill(err, errorBox(e));
    }
    poll(async () => {
      try {
        return await load();
      } catch (e) {
        if (!signal.aborted) fill(err, errorBox(e));
        throw e;
      }
    }, signal);
  }

  // ---- login -------------------------------------------------------------------------------

  let loginMessage = '';
  let loginNeeded = false;

  function needLogin(message) {
    if (token()) sessionStorage.removeItem(TOKEN_KEY);
    loginMessage = message || '';
    if (!loginNeeded) {
      loginNeeded = true;
      route();
    }
  }

  function renderSession(mode) {
    if (mode === 'token') {
      fill(session, h('span', {class: 'muted'}, 'signed in '), h('button', {
        type: 'button', id: 'logout', class: 'link', onclick: () => {
          sessionStorage.removeItem(TOKEN_KEY);
          needLogin('Signed out.');
        },
      }, 'Sign out'));
    } else if (mode === 'open') {
      fill(session, h('span', {class: 'muted', title: 'The service has no token and listens on loopback only'}, 'no token needed'));
    } else {
      fill(session);
    }
  }

  // probe asks the API once whether the current token (or none) is accepted.
  async function probe() {
    const resp = await fetch('/v1/toolsets', {headers: authHeaders({Accept: 'application/json'}), cache: 'no-store'});
    if (resp.status === 401) return false;
    if (!resp.ok) {
      let msg = resp.status + ' ' + resp.statusText;
      try {
        msg = (await resp.json()).error.message;
      } catch (e) {
        // keep the status line
      }
      throw new Error(msg);
    }
    return true;
  }

  function loginPage() {
    renderSession('');
    const input = h('input', {type: 'password', id: 'login-token', name: 'token', autocomplete: 'current-password', required: true, size: 40});
    const msg = h('p', {id: 'login-message', class: loginMessage ? 'error' : 'muted'}, loginMessage || 'This service needs its API token (CODEMODE_API_TOKEN). It is kept in this tab only.');
    const form = h('form', {id: 'login-form', onsubmit: async (ev) => {
      ev.preventDefault();
      sessionStorage.setItem(TOKEN_KEY, input.value.trim());
      try {
        if (await probe()) {
          loginNeeded = false;
          loginMessage = '';
          route();
          return;
        }
        sessionStorage.removeItem(TOKEN_KEY);
        msg.className = 'error';
        fill(msg, 'The service refused this token.');
      } catch (e) {
        msg.className = 'error';
        fill(msg, e.message);
      }
    }},
    h('label', {for: 'login-token'}, 'API token '), input, ' ', h('button', {type: 'submit'}, 'Sign in'));
    fill(main, h('h1', null, 'Sign in'), msg, form);
    input.focus();
  }

  // ---- runs --------------------------------------------------------------------------------

  async function runsPage(params, signal) {
    const status = params.get('status') || '';
    const toolset = params.get('toolset') || '';
    // The runs a schedule started: set from a schedule's page, kept while the other filters
    // change, dropped with its own link.
    const schedule = params.get('schedule') || '';
    const statusSel = h('select', {id: 'filter-status', name: 'status'},
      h('option', {value: ''}, 'any status'),
      STATUSES.map((s) => h('option', {value: s, selected: s === status}, s)));
    const toolsetSel = h('select', {id: 'filter-toolset', name: 'toolset'}, h('option', {value: ''}, 'any toolset'));
    const applyFilters = () => {
      const q = new URLSearchParams();
      if (statusSel.value) q.set('status', statusSel.value);
      if (toolsetSel.value) q.set('toolset', toolsetSel.value);
      if (schedule) q.set('schedule', schedule);
      const s = q.toString();
      location.hash = '#/runs' + (s ? '?' + s : '');
    };
    let scheduleFilter = null;
    if (schedule) {
      const q = new URLSearchParams();
      if (status) q.set('status', status);
      if (toolset) q.set('toolset', toolset);
      const s = q.toString();
      scheduleFilter = h('span', {id: 'filter-schedule'}, 'Started by schedule ', scheduleLink(schedule), ' ',
        h('a', {href: '#/runs' + (s ? '?' + s : ''), id: 'filter-schedule-clear', title: 'Show the runs of every schedule and none'}, '(any)'), ' ');
    }
    statusSel.addEventListener('change', applyFilters);
    toolsetSel.addEventListener('change', applyFilters);
    const rows = h('tbody', {id: 'runs-rows'});
    const info = h('p', {class: 'muted', id: 'runs-info'});
    const more = h('button', {type: 'button', id: 'runs-more', hidden: true}, 'Show more');
    const err = h('div');
    fill(main,
      h('h1', null, 'Runs'),
      h('form', {class: 'filters', onsubmit: (e) => e.preventDefault()},
        h('label', null, 'Status ', statusSel), ' ', h('label', null, 'Toolset ', toolsetSel), ' ',
        scheduleFilter, h('a', {href: '#/runs/new', class: 'button'}, 'New run')),
      err,
      h('table', {class: 'list', id: 'runs-table'},
        h('thead', null, h('tr', null, ['Run', 'Status', 'Code', 'Toolsets', 'Created', 'Finished'].map((t) => h('th', null, t)))),
        rows),
      more, info);

    api('GET', '/v1/toolsets', undefined, signal).then((r) => {
      for (const ts of r.data.toolsets) append(toolsetSel, h('option', {value: ts.name, selected: ts.name === toolset}, ts.name));
      // A filter on a toolset deleted since still shows what it asked for.
      if (toolset && !r.data.toolsets.some((ts) => ts.name === toolset)) append(toolsetSel, h('option', {value: toolset, selected: true}, toolset));
    }).catch((e) => {
      if (!signal.aborted) append(err, errorBox(new Error('Listing the toolsets: ' + e.message)));
    });

    let limit = 50;
    let last = '';
    async function load() {
      const q = new URLSearchParams({limit: String(limit)});
      if (status) q.set('status', status);
      if (toolset) q.set('toolset', toolset);
      if (schedule) q.set('schedule', schedule);
      let r;
      try {
        r = await api('GET', '/v1/runs?' + q, undefined, signal);
      } catch (e) {
        if (!signal.aborted) fill(err, errorBox(e));
        throw e;
      }
      fill(err);
      fill(info, 'Updated ' + fmtTime(new Date().toISOString()) + '; checked again while this page is open.');
      more.hidden = !r.data.next || limit >= 500;
      const key = compact(r.data.runs);
      if (key === last) return false;
      last = key;
      fill(rows, r.data.runs.length ? r.data.runs.map((run) => h('tr', {'data-run-id': run.id, 'data-status': run.status},
        h('td', null, runLink(run.id, run.id.slice(0, 8))),
        h('td', null, statusBadge(run.status)),
        h('td', {class: 'mono code-summary'}, summary(run.code)),
        h('td', null, run.toolsets ? run.toolsets.join(', ') : h('span', {class: 'muted'}, 'all')),
        h('td', null, fmtTime(run.createdAt)),
        h('td', null, fmtTime(run.finishedAt)))) : h('tr', null, h('td', {colspan: 6, class: 'muted'}, 'No runs.')));
      return true;
    }
    more.addEventListener('click', () => {
      limit = Math.min(limit + 50, 500);
      load().catch(() => {});
    });
    await load().catch(() => {});
    poll(load, signal);
  }

  // programFields are the inputs a run and a schedule share (program, toolsets, input and
  // timeout), their ids starting with prefix and filled from draft (a run or schedule's fields).
  // read() gives what they hold as the fields of the body to post; it throws when the input is
  // not JSON, so a bad input is never posted.
  function programFields(prefix, draft) {
    const code = h('textarea', {id: prefix + '-code', name: 'code', rows: 14, cols: 80, spellcheck: 'false', required: true,
      value: draft.code});
    const toolsets = h('input', {id: prefix + '-toolsets', name: 'toolsets', size: 40, placeholder: 'all toolsets', value: (draft.toolsets || []).join(', ')});
    const input = h('textarea', {id: prefix + '-input', name: 'input', rows: 4, cols: 80, spellcheck: 'false', placeholder: 'none',
      value: draft.input === undefined ? '' : json(draft.input)});
    const timeout = h('input', {id: prefix + '-timeout', name: 'timeoutMs', type: 'number', min: 1, placeholder: 'worker default',
      value: draft.limits && draft.limits.timeoutMs});
    return {
      code: h('p', null, h('label', {for: code.id}, 'Program'), h('br'), code),
      rest: [
        h('p', null, h('label', {for: toolsets.id}, 'Toolsets (comma-separated) '), toolsets),
        h('p', null, h('label', {for: input.id}, 'Input (JSON)'), h('br'), input),
        h('p', null, h('label', {for: timeout.id}, 'Timeout (ms) '), timeout)],
      read() {
        const body = {code: code.value};
        const names = toolsets.value.split(',').map((s) => s.trim()).filter(Boolean);
        if (names.length) body.toolsets = names;
        if (input.value.trim()) {
          try {
            body.input = JSON.parse(input.value);
          } catch (e) {
            throw new Error('Input is not JSON: ' + e.message);
          }
        }
        if (timeout.value) body.limits = {timeoutMs: Number(timeout.value)};
        return body;
      },
    };
  }

  function newRunPage() {
    let draft = {};
    try {
      draft = JSON.parse(sessionStorage.getItem(DRAFT_KEY) || '{}') || {};
    } catch (e) {
      draft = {};
    }
    sessionStorage.removeItem(DRAFT_KEY);
    const fields = programFields('new', Object.assign({}, draft,
      {code: draft.code || 'const {sum} = await tools.ops.math.add({a: 2, b: 40})\nreturn sum'}));
    const err = h('div');
    const form = h('form', {id: 'new-run-form', onsubmit: async (ev) => {
      ev.preventDefault();
      fill(err);
      let body;
      try {
        body = fields.read();
      } catch (e) {
        fill(err, errorBox(e));
        return;
      }
      try {
        const r = await api('POST', '/v1/runs', body);
        location.hash = '#/runs/' + encodeURIComponent(r.data.id);
      } catch (e) {
        fill(err, errorBox(e));
      }
    }},
    fields.code, fields.rest,
    err,
    h('button', {type: 'submit', id: 'new-run-submit'}, 'Start run'));
    fill(main, h('h1', null, 'New run'), form);
  }

  // ---- one run -----------------------------------------------------------------------------

  async function runPage(id, signal) {
    const st = {run: null, calls: [], events: [], deliveries: [], headKey: null, pendingKey: null, codeKey: null};
    const head = h('div', {id: 'run-head'});
    const err = h('div', {id: 'run-error'});
    const pending = h('section', {id: 'pending', hidden: true});
    const result = section('Result', 'result');
    const code = section('Code', 'code');
    const input = section('Input', 'input', h('p', {class: 'muted'}, 'none'));
    const logs = section('Logs', 'logs');
    const calls = section('Tool calls', 'calls');
    const timeline = section('Timeline', 'timeline');
    const deliveries = h('section', {id: 'run-deliveries', hidden: true});
    fill(main, head, err, pending, result, code, input, logs, calls, timeline, deliveries);

    function renderHead() {
      const run = st.run;
      // Unchanged, the head is left as it is: a half-confirmed Cancel stays so.
      const key = compact([run.status, run.updatedAt, run.finishedAt]);
      if (key === st.headKey) return;
      st.headKey = key;
      const actions = [];
      if (!FINISHED.has(run.status)) {
        actions.push(confirmButton({id: 'run-cancel'}, 'Cancel run', 'Really cancel?', async () => {
          try {
            await api('POST', runPath(id) + '/cancel');
            await refresh();
          } catch (e) {
            fill(err, errorBox(e));
          }
        }));
      }
      actions.push(h('button', {type: 'button', id: 'run-again', onclick: () => {
        sessionStorage.setItem(DRAFT_KEY, JSON.stringify({code: run.code, toolsets: run.toolsets, input: run.input}));
        location.hash = '#/runs/new';
      }}, 'Edit as new run'));
      fill(head,
        h('h1', null, 'Run ', h('span', {class: 'mono'}, run.id), ' ', statusBadge(run.status, {id: 'run-status'})),
        h('dl', {class: 'meta'},
          h('dt', null, 'Toolsets'), h('dd', null, run.toolsets ? run.toolsets.join(', ') : 'all'),
          h('dt', null, 'Limits'), h('dd', {class: 'mono'}, run.limits && Object.keys(run.limits).length ? compact(run.limits) : 'worker defaults'),
          // The schedule may be deleted since: the link is kept (its page then says so).
          run.lineage && run.lineage.scheduleId ? [h('dt', null, 'Schedule'), h('dd', null,
            scheduleLink(run.lineage.scheduleId, null, {id: 'run-schedule'}),
            run.lineage.scheduledFor ? ', tick ' + fmtTime(run.lineage.scheduledFor) : null)] : null,
          h('dt', null, 'Created'), h('dd', null, fmtTime(run.createdAt)),
          h('dt', null, 'Updated'), h('dd', null, fmtTime(run.updatedAt)),
          run.finishedAt ? [h('dt', null, 'Finished'), h('dd', null, fmtTime(run.finishedAt), ' (', fmtMs(new Date(run.finishedAt) - new Date(run.createdAt)), ' after creation)')] : null),
        h('p', {class: 'actions'}, actions));
    }

    function renderPending() {
      const list = st.run.pending || [];
      const key = compact(list.map((c) => c.callId));
      if (key === st.pendingKey) return;
      st.pendingKey = key;
      pending.hidden = list.length === 0;
      fill(pending, h('h2', null, 'Pending calls'), list.map(pendingCall));
    }

    // pendingCall is a durable call waiting for its outcome, with forms posting one: Approve
    // resolves the program's promise with the JSON value, Deny rejects it with the message.
    function pendingCall(call) {
      const value = h('textarea', {class: 'approve-value', rows: 3, cols: 60, spellcheck: 'false', value: '{"approved": true}'});
      const reason = h('input', {class: 'deny-message', size: 40, value: 'denied in the console'});
      const status = h('p', {class: 'post-status', role: 'status'});
      // What the program expects back: the tool's signature from the catalog, when it has one.
      const expects = h('dd', {class: 'muted'}, '…');
      toolSignature(call.path).then((sig) => fill(expects, sig ? h('pre', {class: 'signature'}, sig) : 'unknown'))
        .catch(() => fill(expects, 'unknown'));
      async function post(body) {
        fill(status, 'Posting…');
        status.className = 'post-status muted';
        try {
          const r = await api('POST', runPath(id) + '/calls/' + call.callId, body);
          fill(status, 'Outcome ' + r.data.status + '.');
          await refresh();
        } catch (e) {
          status.className = 'post-status error';
          fill(status, e.message);
        }
      }
      return h('div', {class: 'pending-call card', 'data-call-id': call.callId},
        h('h3', null, h('span', {class: 'mono'}, call.path), ' ', h('span', {class: 'muted'}, 'call ' + call.callId)),
        h('dl', {class: 'meta'},
          h('dt', null, 'Arguments'), h('dd', null, h('pre', {class: 'args'}, json(call.args))),
          call.handle !== undefined ? [h('dt', null, 'Handle'), h('dd', null, h('pre', null, json(call.handle)))] : null,
          h('dt', null, 'Waiting since'), h('dd', null, fmtTime(call.startedAt)),
          h('dt', null, 'Signature'), expects),
        h('form', {class: 'approve-form', onsubmit: (ev) => {
          ev.preventDefault();
          let v;
          try {
            v = value.value.trim() === '' ? null : JSON.parse(value.value);
          } catch (e) {
            status.className = 'post-status error';
            fill(status, 'The value is not JSON: ' + e.message);
            return;
          }
          post({ok: true, value: v});
        }}, h('label', null, 'Value (JSON)', h('br'), value), h('br'), h('button', {type: 'submit', class: 'approve'}, 'Approve')),
        h('form', {class: 'deny-form', onsubmit: (ev) => {
          ev.preventDefault();
          post({ok: false, error: {message: reason.value || 'denied'}});
        }}, h('label', null, 'Message ', reason), ' ', h('button', {type: 'submit', class: 'deny'}, 'Deny')),
        status);
    }

    // toolSignature looks a tool up in the catalog of its toolset (the path's first part), once
    // per toolset and page.
    const catalogs = new Map();
    async function toolSignature(path) {
      const toolset = path.split('.')[0];
      if (!catalogs.has(toolset)) {
        catalogs.set(toolset, api('GET', '/v1/catalog?toolsets=' + encodeURIComponent(toolset), undefined, signal)
          .then((r) => r.data.tools));
      }
      const tool = (await catalogs.get(toolset)).find((t) => t.path === path);
      return tool ? tool.signature : '';
    }

    function renderResult() {
      const run = st.run;
      const r = run.result;
      if (!r) {
        fill(result, h('h2', null, 'Result'), h('p', {class: 'muted', id: 'result-none'},
          run.status === 'cancelled' ? 'Cancelled runs have no result.' : 'No result yet.'));
        return;
      }
      const parts = [h('h2', null, 'Result')];
      if (r.ok) {
        parts.push(h('pre', {id: 'result-value', class: 'value'}, json(r.value === undefined ? null : r.value)));
        if (r.truncated) parts.push(h('p', {class: 'warning'}, 'The output was cut to maxOutputBytes.'));
      } else if (r.error) {
        parts.push(h('div', {id: 'result-error', class: 'diagnostic'},
          h('strong', {class: 'kind'}, r.error.kind), ': ', h('span', {class: 'message'}, r.error.message),
          r.error.line ? [' ', h('a', {href: '#', class: 'goto-line', onclick: (ev) => {
            ev.preventDefault();
            const li = code.querySelector('li[data-line="' + r.error.line + '"]');
            if (li) li.scrollIntoView({block: 'center'});
          }}, 'line ' + r.error.line + (r.error.column ? ', column ' + r.error.column : ''))] : null));
      }
      if (r.warnings && r.warnings.length) {
        parts.push(h('ul', {class: 'warnings'}, r.warnings.map((w) => h('li', {class: 'warning'},
          h('strong', null, w.kind), ': ', w.message))));
      }
      fill(result, parts);
    }

    function renderCode() {
      const run = st.run;
      const diag = run.result && !run.result.ok && run.result.error ? run.result.error : null;
      const warnLines = new Set(((run.result && run.result.warnings) || []).map((w) => w.line).filter(Boolean));
      const key = compact([diag, [...warnLines]]);
      if (key === st.codeKey) return;
      st.codeKey = key;
      const ol = codeList(run.code, 'code-lines', (li, n) => {
        if (diag && diag.line === n) {
          li.classList.add('error-line');
          li.append(h('div', {class: 'line-diagnostic'}, (diag.column ? ' '.repeat(Math.max(0, diag.column - 1)) + '^ ' : '') + diag.kind + ': ' + diag.message));
        } else if (warnLines.has(n)) {
          li.classList.add('warning-line');
        }
      });
      fill(code, h('h2', null, 'Code'), ol);
      if (diag && diag.line) {
        const li = ol.querySelector('li.error-line');
        if (li) li.scrollIntoView({block: 'nearest'});
      }
    }

    function renderInput() {
      if (st.run.input === undefined) return;
      fill(input, h('h2', null, 'Input'), h('pre', {id: 'input-value'}, json(st.run.input)));
    }

    function renderLogs() {
      const r = st.run.result;
      const lines = (r && r.logs) || [];
      fill(logs, h('h2', null, 'Logs'), r ? (lines.length ? h('ol', {class: 'logs', id: 'log-lines'}, lines.map((l) => h('li', null, l))) : h('p', {class: 'muted'}, 'No logs.'))
        : h('p', {class: 'muted'}, 'The logs come with the result.'));
    }

    function renderCalls() {
      const durations = new Map();
      for (const c of (st.run.result && st.run.result.toolCalls) || []) {
        if (typeof c.durationMs === 'number') durations.set(c.callId, c.durationMs);
      }
      const rows = st.calls.map((c) => {
        let d = durations.get(c.callId);
        if (d === undefined && c.settledAt && c.startedAt) d = new Date(c.settledAt) - new Date(c.startedAt);
        return h('tr', {'data-call-id': c.callId, 'data-status': c.status},
          h('td', null, c.callId),
          h('td', {class: 'mono'}, c.path, c.durable ? h('span', {class: 'tag'}, 'durable') : null),
          h('td', null, statusBadge(c.status)),
          h('td', {class: 'num'}, fmtMs(d)),
          h('td', null, fmtTime(c.startedAt)),
          h('td', null, h('pre', {class: 'cell'}, compact(c.args))),
          h('td', null, c.outcome ? h('pre', {class: 'cell'}, c.outcome.ok ? compact(c.outcome.value === undefined ? null : c.outcome.value) : 'error: ' + (c.outcome.error && c.outcome.error.message)) : ''));
      });
      fill(calls, h('h2', null, 'Tool calls'), rows.length ? h('table', {class: 'list'},
        h('thead', null, h('tr', null, ['#', 'Tool', 'Status', 'Duration', 'Started', 'Arguments', 'Outcome'].map((t) => h('th', null, t)))),
        h('tbody', null, rows)) : h('p', {class: 'muted'}, 'No tool calls.'));
    }

    function eventDetail(ev, startedAt) {
      const d = ev.data;
      const bits = [];
      if (d && typeof d === 'object') {
        if (ev.type === 'call.settled' && startedAt.has(d.callId)) {
          bits.push(h('span', {class: 'duration'}, fmtMs(new Date(ev.at) - startedAt.get(d.callId))), ' ');
        }
        // Snapshot sizes, where the events carry them.
        for (const k of ['bytes', 'size', 'snapshotBytes']) {
          if (typeof d[k] === 'number') bits.push(h('span', {class: 'size'}, fmtBytes(d[k])), ' ');
        }
        if (Object.keys(d).length) bits.push(h('code', null, compact(d)));
      }
      return bits;
    }

    function renderTimeline() {
      const startedAt = new Map();
      const t0 = st.events.length ? new Date(st.events[0].at) : null;
      const rows = st.events.map((ev) => {
        const at = new Date(ev.at);
        if (ev.type === 'call.started' && ev.data) startedAt.set(ev.data.callId, at);
        return h('tr', {'data-seq': ev.seq, 'data-type': ev.type},
          h('td', {class: 'num'}, ev.seq),
          h('td', null, fmtTime(ev.at)),
          h('td', {class: 'num muted'}, '+' + fmtMs(at - t0)),
          h('td', null, h('span', {class: 'event event-' + ev.type.replace(/[^a-z]/g, '-')}, ev.type)),
          h('td', null, eventDetail(ev, startedAt)));
      });
      fill(timeline, h('h2', null, 'Timeline'), rows.length ? h('table', {class: 'list', id: 'timeline-table'},
        h('thead', null, h('tr', null, ['Seq', 'At', 'Since start', 'Event', 'Details'].map((t) => h('th', null, t)))),
        h('tbody', null, rows)) : h('p', {class: 'muted'}, 'No events yet.'));
    }

    function renderDeliveries() {
      deliveries.hidden = st.deliveries.length === 0;
      fill(deliveries, h('h2', null, 'Webhook deliveries'), deliveryTable(st.deliveries, refreshDeliveries, false));
    }

    function render() {
      renderHead();
      renderPending();
      renderResult();
      renderCode();
      renderInput();
      renderLogs();
      renderCalls();
      document.title = 'Run ' + id.slice(0, 8) + ' · ' + st.run.status + ' · codemode';
    }

    // Refreshes may overlap (an event, a posted outcome): only the latest one started is shown.
    let refreshGen = 0;
    async function refresh() {
      const gen = ++refreshGen;
      const [r, c] = await Promise.all([api('GET', runPath(id), undefined, signal), api('GET', runPath(id) + '/calls', undefined, signal)]);
      if (gen !== refreshGen) return;
      st.run = r.data;
      st.calls = c.data.calls;
      fill(err);
      render();
      refreshDeliveries().catch(() => {});
    }

    async function refreshDeliveries() {
      const r = await api('GET', runPath(id) + '/deliveries?limit=100', undefined, signal);
      st.deliveries = r.data.deliveries;
      renderDeliveries();
    }

    // impliedStatus is the status the latest event stands for, when it stands for one.
    function impliedStatus() {
      const ev = st.events[st.events.length - 1];
      if (!ev) return null;
      if (ev.type === 'suspended' || ev.type === 'cancelled') return ev.type;
      if (ev.type === 'finished') return ev.data && ev.data.status;
      return null;
    }

    // Refreshes triggered by events are coalesced: a burst of events costs one refresh. An event
    // can be visible before the run's new status is: while they disagree the page asks again,
    // a little later each time (ten times at most).
    let refreshTimer = null;
    let settleTries = 0;
    function refreshSoon(delay) {
      if (refreshTimer) return;
      refreshTimer = setTimeout(async () => {
        refreshTimer = null;
        try {
          await refresh();
        } catch (e) {
          if (!signal.aborted) fill(err, errorBox(e));
          return;
        }
        const want = impliedStatus();
        if (want && want !== st.run.status && settleTries < 10) {
          settleTries++;
          refreshSoon(250 * settleTries);
        } else {
          settleTries = 0;
        }
      }, delay || 150);
    }

    function addEvent(ev) {
      const lastSeq = st.events.length ? st.events[st.events.length - 1].seq : 0;
      if (ev.seq <= lastSeq) return;
      st.events.push(ev);
      renderTimeline();
      refreshSoon();
    }

    try {
      await refresh();
    } catch (e) {
      fill(head, h('h1', null, 'Run ', h('span', {class: 'mono'}, id)));
      fill(err, errorBox(e));
      return;
    }
    // The timeline: the events so far, then (unless the run had finished) the live stream,
    // reconnecting after the last event seen when the connection drops.
    try {
      for (;;) {
        const after = st.events.length ? st.events[st.events.length - 1].seq : 0;
        const r = await api('GET', runPath(id) + '/events?limit=1000&after=' + after, undefined, signal);
        for (const ev of r.data.events) st.events.push(ev);
        if (r.data.events.length < 1000) break;
      }
    } catch (e) {
      if (signal.aborted) return;
      fill(err, errorBox(e));
    }
    renderTimeline();
    // Events read after the run may be newer than it: refresh once they are in (and again while
    // the latest one's status is not yet the run's).
    refreshSoon(1);
    // A connection that fails, or ends before the run finished, is tried again after a delay
    // that doubles (up to 30 s) while no event arrives.
    let delay = 1000;
    while (!signal.aborted && !FINISHED.has(st.run.status)) {
      const before = st.events.length;
      const after = before ? st.events[before - 1].seq : 0;
      try {
        await streamEvents(id, after, signal, addEvent);
      } catch (e) {
        if (signal.aborted) return;
      }
      await refresh().catch(() => {});
      if (FINISHED.has(st.run.status)) break;
      delay = st.events.length > before ? 1000 : Math.min(delay * 2, 30000);
      try {
        await sleep(delay, signal);
      } catch (e) {
        return;
      }
    }
    // The events that a dropped stream did not bring.
    if (signal.aborted) return;
    const after = st.events.length ? st.events[st.events.length - 1].seq : 0;
    api('GET', runPath(id) + '/events?limit=1000&after=' + after, undefined, signal).then((r) => {
      if (r.data.events.length) {
        for (const ev of r.data.events) st.events.push(ev);
        renderTimeline();
      }
    }).catch(() => {});
  }

  // ---- schedules ---------------------------------------------------------------------------

  function schedulePath(id) {
    return '/v1/schedules/' + encodeURIComponent(id);
  }

  // tickSpec says when a schedule ticks, as it was given: a cron expression or an interval.
  function tickSpec(sc) {
    return sc.cron ? 'cron ' + sc.cron : 'every ' + sc.every;
  }

  function scheduleState(sc, attrs) {
    return statusBadge(sc.paused ? 'paused' : 'active', attrs);
  }

  // nextTick is the time of a schedule's next tick; a paused schedule has none (resumed, it
  // starts again from its first tick after then).
  function nextTick(sc) {
    return sc.paused ? h('span', {class: 'muted'}, 'none while paused') : fmtTime(sc.nextTick);
  }

  // timingFields are a schedule's timing inputs (cron or every, time zone, overlap), their ids
  // starting with prefix and filled from sc: the new-schedule form starts them empty (sc {}), the
  // edit form with the schedule's. read() gives what they hold, trimmed.
  function timingFields(prefix, sc) {
    const cron = h('input', {id: prefix + '-cron', name: 'cron', size: 24, placeholder: '0 9 * * 1-5', spellcheck: 'false', value: sc.cron});
    const every = h('input', {id: prefix + '-every', name: 'every', size: 10, placeholder: '5m', spellcheck: 'false', value: sc.every});
    const timezone = h('input', {id: prefix + '-timezone', name: 'timezone', size: 20, placeholder: 'UTC', spellcheck: 'false', value: sc.timezone});
    const overlap = h('select', {id: prefix + '-overlap', name: 'overlap'},
      [['skip', 'skip (no run while the last one runs)'], ['queue', 'queue (run once the last one finished)'], ['allow', 'allow (run anyway)']]
        .map(([v, text]) => h('option', {value: v, selected: v === sc.overlap}, text)));
    return {
      row: h('p', null, h('label', null, 'Cron ', cron), ' or ', h('label', null, 'every ', every), ' ',
        h('label', null, 'Timezone ', timezone), ' ', h('label', null, 'Overlap ', overlap)),
      read() {
        return {cron: cron.value.trim(), every: every.value.trim(), timezone: timezone.value.trim(), overlap: overlap.value};
      },
    };
  }

  // scheduleChange is the body of the PATCH that takes schedule sc to what the edit form holds
  // (body from programFields, timing from timingFields): only the fields that differ, so that a
  // timing left as it was keeps its next tick, and a change made elsewhere meanwhile to a field
  // not touched here is not undone. An emptied toolsets field or input (or an input of null) is
  // sent as null, which removes the schedule's list (every toolset) or its input. It throws
  // when neither cron nor every is left: a schedule needs one.
  function scheduleChange(sc, body, timing) {
    const change = {};
    if (body.code !== sc.code) change.code = body.code;
    const names = body.toolsets || [];
    if (names.join(',') !== (sc.toolsets || []).join(',')) change.toolsets = names.length ? names : null;
    const input = body.input === null ? undefined : body.input;
    if (input === undefined) {
      if (sc.input !== undefined && sc.input !== null) change.input = null;
    } else if (compact(input) !== compact(sc.input)) {
      change.input = input;
    }
    // limits is replaced whole: the limits the form does not show (set through the API) are
    // sent back as they are.
    const timeoutMs = body.limits ? body.limits.timeoutMs : undefined;
    const limits = Object.assign({}, sc.limits);
    if (timeoutMs !== limits.timeoutMs) {
      if (timeoutMs === undefined) delete limits.timeoutMs;
      else limits.timeoutMs = timeoutMs;
      change.limits = limits;
    }
    if (timing.cron !== (sc.cron || '') || timing.every !== (sc.every || '')) {
      if (!timing.cron && !timing.every) throw new Error('A schedule needs a cron expression or an interval (every).');
      // Both given: the API refuses, and the form shows its message.
      if (timing.cron) change.cron = timing.cron;
      if (timing.every) change.every = timing.every;
    }
    // An empty time zone is UTC, as when the schedule was created.
    if ((timing.timezone || 'UTC') !== sc.timezone) change.timezone = timing.timezone || 'UTC';
    if (timing.overlap !== sc.overlap) change.overlap = timing.overlap;
    return change;
  }

  async function schedulesPage(params, signal) {
    const rows = h('tbody', {id: 'schedules-rows'});
    const table = h('table', {class: 'list', id: 'schedules-table', hidden: true},
      h('thead', null, h('tr', null, ['Schedule', 'Ticks', 'Timezone', 'Overlap', 'State', 'Next tick', 'Code', ''].map((t) => h('th', null, t)))),
      rows);
    const none = h('p', {class: 'muted', id: 'schedules-none', hidden: true}, 'No schedules.');
    const more = h('button', {type: 'button', id: 'schedules-more', hidden: true}, 'Show more');
    const info = h('p', {class: 'muted', id: 'schedules-info'});
    const err = h('div');

    const fields = programFields('schedule', {code: 'return new Date().toISOString()'});
    const timing = timingFields('schedule', {});
    const formErr = h('div', {id: 'schedule-form-error'});
    const created = h('p', {id: 'schedule-created', role: 'status'});
    const form = h('form', {id: 'schedule-form', class: 'card', onsubmit: async (ev) => {
      ev.preventDefault();
      fill(formErr);
      fill(created);
      let body;
      try {
        body = fields.read();
      } catch (e) {
        fill(formErr, errorBox(e));
        return;
      }
      // Empty fields are left out: the API then applies its defaults, and says which of cron
      // and every it needs.
      const t = timing.read();
      for (const k of ['cron', 'every', 'timezone']) {
        if (t[k]) body[k] = t[k];
      }
      body.overlap = t.overlap;
      try {
        const r = await api('POST', '/v1/schedules', body);
        // The list is oldest first: the new schedule may be on a page not shown yet.
        fill(created, 'Created schedule ', scheduleLink(r.data.id), ', next tick ' + fmtTime(r.data.nextTick) + '.');
        await load();
      } catch (e) {
        fill(formErr, errorBox(e));
      }
    }},
    h('h2', null, 'New schedule'),
    fields.code,
    timing.row,
    fields.rest,
    formErr,
    h('button', {type: 'submit', id: 'schedule-submit'}, 'Create schedule'),
    created);
    fill(main, h('h1', null, 'Schedules'), err, table, none, more, info, form);

    async function act(method, path) {
      try {
        await api(method, path);
        await load();
      } catch (e) {
        fill(err, errorBox(e));
      }
    }

    function scheduleRow(first) {
      const id = first.id;
      let sc = first;
      const cells = [0, 1, 2, 3, 4].map(() => h('td'));
      const code = h('td', {class: 'mono code-summary'});
      const pause = h('button', {type: 'button', class: 'pause', onclick: () => act('POST', schedulePath(id) + (sc.paused ? '/resume' : '/pause'))});
      const del = confirmButton({class: 'delete', title: 'The runs it started are kept'}, 'Delete', 'Really delete?',
        () => act('DELETE', schedulePath(id)));
      const tr = h('tr', {'data-schedule-id': id},
        h('td', null, scheduleLink(id, id.slice(0, 8))), cells, code, h('td', {class: 'actions'}, pause, ' ', del));
      return {tr: tr, update: (s) => {
        sc = s;
        tr.dataset.paused = String(s.paused);
        fill(cells[0], h('span', {class: 'mono'}, tickSpec(s)));
        fill(cells[1], s.timezone);
        fill(cells[2], s.overlap);
        fill(cells[3], scheduleState(s));
        fill(cells[4], nextTick(s));
        fill(code, summary(s.code));
        pause.textContent = s.paused ? 'Resume' : 'Pause';
      }};
    }

    // The pages shown so far are read again from the first at each refresh, following next:
    // a schedule deleted or created meanwhile moves the others across pages.
    let pages = 1;
    let last = '';
    const shown = new Map();
    async function load() {
      const list = [];
      let cursor = null;
      for (let i = 0; i < pages; i++) {
        const q = new URLSearchParams({limit: '50'});
        if (cursor) q.set('cursor', cursor);
        let r;
        try {
          r = await api('GET', '/v1/schedules?' + q, undefined, signal);
        } catch (e) {
          if (!signal.aborted) fill(err, errorBox(e));
          throw e;
        }
        list.push(...r.data.schedules);
        cursor = r.data.next;
        if (!cursor) break;
      }
      fill(err);
      fill(info, 'Updated ' + fmtTime(new Date().toISOString()) + '; checked again while this page is open.');
      more.hidden = !cursor;
      const key = compact(list);
      if (key === last) return false;
      last = key;
      table.hidden = list.length === 0;
      none.hidden = list.length > 0;
      syncRows(rows, shown, list, (sc) => sc.id, scheduleRow);
      return true;
    }
    more.addEventListener('click', () => {
      pages++;
      load().catch(() => {});
    });
    await load().catch(() => {});
    poll(load, signal);
  }

  async function schedulePage(id, signal) {
    let sc = null;
    const title = h('h1', null, 'Schedule ', h('span', {class: 'mono'}, id));
    const meta = h('dl', {class: 'meta', id: 'schedule-meta'});
    const err = h('div', {id: 'schedule-error'});
    // The actions are made once and kept across refreshes (a half-confirmed Delete stays so).
    const pause = h('button', {type: 'button', id: 'schedule-pause', onclick: async () => {
      try {
        await api('POST', schedulePath(id) + (sc.paused ? '/resume' : '/pause'));
        await load();
      } catch (e) {
        fill(err, errorBox(e));
      }
    }});
    const del = confirmButton({id: 'schedule-delete', title: 'The runs it started are kept'}, 'Delete schedule', 'Really delete?', async () => {
      try {
        await api('DELETE', schedulePath(id));
        location.hash = '#/schedules';
      } catch (e) {
        fill(err, errorBox(e));
      }
    });
    const edit = h('button', {type: 'button', id: 'schedule-edit', onclick: () => openEditor()}, 'Edit');
    const actions = h('p', {class: 'actions', hidden: true}, edit, pause, del);
    const editor = h('div', {id: 'schedule-editor'});
    const edited = h('p', {id: 'schedule-edited', role: 'status'});
    const tickRows = h('tbody', {id: 'schedule-tick-rows'});
    const noTicks = h('p', {class: 'muted', id: 'schedule-ticks-none'}, 'No ticks yet.');
    const tickTable = h('table', {class: 'list', hidden: true},
      h('thead', null, h('tr', null, ['Tick', 'Run'].map((t) => h('th', null, t)))), tickRows);
    const ticks = h('section', {id: 'schedule-ticks'}, h('h2', null, 'Latest ticks'), noTicks, tickTable);
    const code = section('Code', 'schedule-code');
    const input = section('Input', 'schedule-input', h('p', {class: 'muted'}, 'none'));
    const allRuns = h('a', {href: '#/runs?schedule=' + encodeURIComponent(id), id: 'schedule-runs'}, 'all the runs it started');
    fill(main, title, err, meta, actions, edited, editor, h('p', null, h('a', {href: '#/schedules'}, '← all schedules'), ' · ', allRuns), ticks, code, input);

    // The edit form is made from the schedule as it is when Edit is clicked and is left alone by
    // the refreshes, which fill the rest of the page only: what is typed stays until it is saved
    // or cancelled. It sends what differs from that schedule (scheduleChange), nothing when
    // nothing does.
    function openEditor() {
      const base = sc;
      fill(edited);
      const fields = programFields('schedule-edit', base);
      const timing = timingFields('schedule-edit', base);
      const formErr = h('div', {id: 'schedule-edit-error'});
      const status = h('p', {id: 'schedule-edit-status', role: 'status'});
      const close = () => {
        fill(editor);
        edit.hidden = false;
      };
      const save = h('button', {type: 'submit', id: 'schedule-edit-save'}, 'Save changes');
      const cancel = h('button', {type: 'button', id: 'schedule-edit-cancel', onclick: close}, 'Cancel');
      const form = h('form', {id: 'schedule-edit-form', class: 'card', onsubmit: async (ev) => {
        ev.preventDefault();
        fill(formErr);
        fill(status);
        let change;
        try {
          change = scheduleChange(base, fields.read(), timing.read());
        } catch (e) {
          fill(formErr, errorBox(e));
          return;
        }
        const names = Object.keys(change);
        if (!names.length) {
          fill(status, 'Nothing changed: nothing was sent.');
          return;
        }
        save.disabled = true;
        try {
          await api('PATCH', schedulePath(id), change);
        } catch (e) {
          // Refused, the schedule is as it was: the form stays as typed, to be corrected.
          fill(formErr, errorBox(e));
          return;
        } finally {
          save.disabled = false;
        }
        close();
        fill(edited, 'Changed ' + names.join(', ') + '.');
        await load().catch((e) => {
          if (!signal.aborted) fill(err, errorBox(e));
        });
      }},
      h('h2', null, 'Edit schedule'),
      fields.code,
      timing.row,
      fields.rest,
      formErr,
      h('p', {class: 'actions'}, save, cancel),
      status);
      fill(editor, form);
      edit.hidden = true;
    }

    // A tick, once recorded, does not change: its row is made once.
    function tickRow(t) {
      return {tr: h('tr', {'data-tick': t.tick, 'data-run-id': t.runId},
        h('td', null, fmtTime(t.tick)),
        h('td', null, t.runId ? runLink(t.runId) : h('span', {class: 'warning skipped'}, 'skipped: ' + (t.skipped || 'no run')))),
      };
    }

    let last = '';
    let shownProgram = '';
    const tickShown = new Map();
    // Loads may overlap (the periodic one, the one after an edit): only the latest one started
    // is shown, not the schedule as it was before the edit.
    let loadGen = 0;
    async function load() {
      const gen = ++loadGen;
      const r = await api('GET', schedulePath(id), undefined, signal);
      if (gen !== loadGen) return false;
      fill(err);
      const key = compact(r.data);
      if (key === last) return false;
      last = key;
      sc = r.data;
      document.title = 'Schedule ' + id.slice(0, 8) + ' · codemode';
      fill(title, 'Schedule ', h('span', {class: 'mono'}, sc.id), ' ', scheduleState(sc, {id: 'schedule-state'}));
      fill(meta,
        h('dt', null, 'Ticks'), h('dd', {class: 'mono', id: 'schedule-spec'}, tickSpec(sc)),
        h('dt', null, 'Timezone'), h('dd', null, sc.timezone),
        h('dt', null, 'Overlap'), h('dd', null, sc.overlap),
        h('dt', null, 'Next tick'), h('dd', {id: 'schedule-next'}, nextTick(sc)),
        h('dt', null, 'Toolsets'), h('dd', null, sc.toolsets ? sc.toolsets.join(', ') : 'all'),
        h('dt', null, 'Limits'), h('dd', {class: 'mono'}, sc.limits && Object.keys(sc.limits).length ? compact(sc.limits) : 'worker defaults'),
        h('dt', null, 'Created'), h('dd', null, fmtTime(sc.createdAt)),
        h('dt', null, 'Updated'), h('dd', null, fmtTime(sc.updatedAt)));
      pause.textContent = sc.paused ? 'Resume' : 'Pause';
      actions.hidden = false;
      const tickList = sc.ticks || [];
      noTicks.hidden = tickList.length > 0;
      tickTable.hidden = tickList.length === 0;
      syncRows(tickRows, tickShown, tickList, (t) => t.tick, tickRow);
      // The program and input change only when edited: redrawn then, not at every tick.
      const programKey = compact([sc.code, sc.input]);
      if (programKey !== shownProgram) {
        shownProgram = programKey;
        fill(code, h('h2', null, 'Code'), codeList(sc.code, 'schedule-code-lines'));
        fill(input, h('h2', null, 'Input'), sc.input !== undefined ? h('pre', {id: 'schedule-input-value'}, json(sc.input)) : h('p', {class: 'muted'}, 'none'));
      }
      return true;
    }
    await loadAndPoll(load, err, signal);
  }

  // ---- toolsets ----------------------------------------------------------------------------

  async function toolsetsPage(params, signal) {
    const search = h('input', {type: 'search', id: 'tool-search', placeholder: 'path, description or signature', size: 40, value: params.get('q') || ''});
    const count = h('span', {class: 'muted', id: 'tool-count'});
    const list = h('div', {id: 'toolsets'});
    const err = h('div');
    const name = h('input', {id: 'toolset-name', name: 'name', required: true, pattern: '[A-Za-z_][A-Za-z0-9_]*', maxlength: 64, size: 16});
    const url = h('input', {id: 'toolset-url', name: 'url', type: 'url', required: true, size: 40, placeholder: 'https://tools.example.com'});
    const secret = h('input', {id: 'toolset-secret', name: 'secret', type: 'password', size: 30, placeholder: 'optional', autocomplete: 'off'});
    const form = h('form', {id: 'toolset-form', class: 'card', onsubmit: async (ev) => {
      ev.preventDefault();
      const body = {name: name.value, url: url.value};
      if (secret.value) body.secret = secret.value;
      try {
        await api('POST', '/v1/toolsets', body);
        form.reset();
        await load();
      } catch (e) {
        fill(err, errorBox(e));
      }
    }}, h('h2', null, 'Register a toolset'), h('label', null, 'Name ', name), ' ', h('label', null, 'URL ', url), ' ',
    h('label', null, 'Secret ', secret), ' ', h('button', {type: 'submit'}, 'Register'));
    fill(main, h('h1', null, 'Toolsets'), h('p', null, h('label', null, 'Search tools ', search), ' ', count), err, list, form);

    let tools = [];
    let toolsets = [];
    function render() {
      const q = search.value.trim().toLowerCase();
      let shown = 0;
      const blocks = toolsets.map((ts) => {
        const mine = tools.filter((t) => t.toolset === ts.name && (!q ||
          [t.path, t.description || '', t.signature].some((s) => s.toLowerCase().includes(q))));
        shown += mine.length;
        if (q && !mine.length) return null;
        return h('section', {class: 'toolset card', 'data-toolset': ts.name},
          h('h2', null, h('span', {class: 'mono'}, ts.name), ' ', h('span', {class: 'muted'}, ts.url),
            ts.hasSecret ? h('span', {class: 'tag'}, 'signed') : null, ' ',
            confirmButton({class: 'link delete-toolset', title: 'Runs using it will no longer find its tools'}, 'delete', 'really delete?', async () => {
              try {
                await api('DELETE', '/v1/toolsets/' + encodeURIComponent(ts.name));
                await load();
              } catch (e) {
                fill(err, errorBox(e));
              }
            })),
          ts.description ? h('p', null, ts.description) : null,
          h('p', {class: 'muted'}, 'Registered ' + fmtTime(ts.createdAt)),
          mine.length ? h('ul', {class: 'tools'}, mine.map((t) => h('li', {class: 'tool', 'data-path': t.path},
            h('div', null, h('strong', {class: 'mono'}, t.path), t.durable ? h('span', {class: 'tag'}, 'durable') : null,
              t.description ? [' — ', t.description] : null),
            h('pre', {class: 'signature'}, t.signature)))) : h('p', {class: 'muted'}, 'No tools.'));
      });
      // Tools of no registered toolset are the service's built-ins (the timers, tools.time).
      const registered = new Set(toolsets.map((ts) => ts.name));
      const builtins = tools.filter((t) => !registered.has(t.toolset) && (!q ||
        [t.path, t.description || '', t.signature].some((s) => s.toLowerCase().includes(q))));
      shown += builtins.length;
      if (builtins.length) {
        blocks.push(h('section', {class: 'toolset card', 'data-toolset': ''},
          h('h2', null, 'Built in'), h('p', {class: 'muted'}, 'Available to every run.'),
          h('ul', {class: 'tools'}, builtins.map((t) => h('li', {class: 'tool', 'data-path': t.path},
            h('div', null, h('strong', {class: 'mono'}, t.path), t.durable ? h('span', {class: 'tag'}, 'durable') : null,
              t.description ? [' — ', t.description] : null),
            h('pre', {class: 'signature'}, t.signature))))));
      }
      fill(count, q ? shown + ' of ' + tools.length + ' tools match' : tools.length + ' tools');
      fill(list, toolsets.length || builtins.length ? blocks : h('p', {class: 'muted'}, 'No toolsets registered.'));
    }
    async function load() {
      const [ts, cat] = await Promise.all([api('GET', '/v1/toolsets', undefined, signal), api('GET', '/v1/catalog', undefined, signal)]);
      toolsets = ts.data.toolsets;
      tools = cat.data.tools;
      fill(err);
      render();
    }
    search.addEventListener('input', render);
    try {
      await load();
    } catch (e) {
      fill(err, errorBox(e));
    }
  }

  // ---- webhooks ----------------------------------------------------------------------------

  function deliveryTable(list, reload, showRun) {
    if (!list.length) return h('p', {class: 'muted'}, 'No deliveries.');
    return h('table', {class: 'list deliveries'},
      h('thead', null, h('tr', null, ['Delivery', showRun ? 'Run' : null, 'Event', 'Status', 'Attempts', 'Last answer', 'Redelivered', 'Updated', ''].filter((t) => t !== null).map((t) => h('th', null, t)))),
      h('tbody', null, list.map((d) => {
        const status = h('span');
        return h('tr', {'data-delivery-id': d.id, 'data-status': d.status},
          h('td', {class: 'mono'}, d.id),
          showRun ? h('td', null, runLink(d.runId, d.runId.slice(0, 8))) : null,
          h('td', null, d.eventType),
          h('td', null, statusBadge(d.status)),
          h('td', {class: 'num'}, d.attempts),
          h('td', null, d.lastStatusCode ? String(d.lastStatusCode) : '', d.lastError ? [' ', h('span', {class: 'error'}, d.lastError)] : null),
          h('td', {class: 'num'}, d.redeliveries),
          h('td', null, fmtTime(d.updatedAt)),
          h('td', null, h('button', {type: 'button', class: 'redeliver', disabled: d.status === 'pending', onclick: async () => {
            try {
              await api('POST', '/v1/webhooks/deliveries/' + encodeURIComponent(d.id) + '/redeliver');
              await reload();
            } catch (e) {
              fill(status, h('span', {class: 'error'}, e.message));
            }
          }}, 'Redeliver'), status));
      })));
  }

  async function webhooksPage(params, signal) {
    const list = h('div', {id: 'webhooks'});
    const err = h('div');
    const url = h('input', {id: 'webhook-url', type: 'url', required: true, size: 40, placeholder: 'https://example.com/hooks/codemode'});
    // The secret signs the deliveries; the API never returns it, so the one generated here is
    // shown in clear for the receiver's owner to copy before subscribing.
    const secret = h('input', {id: 'webhook-secret', required: true, size: 44, placeholder: 'whsec_…', autocomplete: 'off', spellcheck: 'false'});
    const generate = h('button', {type: 'button', id: 'webhook-generate', onclick: () => {
      const bytes = crypto.getRandomValues(new Uint8Array(24));
      secret.value = 'whsec_' + btoa(String.fromCharCode(...bytes));
    }}, 'Generate');
    const boxes = WEBHOOK_EVENTS.map((e) => h('input', {type: 'checkbox', value: e, checked: e !== 'call.pending'}));
    const form = h('form', {id: 'webhook-form', class: 'card', onsubmit: async (ev) => {
      ev.preventDefault();
      const body = {url: url.value, secret: secret.value, events: boxes.filter((b) => b.checked).map((b) => b.value)};
      try {
        await api('POST', '/v1/webhooks', body);
        form.reset();
        await load();
      } catch (e) {
        fill(err, errorBox(e));
      }
    }}, h('h2', null, 'Subscribe'), h('label', null, 'URL ', url), ' ', h('label', null, 'Secret ', secret), ' ', generate, h('br'),
    boxes.map((b) => h('label', {class: 'check'}, b, ' ', b.value)), h('br'), h('button', {type: 'submit'}, 'Subscribe'));
    fill(main, h('h1', null, 'Webhooks'), err, list, form);

    async function act(method, path, body) {
      try {
        await api(method, path, body);
        await load();
      } catch (e) {
        fill(err, errorBox(e));
      }
    }
    async function load() {
      const r = await api('GET', '/v1/webhooks', undefined, signal);
      fill(err);
      const hooks = r.data.webhooks;
      fill(list, hooks.length ? h('table', {class: 'list'},
        h('thead', null, h('tr', null, ['Subscription', 'URL', 'Events', 'State', 'Failures', 'Created', ''].map((t) => h('th', null, t)))),
        h('tbody', null, hooks.map((w) => h('tr', {'data-webhook-id': w.id},
          h('td', null, h('a', {href: '#/webhooks/' + encodeURIComponent(w.id), class: 'mono'}, w.id.slice(0, 8))),
          h('td', {class: 'mono'}, w.url),
          h('td', null, w.events.join(', ')),
          h('td', null, w.enabled ? statusBadge('enabled') : [statusBadge('disabled'), w.disabledReason ? [' ', w.disabledReason] : null]),
          h('td', {class: 'num'}, w.consecutiveFailures),
          h('td', null, fmtTime(w.createdAt)),
          h('td', null,
            h('button', {type: 'button', class: 'toggle', onclick: () => act('PATCH', '/v1/webhooks/' + encodeURIComponent(w.id), {enabled: !w.enabled})}, w.enabled ? 'Disable' : 'Enable'), ' ',
            confirmButton({class: 'delete', title: 'Its deliveries are deleted too'}, 'Delete', 'Really delete?',
              () => act('DELETE', '/v1/webhooks/' + encodeURIComponent(w.id)))))))) : h('p', {class: 'muted'}, 'No subscriptions.'));
    }
    try {
      await load();
    } catch (e) {
      fill(err, errorBox(e));
    }
  }

  async function webhookPage(id, signal) {
    const head = h('div');
    const list = h('div', {id: 'deliveries'});
    const err = h('div');
    fill(main, head, err, h('h2', null, 'Deliveries'), list);
    let last = '';
    async function load() {
      const [w, d] = await Promise.all([
        api('GET', '/v1/webhooks/' + encodeURIComponent(id), undefined, signal),
        api('GET', '/v1/webhooks/' + encodeURIComponent(id) + '/deliveries?limit=100', undefined, signal)]);
      const hook = w.data;
      fill(err);
      const key = compact([hook, d.data.deliveries]);
      if (key === last) return false;
      last = key;
      fill(head, h('h1', null, 'Subscription ', h('span', {class: 'mono'}, hook.id)),
        h('dl', {class: 'meta'},
          h('dt', null, 'URL'), h('dd', {class: 'mono'}, hook.url),
          h('dt', null, 'Events'), h('dd', null, hook.events.join(', ')),
          h('dt', null, 'State'), h('dd', null, hook.enabled ? 'enabled' : 'disabled' + (hook.disabledReason ? ': ' + hook.disabledReason : '')),
          h('dt', null, 'Failures in a row'), h('dd', null, hook.consecutiveFailures)),
        h('p', null, h('a', {href: '#/webhooks'}, '← all subscriptions')));
      fill(list, deliveryTable(d.data.deliveries, load, true));
      return true;
    }
    await loadAndPoll(load, err, signal);
  }

  // ---- routing -----------------------------------------------------------------------------

  let page = null; // the AbortController of the page on screen: stops its polls and streams

  function setNav(name) {
    for (const a of document.querySelectorAll('nav a')) a.classList.toggle('current', a.dataset.nav === name);
  }

  function route() {
    if (page) page.abort();
    page = new AbortController();
    const signal = page.signal;
    if (loginNeeded) {
      setNav('');
      loginPage();
      return;
    }
    renderSession(token() ? 'token' : 'open');
    const hash = location.hash.replace(/^#/, '') || '/runs';
    const q = hash.indexOf('?');
    const path = q >= 0 ? hash.slice(0, q) : hash;
    const params = new URLSearchParams(q >= 0 ? hash.slice(q + 1) : '');
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    document.title = 'codemode console';
    let p;
    if (parts[0] === 'runs' && parts.length === 1) {
      setNav('runs');
      p = runsPage(params, signal);
    } else if (parts[0] === 'runs' && parts[1] === 'new' && parts.length === 2) {
      setNav('new');
      p = newRunPage();
    } else if (parts[0] === 'runs' && parts.length === 2) {
      setNav('runs');
      p = runPage(parts[1], signal);
    } else if (parts[0] === 'schedules' && parts.length === 1) {
      setNav('schedules');
      p = schedulesPage(params, signal);
    } else if (parts[0] === 'schedules' && parts.length === 2) {
      setNav('schedules');
      p = schedulePage(parts[1], signal);
    } else if (parts[0] === 'toolsets' && parts.length === 1) {
      setNav('toolsets');
      p = toolsetsPage(params, signal);
    } else if (parts[0] === 'webhooks' && parts.length === 1) {
      setNav('webhooks');
      p = webhooksPage(params, signal);
    } else if (parts[0] === 'webhooks' && parts.length === 2) {
      setNav('webhooks');
      p = webhookPage(parts[1], signal);
    } else {
      setNav('');
      fill(main, h('h1', null, 'Not found'), h('p', null, 'No page here. ', h('a', {href: '#/runs'}, 'Runs')));
    }
    Promise.resolve(p).catch((e) => {
      if (!signal.aborted) fill(main, errorBox(e));
    });
  }

  async function start() {
    window.addEventListener('hashchange', route);
    try {
      loginNeeded = !(await probe());
    } catch (e) {
      fill(main, h('h1', null, 'The service cannot be reached'), errorBox(e));
      return;
    }
    route();
  }

  start();
})();
