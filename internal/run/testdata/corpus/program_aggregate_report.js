const regions = ['north', 'south', 'east'];
const totals = {};
const failures = [];
await Promise.all(regions.map(async (region, i) => {
  try {
    const { sum } = await tools.math.add({ a: (i + 1) * 100, b: region.length });
    if (region === 'east') await tools.fail({ message: `${region} audit failed` });
    totals[region] = sum;
  } catch (e) {
    failures.push({ region, error: e.message, kind: e.kind });
  }
}));
const report = Object.entries(totals).sort(([a], [b]) => a.localeCompare(b)).map(([r, t]) => `${r.padEnd(6)}${String(t).padStart(5)}`);
console.log(report.join('\n'));
return { report, failures };
