const log = [];
Promise.resolve().then(() => log.push('then 1')).then(() => log.push('then 2'));
Promise.reject(new Error('r')).catch(() => log.push('catch')).then(() => log.push('after catch'));
(async () => { log.push('async body'); await undefined; log.push('after await 1'); await undefined; log.push('after await 2'); })();
log.push('sync');
await null; await null; await null; await null;
return log;
