const items = [{ t: 'fruit', n: 'apple' }, { t: 'veg', n: 'kale' }, { t: 'fruit', n: 'fig' }];
const g = Object.groupBy(items, i => i.t);
const m = Map.groupBy([1, 2, 3, 4, 5], x => x % 2 ? 'odd' : 'even');
return [Object.keys(g), g.fruit.map(i => i.n), Object.getPrototypeOf(g) === null, [...m.entries()]];
