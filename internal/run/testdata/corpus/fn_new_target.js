function F() { return new.target === F ? 'new' : 'call'; }
function G() { this.kind = new.target ? new.target.name : 'none'; }
class A { constructor() { this.cls = new.target.name; } }
class B extends A {}
const out = [new F() instanceof F, F(), new G().kind, new A().cls, new B().cls];
return out;
