const log = [];
async function* gen() { log.push('gen start'); yield 1; log.push('gen resumed'); yield 2; }
const it = gen();
it.next().then(r => log.push('next 1: ' + r.value));
it.next().then(r => log.push('next 2: ' + r.value));
it.next().then(r => log.push('next 3: ' + r.done));
Promise.resolve().then(() => log.push('m1')).then(() => log.push('m2')).then(() => log.push('m3'));
for (let i = 0; i < 10; i++) await null;
return log;
