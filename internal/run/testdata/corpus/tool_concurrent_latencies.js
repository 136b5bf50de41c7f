const order = [];
const started = [300, 10, 150].map(ms => tools.slow({ ms }).then(r => { order.push(r.slept); return r.slept; }));
const results = await Promise.all(started);
return { order, results };
