function pluck<T, K extends keyof T>(items: T[], key: K): T[K][] {
  return items.map((i) => i[key]);
}
function merge<A extends object, B extends object>(a: A, b: B): A & B {
  return { ...a, ...b };
}
const rows = [{ id: 1, n: "a" }, { id: 2, n: "b" }];
return { ids: pluck(rows, "id"), merged: merge({ a: 1 }, { b: "two" }) };
