namespace Shapes {
  export interface Point { x: number; y: number }
  export type Pair = [Point, Point];
}
const p: Shapes.Point = { x: 1, y: 2 };
const pair: Shapes.Pair = [p, { x: 3, y: 4 }];
return pair.map((q) => q.x + q.y);
