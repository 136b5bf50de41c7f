const arr = Array.from({ length: 10000 }, (_, i) => i * 2);
const sum = arr.reduce((a, b) => a + b, 0);
return { len: arr.length, sum, head: arr.slice(0, 3), tail: arr.slice(-3), filtered: arr.filter(x => x % 1000 === 0) };
