const log = [];
function f() {
  try { log.push('try'); return 'from try'; }
  finally { log.push('finally'); }
}
function g() {
  try { throw new Error('boom'); }
  catch (e) { log.push('catch ' + e.message); return 'from catch'; }
  finally { log.push('finally g'); }
}
function h() {
  try { return 'try'; } finally { return 'finally wins'; }
}
function loop() {
  const r = [];
  for (let i = 0; i < 3; i++) {
    try { if (i === 1) continue; if (i === 2) break; r.push(i); }
    finally { r.push('f' + i); }
  }
  return r;
}
return [f(), g(), h(), loop(), log];
