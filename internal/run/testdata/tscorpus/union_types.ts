type Shape = { kind: "circle"; r: number } | { kind: "rect"; w: number; h: number };
function area(s: Shape): number {
  switch (s.kind) {
    case "circle":
      return Math.round(Math.PI * s.r * s.r);
    case "rect": {
      return s.w * s.h;
    }
  }
}
const shapes: Shape[] = [{ kind: "circle", r: 1 }, { kind: "rect", w: 2, h: 3 }];
let id: string | number = 5;
id = `#${id}`;
return { areas: shapes.map(area), id };
