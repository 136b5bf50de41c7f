const neg: boolean = true;
const f = neg ? (x: number): number => -x : (x: number) => x;
const g = !neg ? (s: string) => s.length : (s: string): number => s.length * 10;
const pick = (n: number) => (n > 0 ? "pos" : n < 0 ? "neg" : "zero");
return [f(3), g("ab"), pick(-1), pick(0), pick(2)];
