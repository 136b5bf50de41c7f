const log = [];
async function* src() { try { yield 1; yield 2; yield 3; } finally { log.push('cleanup'); } }
for await (const v of src()) { log.push(v); if (v === 2) break; }
async function* failing() { yield 'ok'; throw new Error('gen broke'); }
try { for await (const v of failing()) log.push(v); } catch (e) { log.push('caught ' + e.message); }
return log;
