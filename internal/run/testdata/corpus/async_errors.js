async function bad() { await null; throw new TypeError('async bad'); }
const out = [];
try { await bad(); } catch (e) { out.push(e.name + ':' + e.message); }
const r = await bad().catch(e => 'caught via catch: ' + e.message);
out.push(r);
const settled = await bad().then(() => 'ok', e => 'rejected ' + e.constructor.name);
out.push(settled);
const fin = [];
await Promise.reject(new Error('x')).finally(() => fin.push('finally ran')).catch(() => fin.push('then caught'));
out.push(fin);
return out;
