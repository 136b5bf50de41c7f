const fns = [];
for (let i = 0; i < 3; i++) fns.push(() => i);
const vfns = [];
for (var v = 0; v < 3; v++) vfns.push(() => v);
const ofns = [];
for (const x of [10, 20]) ofns.push(() => x);
return [fns.map(f => f()), vfns.map(f => f()), ofns.map(f => f())];
