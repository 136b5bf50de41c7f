type Config = { retries: number; mode: "fast" | "safe"; tags: string[] };
const config = { retries: 3, mode: "safe", tags: ["a"] } satisfies Config;
const limits = { max: 10, min: 1 } satisfies Record<string, number>;
return { mode: config.mode, retries: config.retries * 2, span: limits.max - limits.min };
