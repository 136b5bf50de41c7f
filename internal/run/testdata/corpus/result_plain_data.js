// What crosses the boundary as data: JSON values, Dates as ISO strings, toJSON results,
// undefined properties left out (null in arrays), and errors as {name, message} plus their own
// enumerable properties.
const err = new RangeError('too far');
err.code = 7;
return {
  numbers: [Infinity, -0, NaN, 1.5],
  date: new Date(Date.UTC(1999, 11, 31, 23, 59, 59)),
  nested: { u: undefined, list: [undefined, 1] },
  bare: Object.create(null),
  re: /re/g,
  custom: { toJSON() { return 'custom'; } },
  err,
  settled: (await Promise.allSettled([tools.fail({ message: 'Lookup refused' })])).map(r => r.reason),
};
