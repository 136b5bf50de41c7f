class Store {
  private map = new Map<string, unknown>();
  get<T>(key: string): T | undefined;
  get<T>(key: string, fallback: T): T;
  get<T>(key: string, fallback?: T): T | undefined {
    return (this.map.has(key) ? this.map.get(key) : fallback) as T | undefined;
  }
  set<T>(key: string, value: T): this {
    this.map.set(key, value);
    return this;
  }
}
const s = new Store().set("n", 5).set<string>("s", "v");
return [s.get<number>("n"), s.get("missing", "fb"), s.get("none") ?? null];
