const proto = { inherited: 1 };
const o = Object.create(proto);
o.b = 2; o.a = 1; o[2] = 'two'; o[1] = 'one';
Object.defineProperty(o, 'hidden', { value: 1, enumerable: false });
const keys = [];
for (const k in o) keys.push(k);
const arrKeys = [];
for (const i in ['x', 'y']) arrKeys.push(typeof i + i);
return { keys, arrKeys };
