const v = await Promise.resolve(5).then(x => { if (x > 1) throw new TypeError('too big: ' + x); return x; });
return v;
