class Temp {
  #c = 0;
  get f() { return this.#c * 9 / 5 + 32; }
  set f(v) { this.#c = (v - 32) * 5 / 9; }
  get c() { return this.#c; }
}
const t = new Temp();
t.f = 212;
const o = { _v: 1, get v() { return this._v * 10; }, set v(x) { this._v = x; } };
o.v = 4;
return [t.c, t.f, o.v, Object.keys(o)];
