const s = new Set([1, 2, 3]);
const seen = [];
for (const v of s) { seen.push(v); if (v === 1) { s.delete(2); s.add(4); } }
const m = new Map([['a', 1]]);
const mseen = [];
for (const [k] of m) { mseen.push(k); if (mseen.length < 3) m.set(k + k, 1); }
return [seen, mseen];
