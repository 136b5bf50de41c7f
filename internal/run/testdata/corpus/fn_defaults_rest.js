function f(a, b = a * 2, ...rest) { return [a, b, rest, f.length]; }
const g = (x, y = () => x) => { x = 5; return y(); };
function h(a, b = 1, c) { return h.length; }
return [f(1), f(1, undefined, 3, 4), g(1), h(), ((...args) => args.length)(1, 2, 3)];
