class Stack<T> implements Iterable<T> {
  #items: T[] = [];
  push(...xs: T[]): Stack<T> { this.#items.push(...xs); return this; }
  pop(): T | undefined { return this.#items.pop(); }
  get size(): number { return this.#items.length; }
  *[Symbol.iterator](): Iterator<T> { yield* this.#items; }
}
const s = new Stack<number>().push(1, 2, 3);
const top = s.pop();
return { top, size: s.size, all: [...s] };
