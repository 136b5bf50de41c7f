// console.dir inspects its value with the options node's util.inspect reads: depth (a number,
// Infinity, null), showHidden, maxArrayLength, breakLength.
const deep = { a: { b: { c: { d: { e: 1 } } } } };
console.dir(deep);
console.dir(deep, { depth: 0 });
console.dir(deep, { depth: 1 });
console.dir(deep, { depth: null });
console.dir(deep, { depth: Infinity });
console.dir([1, 2, 3], { showHidden: true });
console.dir(Array.from({ length: 8 }, (_, i) => i), { maxArrayLength: 3 });
console.dir([1, 2], { maxArrayLength: 0 });
console.dir({ alpha: 'aaaaaaaaaa', beta: 'bbbbbbbbbb', gamma: 'cccccccccc' }, { breakLength: 20 });
console.dir('a string is quoted');
console.dir([{ x: [{ y: [1] }] }], { depth: 2 });
return null;
