let v = 'leaf';
for (let i = 0; i < 40; i++) v = [v];
const out = [];
try { await tools.echo({ v }); out.push('sent'); } catch (e) { out.push(e.kind); }
let ok = 'leaf';
for (let i = 0; i < 10; i++) ok = { n: ok };
const back = await tools.echo(ok);
out.push(JSON.stringify(back).length);
return out;
