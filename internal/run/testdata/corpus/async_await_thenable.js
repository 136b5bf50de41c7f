const log = [];
const thenable = { then(res) { log.push('then called'); res(42); } };
const p = (async () => await thenable)();
log.push('sync');
const v = await p;
const resolvedWithThenable = await Promise.resolve({ then(r) { r('adopted'); } });
return [log, v, resolvedWithThenable];
