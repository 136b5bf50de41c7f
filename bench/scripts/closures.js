// Closures: creating functions that capture variables, and calling them.
function makeCounter(start) {
  let n = start;
  return {
    inc: () => ++n,
    add: (k) => (n += k),
    get: () => n,
  };
}

function main() {
  let total = 0;
  for (let i = 0; i < 30000; i++) {
    const c = makeCounter(i);
    c.inc();
    c.add(3);
    total = (total + c.get()) % 1000003;
  }
  const adders = [];
  for (let i = 0; i < 1000; i++) {
    adders.push((x) => x + i);
  }
  let x = 0;
  for (let r = 0; r < 100; r++) {
    for (const f of adders) {
      x = f(x) % 1000003;
    }
  }
  return [total, x];
}
