const a = [1, 2, 3, 4, 5];
return [a.slice(1, -1), a.slice(-2), a.slice(10), [...a].reverse(), a.keys().next(), a.join(''), String(a), a.toString(), [[1, 2], [3]].map(([x, y = 0]) => x + y), Array.prototype.slice.call({ length: 2, 0: 'a', 1: 'b' })];
