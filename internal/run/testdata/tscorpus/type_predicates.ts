interface Cat { meow(): string }
interface Dog { bark(): string }
function isCat(a: Cat | Dog): a is Cat {
  return "meow" in a;
}
function assertString(x: unknown): asserts x is string {
  if (typeof x !== "string") throw new TypeError("not a string");
}
const pets: Array<Cat | Dog> = [{ meow: () => "m" }, { bark: () => "w" }];
const v: unknown = "text";
assertString(v);
return { sounds: pets.map((p) => (isCat(p) ? p.meow() : p.bark())), len: v.length };
