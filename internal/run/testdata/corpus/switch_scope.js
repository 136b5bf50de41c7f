function f(x) {
  switch (x) {
    case 'a': { let v = 'block a'; return v; }
    case 'b': let w = 'case b'; return w;
    default: return typeof w;
  }
}
const out = [f('a'), f('b')];
try { f('z'); } catch (e) { out.push(e.name); }
const r = [];
for (const v of [1, 'x', true]) {
  switch (true) {
    case typeof v === 'number': r.push('num'); break;
    case typeof v === 'string': r.push('str'); break;
    default: r.push('other');
  }
}
return [out, r];
