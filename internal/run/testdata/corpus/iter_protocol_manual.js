const range = { from: 1, to: 4, [Symbol.iterator]() { let c = this.from, t = this.to; return { next: () => c <= t ? { value: c++, done: false } : { value: undefined, done: true }, return() { closed.push('closed'); return { done: true }; } }; } };
const closed = [];
for (const x of range) { if (x === 2) break; }
const [a, b] = range;
return [[...range], Math.max(...range), closed, a, b];
