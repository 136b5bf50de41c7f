const o = {};
Object.defineProperty(o, 'ro', { value: 1, writable: false, enumerable: true, configurable: false });
Object.defineProperty(o, 'hidden', { value: 2 });
let backing = 5;
Object.defineProperty(o, 'acc', { get() { return backing * 2; }, set(v) { backing = v; }, enumerable: true });
o.acc = 10;
const out = [];
try { o.ro = 9; } catch (e) { out.push(e.name); }
try { Object.defineProperty(o, 'ro', { value: 3 }); } catch (e) { out.push(e.name); }
const d = Object.getOwnPropertyDescriptor(o, 'ro');
const h = Object.getOwnPropertyDescriptor(o, 'hidden');
return [Object.keys(o), o.acc, o.hidden, d, h, out, JSON.stringify(o), Object.keys(Object.getOwnPropertyDescriptors({ q: 1 }))];
