let attempts = 0;
let last;
for (const msg of ['one', 'two', 'three']) {
  attempts++;
  try { await tools.fail({ message: `attempt ${msg} failed` }); }
  catch (e) { last = e.message; continue; }
}
const ok = await tools.math.add({ a: attempts, b: 0 });
return [attempts, last, ok.sum];
