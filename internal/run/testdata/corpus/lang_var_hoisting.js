function f() { return typeof g + ':' + x; }
var x = 1;
function g() {}
const out = [f()];
try { out.push(y); let y = 2; } catch (e) { out.push(e.name); }
{ let z = 'inner'; out.push(z); }
return out;
