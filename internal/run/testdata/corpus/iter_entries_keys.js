const arr = ['a', 'b'];
const m = new Map([['k', 1]]);
const s = new Set(['v']);
return [[...arr.keys()], [...arr.entries()], [...m.keys()], [...m.values()], [...s.entries()], [...'ab'].entries().next(), Object.entries({ x: 1 })];
