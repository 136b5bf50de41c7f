// Chains of promise reactions, 99,000 in all: eleven chains of 9,000, each awaited before the
// next starts (a run holds at most 10,000 pending promises at once).
async function main() {
  let total = 0;
  for (let round = 0; round < 11; round++) {
    let p = Promise.resolve(0);
    for (let i = 0; i < 9000; i++) {
      p = p.then((v) => v + 1);
    }
    total += await p;
  }
  return total;
}
