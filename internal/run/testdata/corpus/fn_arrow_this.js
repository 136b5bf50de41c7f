class Counter {
  constructor() { this.n = 0; }
  incLater() { return [1, 2, 3].map(() => ++this.n); }
}
const c = new Counter();
const r = c.incLater();
const obj = { v: 'obj', regular() { return (() => this.v)(); } };
return [r, c.n, obj.regular()];
