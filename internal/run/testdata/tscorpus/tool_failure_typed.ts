type DivideOut = { quotient: number };
const r = (await tools.math.divide({ a: 1, b: 0 })) as DivideOut;
return r.quotient;
