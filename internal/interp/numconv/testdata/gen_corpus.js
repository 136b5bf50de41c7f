// Regenerates node_corpus.json: node testdata/gen_corpus.js > testdata/node_corpus.json
// Expectations are V8's (node 20) outputs for a fixed pseudo-random set of numbers.
let seed = 12345;
function rnd() { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; }
const buf = new DataView(new ArrayBuffer(8));
function randBits() {
  buf.setUint32(0, Math.floor(rnd() * 4294967296));
  buf.setUint32(4, Math.floor(rnd() * 4294967296));
  return buf.getFloat64(0);
}
const nums = [0, -0, 1, -1, 0.1, 0.5, 1.5, 2.5, 1.005, 1.25, 1.35, 123.456, 1e21, 1e-7, 1.5e-7,
  9.999999999999999e20, 1e23, 5e-324, 1.7976931348623157e308, 2 ** 53, 2 ** 53 + 2, 2 ** 64,
  0.000001, 0.0000001, 123456789012345680000, Math.PI, Math.E, 1 / 3, 2 / 3, 100, 1e100, 4.35, 0.3];
for (let i = 0; i < 120; i++) {
  let x = randBits();
  if (!isFinite(x)) continue;
  nums.push(x);
}
for (let i = 0; i < 200; i++) nums.push((rnd() - 0.5) * 10 ** Math.floor(rnd() * 40 - 20));
for (let i = 0; i < 100; i++) nums.push(Math.round(rnd() * 100000) / 1000);
const out = [];
for (const x of nums) {
  const c = { bits: (buf.setFloat64(0, x), buf.getBigUint64(0).toString(16)), str: String(x),
    radix: {}, fixed: {}, prec: {}, exp: {} };
  for (const r of [2, 3, 7, 8, 16, 36]) c.radix[r] = x.toString(r);
  if (Math.abs(x) < 1e21) for (const d of [0, 2, 5, 20, 100]) c.fixed[d] = x.toFixed(d);
  else c.fixed[2] = x.toFixed(2);
  for (const p of [1, 2, 6, 17, 21, 100]) c.prec[p] = x.toPrecision(p);
  for (const d of [0, 1, 4, 16, 20, 100]) c.exp[d] = x.toExponential(d);
  c.exp[-1] = x.toExponential();
  out.push(c);
}
console.log(JSON.stringify(out, null, 0));
