const out = [];
for await (const v of [Promise.resolve('a'), 'b', Promise.resolve('c')]) out.push(v);
const custom = { [Symbol.asyncIterator]() { let i = 0; return { next: async () => ({ value: i, done: i++ >= 2 }) }; } };
for await (const v of custom) out.push(v);
return out;
