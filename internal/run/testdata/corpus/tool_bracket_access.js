const ns = 'math';
const r = await tools[ns]['add']({ a: 1, b: 1 });
const name = 'upper';
const u = await tools.string[name]({ text: 'bracket' });
const fns = [tools.math.add, tools['math'].add];
return [r.sum, u.text, fns[0] === fns[1], typeof tools.math.add, typeof tools.echo];
