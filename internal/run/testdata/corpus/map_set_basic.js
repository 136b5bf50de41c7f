const m = new Map();
const key = {};
m.set('a', 1).set(key, 'obj').set(NaN, 'nan').set(0, 'zero');
const s = new Set([1, 2, 2, 3, NaN, NaN]);
s.add(-0);
s.delete(2);
const iterOrder = [];
m.forEach((v, k) => iterOrder.push(typeof k));
return [m.size, m.get(key), m.get(NaN), m.get(-0), m.has('b'), [...s], s.has(0), iterOrder, m.delete('a'), m.size, [...new Map([[1, 'x']]).entries()]];
