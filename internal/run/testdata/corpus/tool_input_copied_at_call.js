const input = { list: [1, 2], label: 'before' };
const p = tools.echo(input);
input.label = 'after';
input.list.push(3);
const r = await p;
r.label = 'mutated result';
return [r, input, r === input];
