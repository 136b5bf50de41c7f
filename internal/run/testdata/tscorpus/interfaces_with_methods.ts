interface Repo<T, K = string> {
  get(id: K): T | undefined;
  put(id: K, value: T): void;
  readonly size: number;
  [Symbol.iterator]?(): Iterator<T>;
}
class MemRepo<T> implements Repo<T> {
  private data = new Map<string, T>();
  get(id: string): T | undefined { return this.data.get(id); }
  put(id: string, value: T): void { this.data.set(id, value); }
  get size(): number { return this.data.size; }
}
const r: Repo<{ n: number }> = new MemRepo<{ n: number }>();
r.put("a", { n: 1 });
r.put("b", { n: 2 });
return { size: r.size, a: r.get("a"), missing: r.get("zz") ?? null };
