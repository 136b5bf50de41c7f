function withTimeout(p, ms) {
  return Promise.race([p, tools.slow({ ms }).then(() => { throw new Error(`timed out after ${ms}ms`); })]);
}
const ok = await withTimeout(tools.math.add({ a: 1, b: 2 }), 300);
let late;
try { await withTimeout(tools.slow({ ms: 400 }), 30); } catch (e) { late = e.message; }
return [ok.sum, late];
