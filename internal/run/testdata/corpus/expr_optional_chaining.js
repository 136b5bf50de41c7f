const o = { a: { b: { c: 1 } }, fn() { return 'called'; }, arr: [{ v: 'first' }] };
const n = null;
return [o?.a?.b?.c, o.x?.y.z, n?.anything, o.fn?.(), o.nofn?.(), o.arr?.[0]?.v, o.arr?.[5]?.v, n?.[0], (n?.a)?.b, o?.['a']?.b];
