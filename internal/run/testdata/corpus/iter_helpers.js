function* nat() { let i = 0; while (true) yield i++; }
const r1 = nat().filter(x => x % 3 === 0).map(x => x * 2).take(4).toArray();
const r2 = nat().drop(5).take(3).reduce((a, b) => a + b, 0);
const r3 = [1, 2, 3].values().flatMap(x => [x, -x]).toArray();
const r4 = nat().take(5).some(x => x > 3);
const r5 = nat().find(x => x * x > 50);
const seen = [];
nat().take(3).forEach(x => seen.push(x));
return [r1, r2, r3, r4, r5, seen, Iterator.from({ next() { return { done: true }; } }).toArray()];
