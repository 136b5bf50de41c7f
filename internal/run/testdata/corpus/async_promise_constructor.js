const log = [];
const p = new Promise((resolve, reject) => { log.push('executor'); resolve('first'); resolve('second'); reject(new Error('ignored')); });
log.push('after new');
log.push(await p);
const { promise, resolve } = Promise.withResolvers();
resolve('from withResolvers');
log.push(await promise);
try { await new Promise(() => { throw new Error('executor threw'); }); } catch (e) { log.push(e.message); }
log.push(await Promise.try(() => 'try value'));
return log;
