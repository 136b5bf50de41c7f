const all = [...'a1b22c333'.matchAll(/([a-z])(\d+)/g)].map(m => [m[1], m[2], m.index]);
const sticky = /\d+/y;
sticky.lastIndex = 1;
const r1 = sticky.exec('a12b3');
const r2 = sticky.exec('a12b3');
let err;
try { 'x'.matchAll(/x/); } catch (e) { err = e.name; }
return [all, r1[0], r2, sticky.lastIndex, err];
