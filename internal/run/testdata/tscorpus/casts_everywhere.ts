const data: unknown = JSON.parse('{"items":[{"n":1},{"n":2}],"name":"x"}');
const items = (data as { items: { n: number }[] }).items;
const first = <{ n: number }>items[0];
const names = [(data as any).name as string, `${(data as { name: string }).name as string}!`];
const total = items.map((i) => i.n as number).reduce((a, b) => (a as number) + b, 0 as number);
const obj = { v: items.length as number, w: (items as unknown as number[]).length satisfies number };
return { first, names, total, obj, nested: ((data as any)?.items?.[1] as { n: number } | undefined)?.n };
