const { sum } = await tools.math.add({ a: 0.1, b: 0.2 });
const { text } = await tools.string.upper({ text: `sum is ${sum}` });
return `${text} / fixed ${sum.toFixed(2)} / precise ${sum === 0.30000000000000004}`;
