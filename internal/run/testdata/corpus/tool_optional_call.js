const r = await tools.math?.add?.({ a: 1, b: 2 });
const missing = tools.nothing?.deeper;
return [r.sum, typeof missing];
