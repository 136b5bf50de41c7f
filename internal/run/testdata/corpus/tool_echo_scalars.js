const out = [];
for (const v of ['just a string', 42, true, null, [1, 'two']]) out.push(await tools.echo(v));
out.push(await tools.echo());
return out;
