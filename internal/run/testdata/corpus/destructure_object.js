const { a, b: { c = 3, d } = {}, ...rest } = { a: 1, b: { d: 4 }, e: 5, f: 6 };
const { x = 10, y: why = 20 } = { x: undefined, y: null };
return { a, c, d, rest, x, why };
