async function* pages(n: number): AsyncGenerator<number[], void, unknown> {
  for (let i = 0; i < n; i++) {
    const { sum } = (await tools.math.add({ a: i, b: 100 })) as { sum: number };
    yield [i, sum];
  }
}
function* ids(prefix: string): Generator<string> {
  yield `${prefix}1`;
  yield `${prefix}2`;
}
const out: number[][] = [];
for await (const p of pages(3)) out.push(p);
return { out, ids: [...ids("id")] };
