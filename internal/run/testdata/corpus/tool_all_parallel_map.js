const words = ['alpha', 'beta', 'gamma', 'delta'];
const upper = await Promise.all(words.map(text => tools.string.upper({ text })));
const sums = await Promise.all([1, 2, 3].map((a, i) => tools.math.add({ a, b: i * 10 })));
return [upper.map(u => u.text), sums.map(s => s.sum)];
