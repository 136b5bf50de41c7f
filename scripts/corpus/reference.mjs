// Reference runner for the differential corpus: runs one code-mode program
// in node with the semantics of codemode eval and prints its Result as one
// JSON line, so node is the oracle the Go runtime is compared against.
//
//   node --harmony-iterator-helpers scripts/corpus/reference.mjs --tools-url URL [--run-id ID] FILE
//
// What it models (internal/run is the specification):
//   - the program is the body of a strict async function; its return value
//     is the result (undefined becomes null), copied as plain data: JSON
//     semantics, except that a Promise, function, symbol, Map, Set, WeakMap
//     or WeakSet is InvalidDataValue (naming its path) and an Error becomes
//     {name, message} plus its own enumerable properties;
//   - tools.<path>(input) POSTs {"tool","input","key","runId"} with an
//     Idempotency-Key header to the toolset; 200 {"output"} resolves, 200
//     {"error"} or a 4xx rejects with an Error whose kind is ToolFailure,
//     5xx and connection errors are retried with backoff under the same key;
//   - inputs are copied as plain data the same way and checked against the tool's input schema
//     (InvalidToolInput; the tool is not called); an unknown path rejects
//     with UnknownTool;
//   - console.log/info/warn/error lines are formatted with util.format;
//   - an uncaught value whose "kind" is a catchable diagnostic kind fails
//     the run with that kind, anything else with ExecutionFailure; a syntax
//     error is a ParseError; a result that cannot be copied as JSON (a
//     cycle, more than 32 levels of nesting) is InvalidDataValue.
// The search built-in is not modelled. Work still running when the
// program returns is abandoned (the process exits).
import { readFileSync } from 'node:fs';
import { format, inspect } from 'node:util';
import { Console } from 'node:console';
import { Writable } from 'node:stream';

