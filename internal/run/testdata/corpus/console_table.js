// console.table in node's box format: rows of objects, of arrays, of primitives, mixed rows,
// chosen columns, Maps and Sets, and what is not tabular at all.
console.table([{ a: 1, b: 'x' }, { a: 2, c: true }]);
console.table([[1, 2], [3, 4, 5]]);
console.table(['apple', 'kiwi', 42]);
console.table([{ name: 'ann', age: 31 }, 'loose', { name: 'bob' }]);
console.table({ first: { x: 1 }, second: { y: 2 } });
console.table([{ a: 1, b: 2, c: 3 }, { a: 4, b: 5, c: 6 }], ['c', 'a']);
console.table([{ nested: { deep: { deeper: 1 } }, list: [1, 2, 3, 4, 5], wide: { p: 1, q: 2, r: 3 } }]);
console.table(new Map([['k1', { v: 1 }], ['k2', 'two']]));
console.table(new Set(['s', 2, null]));
console.table([]);
console.table(7);
console.table('text');
console.table(null);
console.table([{ 'long header name': 'centred', s: 'a string with spaces' }]);
console.table([{ u: undefined, n: null, f: -0, big: 1e21 }]);
return null;
