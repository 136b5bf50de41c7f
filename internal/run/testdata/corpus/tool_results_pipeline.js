const { parts } = await tools.string.split({ text: '3,1,2,5,4', separator: ',' });
const nums = parts.map(Number);
const sums = await Promise.all(nums.map((n, i) => tools.math.add({ a: n, b: i })));
const values = sums.map(s => s.sum).toSorted((a, b) => b - a);
const { quotient } = await tools.math.divide({ a: values.reduce((a, b) => a + b), b: values.length });
return { values, mean: quotient };
