// JSON.parse and JSON.stringify errors carry V8's messages
const msg = f => { try { f(); return 'no error'; } catch (e) { return e.name + ': ' + e.message; } };
const cyclic = {items: [{}]};
cyclic.items[0].owner = cyclic;
return [
  msg(() => JSON.parse("{'a': 1}")),
  msg(() => JSON.parse('{"a": 1,}')),
  msg(() => JSON.parse('[1, 2')),
  msg(() => JSON.parse(undefined)),
  msg(() => JSON.parse({})),
  msg(() => JSON.parse('{"a": 1} trailing')),
  msg(() => JSON.parse('{"key": "value", "other": undefined, "more": 1234567890}')),
  msg(() => JSON.stringify(cyclic)),
];
