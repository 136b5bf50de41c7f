const { quotient } = await tools.math.divide({ a: 10, b: 4 });
const third = await tools.math.divide({ a: 1, b: 3 });
return [quotient, third.quotient, third.quotient * 3];
