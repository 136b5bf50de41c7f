async function safeDivide(a, b) {
  if (b === 0) return { error: 'skip' };
  return tools.math.divide({ a, b });
}
const out = [];
for (const [a, b] of [[6, 3], [1, 0], [9, 2]]) out.push(await safeDivide(a, b));
const big = out.filter(r => 'quotient' in r).map(r => r.quotient).reduce((a, b) => Math.max(a, b));
return { out, big };
