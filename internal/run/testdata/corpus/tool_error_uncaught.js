console.log('dividing');
const r = await tools.math.divide({ a: 1, b: 0 });
return r;
