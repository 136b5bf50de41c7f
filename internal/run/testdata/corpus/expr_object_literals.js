const key = 'dyn';
const n = 1;
const o = { n, [key]: 'computed', [`${key}_${n}`]: 2, 'quoted key': 3, 10: 'ten', 2: 'two', get g() { return 'getter'; }, set s(v) { this._s = v; }, method() { return this.n; }, __proto__: { inherited: true } };
o.s = 'set';
return [Object.keys(o), o.g, o.method(), o.inherited, Object.hasOwn(o, 'inherited'), o._s];
