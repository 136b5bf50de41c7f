class A { #x = 1; static read(o) { return o.#x; } }
const out = [A.read(new A())];
try { A.read({}); } catch (e) { out.push(e.name); }
return out;
