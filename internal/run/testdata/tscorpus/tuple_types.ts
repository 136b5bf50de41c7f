type Entry = [key: string, value: number, note?: string];
const entries: Entry[] = [["a", 1], ["b", 2, "two"]];
function swap<A, B>([a, b]: readonly [A, B]): [B, A] {
  return [b, a];
}
const [k, v]: [string, number] = ["z", 26];
return { entries: entries.map(([key, value, note]: Entry) => `${key}=${value}${note ? ` (${note})` : ""}`), swapped: swap([1, "x"] as const), k, v };
