// Comparators that are not consistent (a boolean, a constant) or that log see V8's calls
const log = [];
const logged = [3, 1, 2].sort((x, y) => { log.push(`${x}${y}`); return x - y; });
return [
  [5, 1, 4, 2, 3].sort((a, b) => a > b),
  [5, 1, 4, 2, 3].toSorted((a, b) => b > a),
  [1, 2, 3, 4, 5].sort(() => -1),
  [1, 2, 3, 4, 5].sort(() => 1),
  logged, log,
];
