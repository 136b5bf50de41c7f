// Destructuring (arrays, objects, defaults, rest) and spread (calls, arrays, objects).
function add3(a, b, c) {
  return a + b + c;
}

function main() {
  let total = 0;
  const base = { a: 1, b: 2 };
  for (let i = 0; i < 15000; i++) {
    const [x, y = 2, ...rest] = [i, undefined, 3, 4];
    const { a, b, c = 5, ...others } = { ...base, d: i };
    const arr = [x, ...rest, y];
    total = (total + add3(...arr) + a + b + c + others.d + arr.length) % 1000003;
  }
  return total;
}
