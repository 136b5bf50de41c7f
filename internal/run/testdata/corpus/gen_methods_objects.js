const obj = { *items() { yield* [1, 2]; yield* 'xy'; } };
class Tree {
  constructor(v, ...kids) { this.v = v; this.kids = kids; }
  *[Symbol.iterator]() { yield this.v; for (const k of this.kids) yield* k; }
}
const t = new Tree(1, new Tree(2, new Tree(3)), new Tree(4));
const [first, ...others] = t;
return [[...obj.items()], [...t], first, others, Array.from(t, x => x * 10)];
