const src = { d: new Date(0), m: new Map([[1, { deep: true }]]), s: new Set(['x']), arr: [1, { x: 2 }] };
src.self = src;
const clone = structuredClone(src);
const out = [clone.m.get(1).deep, clone.d instanceof Date, clone.d.getTime(), clone.self === clone, clone !== src, [...clone.s], clone.arr[1].x];
try { structuredClone({ f() {} }); } catch (e) { out.push(e.name); }
return out;
