const results = await Promise.allSettled([
  tools.math.add({ a: 1, b: 2 }),
  tools.math.divide({ a: 1, b: 0 }),
  tools.fail({ message: 'nope' }),
  tools.echo('fine'),
]);
return results.map(r => r.status === 'fulfilled' ? ['ok', r.value] : ['err', r.reason.message, r.reason.kind]);
