type Result<T> = { ok: true; value: T } | { ok: false; error: string };
function ok<T>(value: T): Result<T> { return { ok: true, value }; }
function err<T = never>(error: string): Result<T> { return { ok: false, error }; }
const isOk = <T,>(r: Result<T>): r is { ok: true; value: T } => r.ok;
const rs: Result<number>[] = [ok(1), err("bad"), ok(3)];
const good = rs.filter(isOk).map((r) => r.value);
const bad = rs.filter((r): r is { ok: false; error: string } => !r.ok).map((r) => r.error);
return { good, bad };
