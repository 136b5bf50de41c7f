const log = [];
Promise.resolve().then(() => log.push('then 1')).then(() => log.push('then 2'));
queueMicrotask(() => log.push('microtask'));
(async () => { log.push('async body'); await undefined; log.push('after await 1'); await undefined; log.push('after await 2'); })();
log.push('sync');
await null; await null; await null; await null;
return log;
