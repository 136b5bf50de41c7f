const people = [
  { name: 'a', age: 30 }, { name: 'b', age: 25 }, { name: 'c', age: 30 }, { name: 'd', age: 25 },
  { name: 'e', age: 40 }, { name: 'f', age: 30 }, { name: 'g', age: 25 }, { name: 'h', age: 40 },
];
const big = Array.from({ length: 50 }, (_, i) => ({ k: i % 3, i }));
const byK = big.toSorted((x, y) => x.k - y.k).map(x => x.i);
const withUndef = [3, undefined, 1, undefined, 2].sort();
const holes = [3, , 1].sort();
return [people.sort((x, y) => x.age - y.age).map(p => p.name).join(''), byK, withUndef, holes.length, Object.keys(holes)];
