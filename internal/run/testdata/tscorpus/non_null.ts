const map = new Map<string, number[]>();
map.set("a", [1, 2]);
const first = map.get("a")!;
first.push(3);
const maybe: { x?: { y: number } } = { x: { y: 7 } };
const y = maybe.x!.y;
let late!: string;
late = "set later";
return { first, y, late, len: map.get("a")!.length };
