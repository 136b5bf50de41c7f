interface Bag { [key: string]: number }
class Registry {
  [name: string]: unknown;
  static count: number = 0;
}
const bag: Bag = {};
for (const w of "a b a c b a".split(" ")) bag[w] = (bag[w] ?? 0) + 1;
const r = new Registry();
r["x"] = 1;
return { bag, keys: Object.keys(r) };
