// Regenerates sets.json with node 20: node testdata/gen_sets.js > testdata/sets.json
// For each pattern, the BMP code units c for which /^pattern$/flags matches String.fromCharCode(c),
// as [first, last] ranges, plus a few astral code points in unicode mode. Property escapes are
// left out: their tables follow the Unicode version of Go and of node's ICU, which differ.
const pats = [["\\s", ""], ["\\S", ""], ["\\d", ""], ["\\w", ""], ["\\w", "i"], ["\\w", "iu"], ["\\W", "iu"],
  ["[^\\W]", "iu"], [".", ""], [".", "s"], [".", "u"], ["[a-z]", "i"], ["[A-Z]", "iu"], ["k", "i"], ["k", "iu"], ["s", "iu"],
  ["\u00df", "iu"], ["\u00e5", "i"], ["[\u00e0-\u00ff]", "i"], ["\u03c3", "i"], ["\u03c3", "iu"], ["[\u0400-\u04ff]", "i"],
  ["\u0130", "i"], ["i", "iu"], ["\u1e9e", "i"], ["\u01c5", "i"], ["\u01c5", "iu"], ["[^k]", "iu"], ["\\u{10400}", "iu"],
  ["[^\\s\\d]", ""], ["[\\ud800-\\udfff]", ""], ["[\\0-\\x7f]", "i"], ["\\S", "v"], ["[\\w--[a-f]]", "vi"]];
const astralSamples = [0x10400, 0x10428, 0x1F600, 0x1D400, 0x20000, 0xE0001, 0x10FFFF, 0x16E40, 0x16E60, 0x1E900, 0x1E922];
const out = [];
for (const [p, f] of pats) {
  const re = new RegExp("^" + p + "$", f);
  const ranges = [];
  for (let c = 0; c < 0x10000; c++) {
    if (!re.test(String.fromCharCode(c))) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === c - 1) last[1] = c; else ranges.push([c, c]);
  }
  const astral = (f.includes("u") || f.includes("v")) ? astralSamples.filter(cp => re.test(String.fromCodePoint(cp))) : [];
  out.push({ p, f, ranges, astral });
}
console.log(JSON.stringify(out));
