const calls = Array.from({ length: 20 }, (_, i) => tools.echo({ i, label: `item-${i}` }));
const results = await Promise.all(calls);
return results.map(r => r.i).join(',') + ' ' + results.every((r, i) => r.label === 'item-' + i);
