const s1 = Symbol('desc'), s2 = Symbol('desc');
const reg = Symbol.for('app.key');
const o = { [s1]: 'hidden', visible: 1 };
return [s1 === s2, s1.toString(), s1.description, Symbol.for('app.key') === reg, Symbol.keyFor(reg), Object.keys(o), o[s1], JSON.stringify(o), typeof Symbol.iterator, Object.getOwnPropertySymbols(o).length];
