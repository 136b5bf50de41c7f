// Array.prototype.sort with a comparator function over pseudo-random numbers.
function main() {
  let seed = 42;
  const a = [];
  for (let i = 0; i < 40000; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    a.push(seed % 100000);
  }
  a.sort((x, y) => x - y);
  const objs = a.slice(0, 10000).map((v, i) => ({ k: v % 100, i }));
  objs.sort((p, q) => p.k - q.k);
  return [a[0], a[20000], a[39999], objs[0].i, objs[9999].i];
}
