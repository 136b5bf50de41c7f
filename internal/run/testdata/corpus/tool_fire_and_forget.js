const log = [];
tools.slow({ ms: 200 }).then(() => log.push('late'));
const fast = await tools.math.add({ a: 1, b: 1 });
log.push('fast ' + fast.sum);
return log;
