async function* pages(texts) {
  for (const text of texts) {
    const { parts } = await tools.string.split({ text, separator: ',' });
    yield parts;
  }
}
const all = [];
for await (const page of pages(['a,b', 'c', 'd,e,f'])) all.push(...page);
return all;
