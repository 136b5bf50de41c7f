interface Opts { width?: number; height?: number; unit: "px" | "em" }
function size({ width = 10, height = 20, unit }: Opts = { unit: "px" }): string {
  return `${width}x${height}${unit}`;
}
const area = ([w, h]: [number, number]): number => w * h;
const fmt = ({ a, b: { c } }: { a: string; b: { c: number } }) => `${a}${c}`;
return [size(), size({ width: 5, unit: "em" }), area([3, 4]), fmt({ a: "x", b: { c: 1 } })];
