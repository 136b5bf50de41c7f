type Parts = string[];
async function join(parts: Parts, separator: string = ", "): Promise<string> {
  const { text } = (await tools.string.concat({ parts, separator })) as { text: string };
  return text;
}
const upper = async (text: string): Promise<string> => ((await tools.string.upper({ text })) as { text: string }).text;
return await upper(await join(["a", "b", "c"], "-"));