// node 20 lacks a few built-ins of the language (ES2024/ES2025). They are
// installed here, written after their specifications, so the corpus can
// cover them; the iterator helpers come from V8 itself
// (--harmony-iterator-helpers, which regen.sh passes).
function define(target, name, value) {
  if (!(name in target)) Object.defineProperty(target, name, { value, writable: true, configurable: true });
}
function groupInto(items, keyOf, add) {
  let i = 0;
  for (const item of items) add(keyOf(item, i++), item);
}
define(Object, 'groupBy', function groupBy(items, keyOf) {
  const out = Object.create(null);
  groupInto(items, keyOf, (k, v) => {
    k = typeof k === 'symbol' ? k : String(k);
    (out[k] ??= []).push(v);
  });
  return out;
});
define(Map, 'groupBy', function groupBy(items, keyOf) {
  const out = new Map();
  groupInto(items, keyOf, (k, v) => {
    if (Object.is(k, -0)) k = 0;
    if (!out.has(k)) out.set(k, []);
    out.get(k).push(v);
  });
  return out;
});
define(Promise, 'withResolvers', function withResolvers() {
  let resolve, reject;
  const promise = new this((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
});
define(Promise, 'try', function (fn, ...args) {
  return new this((resolve) => resolve(fn(...args)));
});
function setRecord(other) {
  if (other === null || typeof other !== 'object') throw new TypeError('set operand must be an object');
  const size = +other.size;
  if (Number.isNaN(size)) throw new TypeError('set operand has no numeric size');
  if (typeof other.has !== 'function' || typeof other.keys !== 'function') throw new TypeError('set operand needs has and keys');
  return { size, has: (v) => other.has(v), keys: () => other.keys() };
}
const SetProto = Set.prototype;
define(SetProto, 'union', function union(other) {
  const o = setRecord(other);
  const out = new Set(this);
  for (const v of o.keys()) out.add(v);
  return out;
});
define(SetProto, 'intersection', function intersection(other) {
  const o = setRecord(other);
  const out = new Set();
  if (this.size <= o.size) {
    for (const v of [...this]) if (o.has(v)) out.add(v);
  } else {
    for (const v of o.keys()) if (this.has(v)) out.add(v);
  }
  return out;
});
define(SetProto, 'difference', function difference(other) {
  const o = setRecord(other);
  const out = new Set(this);
  if (this.size <= o.size) {
    for (const v of [...this]) if (o.has(v)) out.delete(v);
  } else {
    for (const v of o.keys()) out.delete(v);
  }
  return out;
});
define(SetProto, 'symmetricDifference', function symmetricDifference(other) {
  const o = setRecord(other);
  const out = new Set(this);
  for (const v of o.keys()) {
    if (this.has(v)) out.delete(v);
    else out.add(v);
  }
  return out;
});
define(SetProto, 'isSubsetOf', function isSubsetOf(other) {
  const o = setRecord(other);
  if (this.size > o.size) return false;
  for (const v of this) if (!o.has(v)) return false;
  return true;
});
define(SetProto, 'isSupersetOf', function isSupersetOf(other) {
  const o = setRecord(other);
  if (this.size < o.size) return false;
  for (const v of o.keys()) if (!this.has(v)) return false;
  return true;
});
define(SetProto, 'isDisjointFrom', function isDisjointFrom(other) {
  const o = setRecord(other);
  if (this.size <= o.size) {
    for (const v of this) if (o.has(v)) return false;
  } else {
    for (const v of o.keys()) if (this.has(v)) return false;
  }
  return true;
});

// Iterator helpers node 20's V8 does not ship yet (it has map, filter, take,
// drop and Iterator.from behind the flag).
const IterProto = Object.getPrototypeOf(Object.getPrototypeOf([].values()));
function iterate(it, visit) {
  for (;;) {
    const r = it.next();
    if (r.done) return;
    if (visit(r.value) === false) {
      it.return?.();
      return;
    }
  }
}
define(IterProto, 'toArray', function toArray() {
  const out = [];
  iterate(this, (v) => { out.push(v); });
  return out;
});
define(IterProto, 'forEach', function forEach(fn) {
  let i = 0;
  iterate(this, (v) => { fn(v, i++); });
});
define(IterProto, 'reduce', function reduce(fn, ...init) {
  let i = 0;
  let acc;
  let started = init.length > 0;
  if (started) acc = init[0];
  iterate(this, (v) => {
    if (!started) { acc = v; started = true; i++; return; }
    acc = fn(acc, v, i++);
  });
  if (!started) throw new TypeError('Reduce of empty iterator with no initial value');
  return acc;
});
define(IterProto, 'some', function some(fn) {
  let i = 0, found = false;
  iterate(this, (v) => { if (fn(v, i++)) { found = true; return false; } });
  return found;
});
define(IterProto, 'every', function every(fn) {
  let i = 0, all = true;
  iterate(this, (v) => { if (!fn(v, i++)) { all = false; return false; } });
  return all;
});
define(IterProto, 'find', function find(fn) {
  let i = 0, found;
  iterate(this, (v) => { if (fn(v, i++)) { found = v; return false; } });
  return found;
});
define(IterProto, 'flatMap', function flatMap(fn) {
  const src = this;
  let i = 0;
  return (function* () {
    for (;;) {
      const r = src.next();
      if (r.done) return;
      yield* fn(r.value, i++);
    }
  })();
});

const MAX_DEPTH = 32;
const RETRIES = 4;
const CATCHABLE = new Set(['ToolFailure', 'UnknownTool', 'InvalidToolInput', 'InvalidToolOutput', 'InvalidDataValue']);

function parseArgs(argv) {
  const out = { url: '', runId: 'run_reference', file: '' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--tools-url') out.url = argv[++i];
    else if (a === '--run-id') out.runId = argv[++i];
    else out.file = a;
  }
  if (!out.url || !out.file) {
    process.stderr.write('usage: node reference.mjs --tools-url URL [--run-id ID] FILE\n');
    process.exit(2);
  }
  return out;
}

// kindError makes the value a failed call rejects with: a plain Error whose
// "kind" property names the diagnostic kind, as the Go runtime makes it.
function kindError(kind, message) {
  const err = new Error(message);
  err.kind = kind;
  return err;
}

// depthOf returns the nesting depth of a JSON value (scalars 0, {} and [] 1).
function depthOf(v) {
  if (v === null || typeof v !== 'object') return 0;
  let d = 0;
  for (const x of Array.isArray(v) ? v : Object.values(v)) d = Math.max(d, depthOf(x));
  return d + 1;
}

// pathStep appends key to path the way a program writes it: a[2], a.b, a["b c"].
function pathStep(path, key, inArray) {
  if (inArray) return `${path}[${key}]`;
  if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) return `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

// plainData is the JSON.stringify replacer of the plain-data contract: what JSON.stringify
// would drop or empty without a word fails with the value's path, an Error becomes data.
function plainData(root) {
  const pathOf = new Map();
  return function (key, value) {
    const holder = pathOf.get(this);
    const path = holder === undefined ? root : pathStep(holder, key, Array.isArray(this));
    const fail = (what) => { throw new TypeError(`${what} at ${path} is not data`); };
    if (typeof value === 'symbol') fail('a symbol');
    if (typeof value === 'function') fail('a function');
    if (value instanceof Promise) fail('a Promise');
    if (value instanceof Map || value instanceof WeakMap) fail('a Map');
    if (value instanceof Set || value instanceof WeakSet) fail('a Set');
    if (value instanceof Error) {
      const data = { name: String(value.name), message: String(value.message) };
      for (const k of Object.keys(value)) if (k !== 'name' && k !== 'message') data[k] = value[k];
      value = data;
    }
    if (value !== null && typeof value === 'object') pathOf.set(value, path);
    return value;
  };
}

// copyJSON copies a value as plain data or throws InvalidDataValue; root names it in messages.
function copyJSON(v, what, root) {
  let text;
  try {
    text = JSON.stringify(v, plainData(root));
  } catch (err) {
    throw kindError('InvalidDataValue', `${what} cannot be copied as JSON: ${err.message}`);
  }
  if (text === undefined) return null;
  const copy = JSON.parse(text);
  if (depthOf(copy) > MAX_DEPTH) {
    throw kindError('InvalidDataValue', `${what} cannot be copied as JSON: more than ${MAX_DEPTH} levels of nesting`);
  }
  return copy;
}

// schemaErrors checks the subset of JSON Schema the test toolset uses.
function schemaErrors(schema, v, at = 'input') {
  if (!schema || typeof schema !== 'object') return [];
  const errs = [];
  const type = schema.type;
  const isType = (t) => {
    switch (t) {
      case 'object': return v !== null && typeof v === 'object' && !Array.isArray(v);
      case 'array': return Array.isArray(v);
      case 'string': return typeof v === 'string';
      case 'number': return typeof v === 'number';
      case 'integer': return Number.isInteger(v);
      case 'boolean': return typeof v === 'boolean';
      case 'null': return v === null;
      default: return true;
    }
  };
  if (type !== undefined && !(Array.isArray(type) ? type.some(isType) : isType(type))) {
    return [`${at}: expected ${type}`];
  }
  if (typeof v === 'number') {
    if (schema.minimum !== undefined && v < schema.minimum) errs.push(`${at}: below minimum`);
    if (schema.maximum !== undefined && v > schema.maximum) errs.push(`${at}: above maximum`);
  }
  if (Array.isArray(v) && schema.items) {
    v.forEach((x, i) => errs.push(...schemaErrors(schema.items, x, `${at}/${i}`)));
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const k of schema.required ?? []) if (!(k in v)) errs.push(`${at}: missing ${k}`);
    const props = schema.properties ?? {};
    for (const [k, x] of Object.entries(v)) {
      if (k in props) errs.push(...schemaErrors(props[k], x, `${at}/${k}`));
      else if (schema.additionalProperties === false) errs.push(`${at}: unexpected ${k}`);
    }
  }
  return errs;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function makeTools(manifest, url, runId) {
  let nextCallId = 0;
  const call = async (tool, arg) => {
    const callId = ++nextCallId;
    const key = `${runId}:${callId}`;
    const input = arg === undefined ? {} : copyJSON(arg, 'tool input', 'input');
    const errs = schemaErrors(tool.input, input);
    if (errs.length > 0) throw kindError('InvalidToolInput', `${tool.path}: ${errs.join('; ')}`);
    const body = JSON.stringify({ tool: tool.path, input, key, runId });
    for (let attempt = 0; ; attempt++) {
      let status, answer;
      try {
        const resp = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
          body,
        });
        status = resp.status;
        answer = await resp.json().catch(() => ({}));
      } catch (err) {
        status = 0;
        answer = { error: { message: String(err) } };
      }
      if ((status === 0 || status >= 500) && attempt < RETRIES) {
        await sleep(20 * 2 ** attempt);
        continue;
      }
      if (status === 200 && answer && 'output' in answer) return answer.output;
      if (status === 202) {
        throw kindError('ExecutionFailure', `${tool.path} started durable work the reference cannot wait for`);
      }
      throw kindError('ToolFailure', answer?.error?.message ?? `${tool.path}: HTTP ${status}`);
    }
  };
  // An absent name is an unknown tool; names read through it are unknown too
  // (tools.nope.f() rejects with UnknownTool for tools.nope.f, as codemode does).
  const unknown = (path) => new Proxy(async () => {
    throw kindError('UnknownTool', `tools.${path} is not a tool`);
  }, {
    get(t, name, recv) {
      if (typeof name !== 'string' || name === 'then' || name === 'toJSON' || name in t) {
        return Reflect.get(t, name, recv);
      }
      return unknown(`${path}.${name}`);
    },
  });
  // A namespace is a plain object of tools and sub-namespaces behind a
  // proxy that turns a read of an absent name into an unknown tool.
  const namespace = (prefix) => {
    const target = {};
    return {
      target,
      proxy: new Proxy(target, {
        get(t, name, recv) {
          if (typeof name !== 'string' || name in t || name === 'then' || name === 'toJSON') {
            return Reflect.get(t, name, recv);
          }
          return unknown(prefix + name);
        },
      }),
    };
  };
  const root = namespace('');
  const spaces = new Map([['', root]]);
  for (const tool of manifest.tools) {
    const segs = tool.path.split('.');
    let prefix = '';
    let ns = root;
    for (const seg of segs.slice(0, -1)) {
      const next = prefix + seg + '.';
      if (!spaces.has(next)) {
        const child = namespace(next);
        spaces.set(next, child);
        ns.target[seg] = child.proxy;
      }
      ns = spaces.get(next);
      prefix = next;
    }
    const name = segs[segs.length - 1];
    ns.target[name] = { [name]: (input) => call(tool, input) }[name];
  }
  return root.proxy;
}

function describe(err) {
  if (err instanceof Error) {
    const kind = typeof err.kind === 'string' && CATCHABLE.has(err.kind) ? err.kind : 'ExecutionFailure';
    const message = kind === 'ExecutionFailure' ? `uncaught ${err.name}: ${err.message}` : err.message;
    return { kind, message };
  }
  if (err !== null && typeof err === 'object' && typeof err.kind === 'string' && CATCHABLE.has(err.kind)) {
    return { kind: err.kind, message: String(err.message) };
  }
  return { kind: 'ExecutionFailure', message: `uncaught ${format('%o', err)}` };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  process.on('unhandledRejection', () => {});
  const source = readFileSync(args.file, 'utf8');
  const manifest = await (await fetch(args.url)).json();
  const tools = makeTools(manifest, args.url, args.runId);
  // tools is a global of the language, not only a parameter.
  globalThis.tools = tools;
  const logs = [];
  const capture = (...a) => { logs.push(format(...a)); };
  // console.table is node's own, written to a string (its stream writes synchronously);
  // console.dir is util.inspect with the caller's options, as node's console.dir.
  let tableText = '';
  const tableConsole = new Console({
    stdout: new Writable({ write(chunk, _enc, cb) { tableText += chunk; cb(); } }),
    colorMode: false,
  });
  const table = (...a) => {
    tableText = '';
    tableConsole.table(...a);
    logs.push(tableText.replace(/\n$/, ''));
  };
  const dir = (v, opts) => { logs.push(inspect(v, { ...opts, customInspect: false })); };
  const console = { log: capture, info: capture, warn: capture, error: capture, table, dir };
  const AsyncFunction = (async () => {}).constructor;
  let result;
  let fn;
  try {
    fn = new AsyncFunction('tools', 'console', '"use strict";\n' + source);
  } catch (err) {
    result = { ok: false, error: { kind: 'ParseError', message: `${err.name}: ${err.message}` } };
  }
  if (fn) {
    try {
      const v = await fn(tools, console);
      result = { ok: true, value: v === undefined ? null : copyJSON(v, "the program's result", 'result') };
    } catch (err) {
      result = { ok: false, error: describe(err) };
    }
  }
  if (logs.length > 0) result.logs = logs;
  process.stdout.write(JSON.stringify(result) + '\n', () => process.exit(result.ok ? 0 : 1));
}

main().catch((err) => {
  process.stderr.write(`reference: ${err.stack}\n`);
  process.exit(2);
});
