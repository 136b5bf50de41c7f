const [a, , b = 2, ...rest] = [1, 9, undefined, 4, 5];
const [[p, q], [r] = [7]] = [[1, 2]];
let m = 1, n = 2;
[m, n] = [n, m];
const [s1, s2] = 'hé';
return { a, b, rest, p, q, r, m, n, s1, s2 };
