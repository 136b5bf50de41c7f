interface Named { name: string }
interface Aged { age: number }
interface Person extends Named, Aged { tags?: string[] }
function card(p: Person): string {
  return `${p.name} (${p.age})${p.tags?.length ? " " + p.tags.join(",") : ""}`;
}
const people: Person[] = [{ name: "Lin", age: 30 }, { name: "Max", age: 25, tags: ["x", "y"] }];
return people.sort((a, b) => a.age - b.age).map(card);
