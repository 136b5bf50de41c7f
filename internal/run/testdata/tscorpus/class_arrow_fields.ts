class Clicker {
  private n: number = 0
  onClick = (by: number = 1): number => {
    this.n += by
    return this.n
  }
  label = (): string => `clicked ${this.n}`
  static create(): Clicker { return new Clicker() }
  protected get double(): number { return this.n * 2 }
  peek(): number { return this.double }
}
const c = Clicker.create()
c.onClick()
c.onClick(4)
return { label: c.label(), peek: c.peek() }
