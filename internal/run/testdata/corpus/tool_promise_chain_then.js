const r = await tools.math.add({ a: 1, b: 2 })
  .then(({ sum }) => tools.math.add({ a: sum, b: 10 }))
  .then(({ sum }) => tools.string.upper({ text: 'total ' + sum }))
  .then(({ text }) => text);
return r;
