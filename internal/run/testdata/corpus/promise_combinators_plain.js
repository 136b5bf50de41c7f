const all = await Promise.all([1, Promise.resolve(2), new Promise(r => r(3))]);
const settled = await Promise.allSettled([Promise.resolve('y'), Promise.reject(new Error('n'))]);
const race = await Promise.race([new Promise(() => {}), Promise.resolve('fast')]);
const any = await Promise.any([Promise.reject(1), Promise.resolve('any ok')]);
let agg;
try { await Promise.any([Promise.reject(new Error('a')), Promise.reject(new Error('b'))]); }
catch (e) { agg = [e.constructor.name, e.errors.map(x => x.message)]; }
const empty = [await Promise.all([]), await Promise.allSettled([])];
return { all, settled: settled.map(s => s.status + ':' + (s.value ?? s.reason.message)), race, any, agg, empty };
