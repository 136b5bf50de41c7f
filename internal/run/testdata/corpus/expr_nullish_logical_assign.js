const cfg = { retries: 0, name: '', timeout: null };
const r = [cfg.retries ?? 3, cfg.retries || 3, cfg.name ?? 'anon', cfg.timeout ?? 1000, cfg.missing ?? 'dflt'];
const o = { a: null, b: 0, c: 1 };
o.a ??= 'filled'; o.b ||= 'truthy'; o.c &&= 'and'; o.d ??= 'new';
let count = 0;
const side = { v: 1 };
side.v ||= ++count;
return [r, o, count];
