function named(a, b) {}
const anon = function () {};
const arrow = (x) => x;
const obj = { method() {}, ['comp' + 'uted']: () => 1, get acc() { return 1; } };
class K { static s() {} m() {} }
const desc = Object.getOwnPropertyDescriptor(obj, 'acc');
return [named.name, named.length, anon.name, arrow.name, arrow.length, obj.method.name,
  obj.computed.name, desc.get.name, K.name, K.s.name, new K().m.name];
