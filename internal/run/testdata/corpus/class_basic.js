class Point {
  x = 0;
  y = 0;
  constructor(x, y) { this.x = x; this.y = y; }
  add(o) { return new Point(this.x + o.x, this.y + o.y); }
  toString() { return `(${this.x}, ${this.y})`; }
  static origin() { return new Point(0, 0); }
}
const p = new Point(1, 2).add(new Point(3, 4));
return [String(p), `${Point.origin()}`, p instanceof Point, typeof Point, Object.keys(p)];
