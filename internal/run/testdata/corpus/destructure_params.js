function f({ name, tags: [first, ...others] = [], opts: { deep = true } = {} } = {}, ...more) {
  return { name, first, others, deep, more };
}
const g = ([x, y] = [1, 2], { z } = { z: 3 }) => x + y + z;
return [f({ name: 'n', tags: ['a', 'b', 'c'] }, 1, 2), f(), g(), g([10, 20], { z: 30 })];
