const words = ["a", "bb", "a", "ccc", "bb", "a"];
const counts = words.reduce<Record<string, number>>((acc, w) => {
  acc[w] = (acc[w] ?? 0) + 1;
  return acc;
}, {});
const grouped = new Map<number, Array<Array<string>>>();
for (const w of words) {
  const list = grouped.get(w.length) ?? [];
  list.push([w]);
  grouped.set(w.length, list);
}
const byLen: Array<[number, number]> = [...grouped].map(([k, v]): [number, number] => [k, v.length]);
return { counts, byLen, shift: 256 >> 2, ushift: -1 >>> 28 };
