// 100,000 awaits in a loop inside an async function.
async function step(v) {
  return v + 1;
}

async function main() {
  let v = 0;
  for (let i = 0; i < 50000; i++) {
    v = await step(v);
    v = await v;
  }
  return v;
}
