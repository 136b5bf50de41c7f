abstract class Shape {
  abstract readonly kind: string;
  abstract area(): number;
  describe(): string {
    return `${this.kind} with area ${this.area().toFixed(2)}`;
  }
}
class Circle extends Shape {
  readonly kind = "circle";
  area(): number { return Math.PI; }
}
class Square extends Shape {
  kind: string = "square";
  side: number;
  constructor(side: number) { super(); this.side = side; }
  override area(): number { return this.side ** 2; }
}
return [new Square(3), new Square(1.5)].map((s: Shape) => s.describe());
