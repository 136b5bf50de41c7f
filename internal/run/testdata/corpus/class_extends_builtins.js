class Stack extends Array {
  peek() { return this[this.length - 1]; }
}
const s = new Stack();
s.push(1, 2, 3);
class Registry extends Map {
  register(k, v) { return this.set(k, v); }
  get names() { return [...this.keys()]; }
}
const r = new Registry();
r.register('a', 1).register('b', 2);
const mapped = s.map(x => x * 2);
return [s.peek(), s.length, Array.isArray(s), s instanceof Stack, mapped instanceof Stack, r.names, r.size, r instanceof Map];
