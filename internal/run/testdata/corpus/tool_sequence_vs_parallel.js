const seq = [];
for (const ms of [150, 10]) seq.push((await tools.slow({ ms })).slept);
const par = [];
await Promise.all([150, 10].map(ms => tools.slow({ ms }).then(r => par.push(r.slept))));
return { seq, par };
