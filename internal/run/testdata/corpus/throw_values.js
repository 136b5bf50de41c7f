const out = [];
for (const v of [1, 'str', null, { code: 7 }, [1, 2]]) {
  try { throw v; } catch (e) { out.push(e); }
}
return out;
