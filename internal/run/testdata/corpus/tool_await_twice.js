const p = tools.math.add({ a: 20, b: 22 });
const [x, y] = [await p, await p];
const again = await Promise.all([p, p]);
return [x, y, x === y, again[0] === x];
