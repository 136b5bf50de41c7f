const out = [];
class A { constructor() { this.x = 1; } }
try { A(); } catch (e) { out.push(e.name); }
class B extends A { constructor() { } }
try { new B(); } catch (e) { out.push(e.name); }
const frozen = Object.freeze(new A());
try { frozen.x = 2; } catch (e) { out.push(e.name); }
return out;
