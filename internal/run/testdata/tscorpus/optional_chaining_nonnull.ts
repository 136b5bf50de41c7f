interface Node { value: number; next?: Node | null }
const list: Node = { value: 1, next: { value: 2, next: { value: 3 } } };
const third = list.next!.next!.value;
const fourth = list.next?.next?.next?.value ?? "none";
const arr: (number | undefined)[] = [1, undefined, 3];
const sum = arr.reduce<number>((a, b) => a + (b ?? 0), 0);
let cursor: Node | null | undefined = list;
const values: number[] = [];
while (cursor) { values.push(cursor!.value); cursor = cursor.next; }
return { third, fourth, sum, values, len: arr[2]!.toString().length };
