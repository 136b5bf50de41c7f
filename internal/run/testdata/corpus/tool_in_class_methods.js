class Calculator {
  #history = [];
  async add(a, b) { const { sum } = await tools.math.add({ a, b }); this.#history.push(`${a}+${b}=${sum}`); return sum; }
  async chain(...ns) { let acc = 0; for (const n of ns) acc = await this.add(acc, n); return acc; }
  get history() { return this.#history; }
}
const c = new Calculator();
const total = await c.chain(1, 2, 3, 4);
return [total, c.history];
