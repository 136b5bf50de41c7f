const out = [];
for (const input of [{ a: 'x', b: 1 }, { a: 1 }, { a: 1, b: 2, extra: true }]) {
  try { await tools.math.add(input); out.push('accepted'); }
  catch (e) { out.push(e.kind); }
}
try { await tools.slow({ ms: 20000 }); } catch (e) { out.push(e.kind); }
try { await tools.string.concat({ parts: ['a', 1] }); } catch (e) { out.push(e.kind); }
return out;
