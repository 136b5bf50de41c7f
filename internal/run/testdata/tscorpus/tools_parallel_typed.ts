type Upper = { text: string };
const inputs: readonly string[] = ["alpha", "beta", "gamma"] as const;
const results = await Promise.all(
  inputs.map(async (text: string): Promise<string> => ((await tools.string.upper({ text })) as Upper).text),
);
const settled = await Promise.allSettled<[Promise<unknown>, Promise<unknown>]>([
  tools.math.add({ a: 1, b: 2 }),
  tools.fail({ message: "bad" }),
]);
return { results, statuses: settled.map((s) => s.status) };
