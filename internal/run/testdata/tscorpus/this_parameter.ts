function describe(this: { name: string }, prefix: string): string {
  return `${prefix}${this.name}`;
}
const obj = { name: "box", describe };
return [obj.describe("a "), describe.call({ name: "other" }, "b ")];
