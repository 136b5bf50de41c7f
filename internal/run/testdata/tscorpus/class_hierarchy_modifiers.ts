abstract class Base<T> {
  protected abstract readonly kind: string;
  protected items: T[] = [];
  public constructor() {}
  public add(item: T): this { this.items.push(item); return this; }
  protected abstract render(item: T): string;
  public toString(): string { return `${this.kind}[${this.items.map((i) => this.render(i)).join(",")}]`; }
}
class Nums extends Base<number> {
  protected readonly kind = "nums";
  protected override render(item: number): string { return item.toFixed(1); }
}
class Words extends Base<string> {
  protected readonly kind: string = "words";
  public static override_count: number = 0;
  protected render(item: string): string { Words.override_count++; return item.toUpperCase(); }
}
return [new Nums().add(1).add(2.5).toString(), new Words().add("a").toString(), Words.override_count];
