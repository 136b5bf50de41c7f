type Handler =
  | { type: "add"; a: number; b: number }
  | { type: "neg"; x: number };
type Result = {
  ok: boolean;
  value: number;
};
const run = (h: Handler): Result => {
  switch (h.type) {
    case "add": return { ok: true, value: h.a + h.b };
    case "neg": return { ok: true, value: -h.x };
  }
};
const handlers: Handler[] = [{ type: "add", a: 1, b: 2 }, { type: "neg", x: 5 }];
return handlers.map(run);
