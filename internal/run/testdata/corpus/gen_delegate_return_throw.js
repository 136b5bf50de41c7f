function* inner() { try { yield 'a'; yield 'b'; } finally { log.push('inner cleanup'); } }
function* outer() { yield 0; const r = yield* inner(); yield 'after'; }
const log = [];
const g = outer();
log.push(g.next().value, g.next().value);
log.push(JSON.stringify(g.return('early')));
log.push(JSON.stringify(g.next()));
function* catcher() { while (true) { try { yield 'ready'; } catch (e) { log.push('caught ' + e); } } }
const c = catcher();
c.next();
log.push(c.throw('x').value);
return log;
