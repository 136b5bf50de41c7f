const a = [1, , 3];
const b = [];
b[5] = 'x';
const c = [1, 2, 3, 4];
c.length = 2;
return [a.length, 1 in a, a.map(x => x * 2), Object.keys(b), b.length, c, JSON.stringify(a), a.indexOf(undefined), a.includes(undefined), [,].length];
