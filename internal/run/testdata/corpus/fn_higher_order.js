const compose = (...fns) => x => fns.reduceRight((v, f) => f(v), x);
const pipe = (...fns) => x => fns.reduce((v, f) => f(v), x);
const inc = x => x + 1, dbl = x => x * 2;
const memo = fn => { const cache = new Map(); let calls = 0; return [n => { if (!cache.has(n)) { calls++; cache.set(n, fn(n)); } return cache.get(n); }, () => calls]; };
const [sq, count] = memo(n => n * n);
sq(3); sq(3); sq(4);
return [compose(inc, dbl)(5), pipe(inc, dbl)(5), count()];
