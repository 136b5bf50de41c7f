class Counter {
  private count: number = 0;
  readonly name: string;
  static created: number = 0;
  label?: string;
  constructor(name: string) {
    this.name = name;
    Counter.created++;
  }
  increment(by: number = 1): this {
    this.count += by;
    return this;
  }
  get value(): number {
    return this.count;
  }
}
const c = new Counter("clicks").increment().increment(5);
new Counter("other");
return { name: c.name, value: c.value, created: Counter.created, label: c.label ?? null, keys: Object.keys(c) };
