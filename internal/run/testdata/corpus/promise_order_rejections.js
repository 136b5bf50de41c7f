const log = [];
Promise.reject(new Error('x')).catch(() => log.push('catch 1')).then(() => log.push('then after catch'));
Promise.reject(new Error('y')).then(() => log.push('never'), () => log.push('onRejected'));
(async () => { try { await Promise.reject(new Error('z')); } catch { log.push('async catch'); } })();
Promise.resolve().then(() => log.push('plain 1')).then(() => log.push('plain 2'));
for (let i = 0; i < 6; i++) await null;
return log;
