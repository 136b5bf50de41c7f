function makeCounter() {
  let count = 0;
  return { inc: () => ++count, dec: () => --count, get value() { return count; } };
}
const a = makeCounter(), b = makeCounter();
a.inc(); a.inc(); b.dec();
const adders = [1, 2, 3].map(n => x => x + n);
return [a.value, b.value, adders.map(f => f(10))];
