const m = new Map<string, number>([["a", 1]]);
const s = new Set<number>([1, 2, 2, 3]);
function identity<T>(x: T): T { return x; }
const n = identity<number>(5);
const arr = Array.from<number>({ length: 3 }).map((_, i: number) => i * identity<number>(10));
const parsed = JSON.parse<unknown>;
return { m: [...m.entries()], s: [...s], n, arr, p: typeof parsed };
