let n = 0;
while ((await tools.math.add({ a: n, b: 1 })).sum < 4) n++;
const seen = [];
for (let i = 0; (await tools.echo(i)) < 3; i++) seen.push(i);
return [n, seen];
