function* args() { yield 3; yield 1; yield 2; }
const max = Math.max(...args());
const arr = Array.from(args()).sort();
const obj = Object.fromEntries((function* () { yield ['k1', 1]; yield ['k2', 2]; })());
const m = new Map(args().map((x) => [x, x * x]));
return [max, arr, obj, [...m]];
