const o = { name: 'o', get() { return this && this.name; } };
const other = { name: 'other' };
const unbound = o.get;
const bound = o.get.bind(other);
function add(a, b) { return this.base + a + b; }
const partial = add.bind({ base: 100 }, 1);
return [o.get(), unbound(), bound(), o.get.call(other), o.get.apply({ name: 'ap' }, []),
  add.call({ base: 10 }, 1, 2), add.apply({ base: 20 }, [3, 4]), partial(2), partial.name, bound.name];
