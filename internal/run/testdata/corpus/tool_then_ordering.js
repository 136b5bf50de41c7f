const log = [];
const p1 = tools.slow({ ms: 100 }).then(() => log.push('slow'));
const p2 = tools.echo('quick').then(v => log.push(v));
log.push('sync');
await Promise.all([p1, p2]);
return log;
