const order = [];
async function f() { order.push('f start'); await null; order.push('f after await'); return 'f'; }
const p = f();
order.push('sync after call');
const v = await p;
order.push('got ' + v);
return order;
