const levels = ["low", "mid", "high"] as const;
type Level = (typeof levels)[number];
const raw: unknown = { level: "mid", n: "3" };
const obj = raw as { level: Level; n: string };
const n = (obj.n as unknown as string).length + Number(obj.n as string);
const idx = levels.indexOf(obj.level);
return { idx, n, next: levels[(idx + 1) % levels.length] };
