async function* ticks(n) { for (let i = 0; i < n; i++) { await null; yield i; } }
const got = [];
for await (const t of ticks(3)) got.push(t);
const it = ticks(2);
const manual = [await it.next(), await it.next(), await it.next()];
return [got, manual];
