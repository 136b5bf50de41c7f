return [new Map([[1, 2]]), new Set([1]), /re/g, Symbol('x'), () => 1, new Date(Date.UTC(1999, 11, 31, 23, 59, 59)), [Infinity, -0, NaN], { nested: { u: undefined } }, Object.create(null)];
