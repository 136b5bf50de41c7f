const a = [3, 1, 2];
a.push(4, 5);
const popped = a.pop();
a.unshift(0);
const shifted = a.shift();
const spliced = a.splice(1, 1, 'x', 'y');
return [a, popped, shifted, spliced, a.length, a.indexOf('x'), a.includes(2), a.lastIndexOf(9), Array.isArray(a), a.at(-1), a.concat([9], 10, [[11]])];
