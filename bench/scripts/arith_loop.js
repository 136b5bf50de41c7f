// Arithmetic in a loop: integer and floating-point operations on locals.
function main() {
  let acc = 0;
  let f = 0.5;
  for (let i = 0; i < 400000; i++) {
    acc = (acc + i * 3 - (i >> 1)) % 1000003;
    f = f * 1.000001 + (i & 7) / 8;
  }
  return [acc, Math.round(f)];
}
