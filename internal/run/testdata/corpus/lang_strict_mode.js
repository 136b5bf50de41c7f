const out = [];
try { undeclared = 1; } catch (e) { out.push(e.name); }
function f() { return this; }
out.push(f() === undefined);
const o = Object.freeze({ a: 1 });
try { o.a = 2; } catch (e) { out.push(e.name); }
try { delete Object.prototype; } catch (e) { out.push(e.name); }
return out;
