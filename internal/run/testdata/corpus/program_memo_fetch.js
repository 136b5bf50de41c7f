const cache = new Map();
let calls = 0;
function cached(a, b) {
  const key = `${a}+${b}`;
  if (!cache.has(key)) { calls++; cache.set(key, tools.math.add({ a, b }).then(r => r.sum)); }
  return cache.get(key);
}
const results = await Promise.all([cached(1, 2), cached(1, 2), cached(2, 3), cached(1, 2)]);
return { results, calls };
