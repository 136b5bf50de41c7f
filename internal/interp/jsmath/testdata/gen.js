// gen.js writes v8.txt.gz: inputs to the Math functions and V8's results for them, as the
// exact bit patterns of the doubles, for the differential test in jsmath_test.go.
//
// Rerun it (from this directory) with node; the inputs come from a fixed seed, so the file only
// changes when V8's results do:
//
//	node gen.js | gzip -9n > v8.txt.gz
//
// Each line is "name arg... result", every number the 16 hex digits of its float64 bits.
'use strict';

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

function hex(x) {
  f64[0] = x;
  return u64[0].toString(16).padStart(16, '0');
}

function fromBits(b) {
  u64[0] = BigInt.asUintN(64, b);
  return f64[0];
}

// xorshift64*, seeded: the same inputs on every run.
let state = 0x9e3779b97f4a7c15n;
function next64() {
  state ^= state >> 12n;
  state ^= BigInt.asUintN(64, state << 25n);
  state ^= state >> 27n;
  return BigInt.asUintN(64, state * 0x2545f4914f6cdd1dn);
}
function rand() { return Number(next64() >> 11n) / 2 ** 53; } // [0, 1)
function randInt(lo, hi) { return lo + Math.floor(rand() * (hi - lo + 1)); } // [lo, hi]
function sign() { return rand() < 0.5 ? -1 : 1; }

// A double with a random mantissa and a binary exponent in [elo, ehi] (biased exponents are
// elo+1023 ...), of either sign unless signed is false.
function randExp(elo, ehi, signed = true) {
  const e = BigInt(randInt(elo, ehi) + 1023);
  const m = next64() & 0xfffffffffffffn;
  const s = signed && rand() < 0.5 ? 1n : 0n;
  return fromBits((s << 63n) | (e << 52n) | m);
}
function randUniform(lo, hi) { return lo + rand() * (hi - lo); }
function randBits() { return fromBits(next64()); } // any double, NaNs included
function subnormal() { return fromBits(next64() & 0xfffffffffffffn) * sign(); }
// x moved by k ulps.
function ulps(x, k) {
  f64[0] = x;
  u64[0] = BigInt.asUintN(64, u64[0] + BigInt(k));
  return f64[0];
}

const specials = [0, -0, Infinity, -Infinity, NaN, 1, -1, 0.5, -0.5, 2, -2, 3, 10, 0.1,
  Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE,
  2.2250738585072014e-308, 2.225073858507201e-308, Number.EPSILON, 1 + Number.EPSILON,
  1 - Number.EPSILON / 2, Math.PI, Math.PI / 2, Math.PI / 4, -Math.PI, Math.E, Math.LN2,
  709.782712893384, 709.7827128933841, -745.1332191019411, -745.1332191019412, 710.4758600739439,
  22, 1e-300, 1e300, 2 ** -28, 2 ** -27, 2 ** -54, 2 ** 28, 2 ** 66, 1e22, 1e-7, 0.975,
  0.9999999999999999, 1.0000000000000002, 4e-324, 2 ** 1023, 2 ** -1022, 1e15, 1e16, 1e21];

// Generic random inputs: wide exponent ranges, small magnitudes, integers, halves, etc.
function generic(n, out) {
  for (let i = 0; i < n; i++) {
    switch (i % 10) {
      case 0: out.push(randExp(-1074 + 52, 1023)); break;
      case 1: out.push(randExp(-60, 12)); break;
      case 2: out.push(randExp(-4, 4)); break;
      case 3: out.push(randUniform(-10, 10)); break;
      case 4: out.push(randInt(-1000, 1000)); break;
      case 5: out.push(randInt(-200, 200) / 2); break;
      case 6: out.push(subnormal()); break;
      case 7: out.push(randBits()); break;
      case 8: out.push(randUniform(-1, 1)); break;
      default: out.push(randExp(-30, 30));
    }
  }
  return out;
}

// Arguments near multiples of pi/2 and large arguments for the trig functions.
function trigInputs(n) {
  const out = [...specials];
  generic(n / 2, out);
  for (let i = 0; i < n / 4; i++) {
    const k = i % 3 === 0 ? randInt(1, 8) : i % 3 === 1 ? randInt(1, 1e6) : randInt(1, 2 ** 40);
    out.push(ulps(sign() * k * Math.PI / 2, randInt(-4, 4)));
  }
  for (let i = 0; i < n / 4; i++) out.push(i % 2 ? randExp(19, 1023) : randExp(0, 25));
  return out;
}

function unary(fn, n, extra) {
  const out = [...specials];
  generic(n - n / 4, out);
  for (let i = 0; i < n / 4; i++) out.push(extra());
  return out;
}

