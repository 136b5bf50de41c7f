// Map and Set: insertion, lookup, deletion and iteration.
function main() {
  const m = new Map();
  const s = new Set();
  for (let i = 0; i < 100000; i++) {
    m.set("k" + (i % 50000), i);
    s.add(i % 30000);
  }
  let sum = 0;
  for (let i = 0; i < 100000; i++) {
    sum = (sum + (m.get("k" + (i % 60000)) || 0)) % 1000003;
    if (s.has(i)) {
      sum++;
    }
  }
  for (let i = 0; i < 20000; i++) {
    m.delete("k" + i);
    s.delete(i);
  }
  let iter = 0;
  for (const [k, v] of m) {
    iter = (iter + v + k.length) % 1000003;
  }
  for (const v of s) {
    iter = (iter + v) % 1000003;
  }
  return [m.size, s.size, sum, iter];
}
