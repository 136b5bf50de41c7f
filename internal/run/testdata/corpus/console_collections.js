console.log(new Map([[1, 'a'], ['k', { v: 2 }]]));
console.log(new Set([1, 'two']));
console.log([new Map(), new Set()]);
return null;
