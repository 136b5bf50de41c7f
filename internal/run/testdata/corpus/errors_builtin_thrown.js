const out = [];
const cases = [() => null.x, () => undefined(), () => notDefined, () => new Array(-1), () => (1).toFixed(200), () => 'x'.repeat(-1), () => JSON.parse('{'), () => decodeURIComponent('%'), () => Symbol() + '', () => ({}).x.y, () => { const c = 1; c = 2; }];
for (const f of cases) { try { f(); out.push('no error'); } catch (e) { out.push(e.constructor.name); } }
return out;
