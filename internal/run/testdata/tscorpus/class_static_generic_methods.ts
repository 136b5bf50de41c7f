class Result<T, E = Error> {
  private constructor(readonly_value: unknown, public_ok?: boolean) {
    this.value = readonly_value as T;
    this.ok = public_ok ?? true;
  }
  value: T;
  ok: boolean;
  static of<U>(v: U): Result<U> { return new Result<U>(v, true); }
  map<V>(f: (t: T) => V): Result<V, E> { return Result.of<V>(f(this.value)) as Result<V, E>; }
}
const r = Result.of<number>(20).map((x) => x + 1).map((x): string => `n=${x}`);
return { ok: r.ok, value: r.value };
