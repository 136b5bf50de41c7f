const a = await tools.echo({ v: [1] });
const b = await tools.echo({ v: [1] });
a.v.push(2);
return [a, b, a === b, Object.getPrototypeOf(a) === Object.prototype, Array.isArray(a.v)];
