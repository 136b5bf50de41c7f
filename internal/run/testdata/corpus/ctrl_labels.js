const out = [];
outer: for (let i = 0; i < 3; i++) {
  for (let j = 0; j < 3; j++) {
    if (j === 1) continue outer;
    if (i === 2) break outer;
    out.push(`${i}${j}`);
  }
}
block: {
  out.push('in block');
  if (out.length) break block;
  out.push('never');
}
let n = 0;
loop: while (true) { n++; do { if (n > 3) break loop; } while (false); }
out.push(n);
return out;
