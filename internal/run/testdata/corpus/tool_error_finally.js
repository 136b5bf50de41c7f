const log = [];
async function step(name, fn) {
  try { return await fn(); }
  catch (e) { log.push(`${name} failed: ${e.message}`); return null; }
  finally { log.push(`${name} done`); }
}
const a = await step('add', () => tools.math.add({ a: 2, b: 2 }));
const b = await step('div', () => tools.math.divide({ a: 2, b: 0 }));
return [a, b, log];
