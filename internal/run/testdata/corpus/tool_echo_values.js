const inputs = [
  { n: 1, s: 'str', b: true, nil: null, arr: [1, [2, [3]]], nested: { deep: { deeper: 'x' } } },
  { unicode: 'héllo 😀 日本', escapes: 'quote " backslash \\ newline \n tab \t' },
  { big: 1e21, small: 1e-7, neg: -0, frac: 0.1 + 0.2, int: 2 ** 53 },
];
const out = [];
for (const input of inputs) out.push(await tools.echo(input));
return out;
