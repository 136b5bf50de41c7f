function* count(n) { for (let i = 0; i < n; i++) yield i; return 'done'; }
const g = count(2);
const steps = [g.next(), g.next(), g.next(), g.next()];
function* echo() { const a = yield 1; const b = yield a * 2; return a + b; }
const e = echo();
const ev = [e.next('ignored').value, e.next(5).value, e.next(7)];
return [steps, ev, [...count(4)]];
