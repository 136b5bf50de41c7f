function* g() { yield 1; throw new Error('from generator'); }
const out = [];
try { for (const v of g()) out.push(v); } catch (e) { out.push(e.message); }
function* counter() { let i = 0; try { while (true) yield i++; } finally { out.push('finalized at ' + i); } }
const [a, b, c] = counter();
out.push(a + b + c);
const it = counter();
it.next();
out.push(JSON.stringify(it.return(99)), JSON.stringify(it.next()));
return out;
