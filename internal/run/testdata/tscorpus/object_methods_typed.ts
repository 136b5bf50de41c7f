const calc = {
  base: 10,
  add(x: number): number { return this.base + x; },
  scale<T extends number>(x: T, by: number = 2): number { return x * by; },
  get double(): number { return this.base * 2; },
  async later(x: number): Promise<number> { return x; },
};
return { a: calc.add(5), s: calc.scale(4), d: calc.double, l: await calc.later(3) };
