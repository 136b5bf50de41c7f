class Registry {
  static #items: Map<string, number> = new Map();
  static readonly names: string[] = [];
  static {
    Registry.#items.set("init", 1);
    Registry.names.push("init");
  }
  #secret: number;
  constructor(secret: number) { this.#secret = secret; }
  static add(name: string, v: number): void { Registry.#items.set(name, v); Registry.names.push(name); }
  static total(): number { let t = 0; for (const v of Registry.#items.values()) t += v; return t; }
  reveal(this: Registry): number { return this.#secret; }
}
Registry.add("x", 41);
return { names: Registry.names, total: Registry.total(), secret: new Registry(7).reveal() };
