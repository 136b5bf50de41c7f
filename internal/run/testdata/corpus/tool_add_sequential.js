let total = 0;
for (const [a, b] of [[1, 2], [3, 4], [5, 6]]) {
  const { sum } = await tools.math.add({ a, b });
  total = (await tools.math.add({ a: total, b: sum })).sum;
}
return total;
