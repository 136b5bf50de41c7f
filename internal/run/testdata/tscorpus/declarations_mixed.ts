declare let DEBUG: boolean | undefined;
type Level = "info" | "warn";
interface LogLine { level: Level; text: string }
declare function report(line: LogLine): void;
const lines: LogLine[] = [];
function log(level: Level, ...parts: unknown[]): void {
  lines.push({ level, text: parts.map(String).join(" ") });
}
log("info", "start", 1);
log("warn", "careful", { a: 1 });
export type { LogLine as Line };
return lines;
