Promise.reject(new Error('nobody waits'));
tools.fail({ message: 'unawaited tool failure' });
const r = await tools.math.add({ a: 1, b: 1 });
return r.sum;
