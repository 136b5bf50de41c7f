function parse(x: string): number;
function parse(x: number): string;
function parse(x: string | number): string | number {
  return typeof x === "string" ? Number(x) : String(x);
}
class Fmt {
  show(x: number): string;
  show(x: boolean): string;
  show(x: number | boolean): string { return `<${x}>`; }
}
return [parse("42"), parse(7), new Fmt().show(1), new Fmt().show(true)];
