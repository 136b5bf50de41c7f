const a = 5, b = 10;
const nested = `outer ${`inner ${a + b}`} end`;
const multi = `line1
line2\ttabbed`;
return [`sum: ${a + b}`, nested, multi, `${[1, 2]}|${{}}|${null}|${undefined}`, `\u{1F600}`.length];
