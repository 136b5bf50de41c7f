const sym: unique symbol = Symbol("s");
const frozen: ReadonlyArray<number> = Object.freeze([1, 2, 3]);
function total(xs: readonly number[]): number { return xs.reduce((a, b) => a + b, 0); }
const rec: Readonly<Record<"a" | "b", number>> = { a: 1, b: 2 };
return { t: total(frozen), rec, desc: sym.description };
