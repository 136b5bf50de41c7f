const o = { b: 1, a: 2, 10: 'x', 2: 'y', '-1': 'neg', '01': 'lead', 1.5: 'float', [Symbol('s')]: 'sym' };
o.c = 3;
o[0] = 'zero';
delete o.b;
o.b = 'again';
return [Object.keys(o), JSON.stringify(o), Object.getOwnPropertySymbols(o).length];
