const log = [];
const p = Promise.resolve(1);
Promise.all([p]).then(() => log.push('all'));
Promise.allSettled([p]).then(() => log.push('allSettled'));
Promise.race([p]).then(() => log.push('race'));
Promise.any([p]).then(() => log.push('any'));
p.then(() => log.push('t1')).then(() => log.push('t2')).then(() => log.push('t3')).then(() => log.push('t4'));
for (let i = 0; i < 8; i++) await null;
return log;
