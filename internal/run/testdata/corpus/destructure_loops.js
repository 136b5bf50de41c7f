const out = [];
for (const [k, v] of Object.entries({ a: 1, b: 2 })) out.push(k + v);
for (const { id, ...rest } of [{ id: 1, x: 2 }, { id: 2, y: 3 }]) out.push([id, rest]);
const m = new Map([[1, 'one'], [2, 'two']]);
for (const [num, word] of m) out.push(`${num}=${word}`);
return out;
