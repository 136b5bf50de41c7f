const items: { sku: string; qty: number }[] = [{ sku: "a", qty: 2 }, { sku: "b", qty: 0 }];
for (const { sku, qty } of items) {
  if (qty === 0) console.warn(`out of stock: ${sku}`);
  else console.log("stock", sku, qty as number);
}
return items.length;
