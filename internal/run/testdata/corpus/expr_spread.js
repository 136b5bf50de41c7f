const a = [1, 2], b = [3];
const merged = [...a, ...b, ...'hi', ...new Set([4, 4, 5])];
const o1 = { x: 1, y: 2 }, o2 = { y: 3, z: 4 };
const mo = { ...o1, ...o2, ...null, ...undefined, ...'ab' };
const max = Math.max(...merged.filter(Number.isFinite));
function f(...args) { return args; }
return [merged, mo, max, f(...a, 0, ...b)];
