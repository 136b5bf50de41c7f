// A chain of 100,000 promise reactions.
function main() {
  let p = Promise.resolve(0);
  for (let i = 0; i < 100000; i++) {
    p = p.then((v) => v + 1);
  }
  return p;
}
