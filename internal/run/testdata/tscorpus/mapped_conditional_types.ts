type Nullable<T> = { [K in keyof T]: T[K] | null };
type ElementOf<T> = T extends readonly (infer U)[] ? U : never;
type Fn = (a: number, b: number) => number;
const user: Nullable<{ name: string; age: number }> = { name: "Ana", age: null };
const first: ElementOf<string[]> = "x";
const add: Fn = (a, b) => a + b;
return { user, first, three: add(1, 2) };