const unaryFns = {
  sin: () => trigInputs(3000),
  cos: () => trigInputs(3000),
  tan: () => trigInputs(3000),
  exp: () => unary('exp', 2000, () => randUniform(-746, 710)),
  expm1: () => unary('expm1', 2000, () => rand() < 0.5 ? randUniform(-40, 710) : randExp(-60, 0)),
  log: () => unary('log', 2000, () => rand() < 0.5 ? randUniform(0.5, 2) : randExp(-1074 + 52, 1023, false)),
  log1p: () => unary('log1p', 2000, () => rand() < 0.5 ? randUniform(-1, 1) : randExp(-60, 1023, false)),
  log2: () => unary('log2', 2000, () => rand() < 0.3 ? 2 ** randInt(-1074, 1023) : randExp(-1074 + 52, 1023, false)),
  log10: () => unary('log10', 2000, () => rand() < 0.3 ? 10 ** randInt(-323, 308) : randExp(-1074 + 52, 1023, false)),
  atan: () => unary('atan', 2000, () => randExp(-30, 70)),
  asin: () => unary('asin', 2000, () => rand() < 0.5 ? randUniform(-1, 1) : randExp(-60, -1)),
  acos: () => unary('acos', 2000, () => rand() < 0.5 ? randUniform(-1, 1) : randExp(-60, -1)),
  sinh: () => unary('sinh', 2000, () => randUniform(-712, 712)),
  cosh: () => unary('cosh', 2000, () => randUniform(-712, 712)),
  tanh: () => unary('tanh', 2000, () => rand() < 0.5 ? randUniform(-23, 23) : randExp(-60, 5)),
  asinh: () => unary('asinh', 2000, () => randExp(-30, 40)),
  acosh: () => unary('acosh', 2000, () => rand() < 0.5 ? randUniform(1, 3) : randExp(0, 1023, false)),
  atanh: () => unary('atanh', 2000, () => rand() < 0.5 ? randUniform(-1, 1) : randExp(-60, -1)),
  cbrt: () => unary('cbrt', 2000, () => rand() < 0.3 ? randInt(-1000, 1000) ** 3 : randExp(-1074 + 52, 1023)),
  // Expected to match Go's math already; checked so that they stay that way.
  sqrt: () => unary('sqrt', 500, () => randExp(-1074 + 52, 1023, false)),
  fround: () => unary('fround', 500, () => randExp(-160, 130)),
};

const lines = [];
for (const [name, inputs] of Object.entries(unaryFns)) {
  for (const x of inputs()) lines.push(`${name} ${hex(x)} ${hex(Math[name](x))}`);
}

// pow and **: integer and half bases and exponents, negative bases with integer exponents,
// random doubles, and every pair of special values.
const powSpecials = [0, -0, Infinity, -Infinity, NaN, 1, -1, 0.5, -0.5, 2, -2, 3, -3, 10, 1 / 3,
  Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 2 ** 64,
  1.0000000000000002, 0.9999999999999999, 1023, -1074, 1024, -1075, 0.1, 1e-5];
const pows = [];
for (const x of powSpecials) for (const y of powSpecials) pows.push([x, y]);
for (let i = 0; i < 6000; i++) {
  let x, y;
  switch (i % 12) {
    case 0: x = randInt(-20, 20); y = randInt(-40, 40); break;
    case 1: x = randInt(-40, 40) / 2; y = randInt(-20, 20) / 2; break;
    case 2: x = -randExp(-10, 10, false); y = randInt(-300, 300); break;
    case 3: x = randExp(-10, 10, false); y = randUniform(-30, 30); break;
    case 4: x = randExp(-1074 + 52, 1023, false); y = randExp(-20, 3); break;
    case 5: x = randUniform(0.999, 1.001); y = randExp(0, 40); break;
    case 6: x = 10; y = randInt(-330, 310); break;
    case 7: x = randUniform(0, 100); y = randInt(-5, 5) + (rand() < 0.5 ? 0.5 : 0); break;
    case 8: x = subnormal(); y = randUniform(-2, 2); break;
    case 9: x = randBits(); y = randBits(); break;
    case 10: x = 2; y = randUniform(-1080, 1030); break;
    default: x = randExp(-8, 8); y = randExp(-8, 8);
  }
  pows.push([x, y]);
}
for (const [x, y] of pows) {
  const r = Math.pow(x, y);
  if (!Object.is(r, x ** y) && !(Number.isNaN(r) && Number.isNaN(x ** y))) throw new Error(`pow(${x}, ${y}) != ${x} ** ${y}`);
  lines.push(`pow ${hex(x)} ${hex(y)} ${hex(r)}`);
}

// atan2: every pair of special values and random pairs.
const atanSpecials = [0, -0, Infinity, -Infinity, NaN, 1, -1, 2, -0.5, Number.MIN_VALUE, Number.MAX_VALUE, 1e300, -1e-300];
const atan2s = [];
for (const y of atanSpecials) for (const x of atanSpecials) atan2s.push([y, x]);
for (let i = 0; i < 2000; i++) {
  switch (i % 4) {
    case 0: atan2s.push([randUniform(-10, 10), randUniform(-10, 10)]); break;
    case 1: atan2s.push([randExp(-70, 70), randExp(-70, 70)]); break;
    case 2: atan2s.push([randExp(-1074 + 52, 1023), randExp(-1074 + 52, 1023)]); break;
    default: atan2s.push([randInt(-100, 100), randInt(-100, 100)]);
  }
}
for (const [y, x] of atan2s) lines.push(`atan2 ${hex(y)} ${hex(x)} ${hex(Math.atan2(y, x))}`);

// hypot (two arguments): expected to match already.
for (let i = 0; i < 500; i++) {
  const x = i % 2 ? randExp(-30, 30) : randExp(-1074 + 52, 1023), y = i % 3 ? randExp(-30, 30) : randUniform(-5, 5);
  lines.push(`hypot ${hex(x)} ${hex(y)} ${hex(Math.hypot(x, y))}`);
}

process.stdout.write(lines.join('\n') + '\n');
