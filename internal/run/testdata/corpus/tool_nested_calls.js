const { parts } = await tools.string.split({ text: 'one two three', separator: ' ' });
const uppers = await Promise.all(parts.map(async (text, i) => {
  const { text: up } = await tools.string.upper({ text });
  const { sum } = await tools.math.add({ a: i, b: up.length });
  return `${up}:${sum}`;
}));
const { text } = await tools.string.concat({ parts: uppers, separator: ', ' });
return text;
