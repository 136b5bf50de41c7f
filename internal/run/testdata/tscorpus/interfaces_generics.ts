interface Order<T extends string = string> {
  id: T;
  total: number;
  lines?: Array<{ sku: string; qty: number }>;
}
function totalOf<T extends string>(orders: readonly Order<T>[]): number {
  return orders.reduce((s: number, o: Order<T>) => s + o.total, 0);
}
const orders: Order[] = [{ id: "a", total: 10 }, { id: "b", total: 32, lines: [{ sku: "x", qty: 2 }] }];
return { total: totalOf(orders), skus: orders.flatMap((o) => o.lines ?? []).map((l) => l.sku) };
