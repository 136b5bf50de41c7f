tools.approvals.request({ reason: 'background' });
const { sum } = await tools.math.add({ a: 2, b: 3 });
return sum;
