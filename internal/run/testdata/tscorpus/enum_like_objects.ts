const Color = { Red: "red", Green: "green" } as const;
type Color = (typeof Color)[keyof typeof Color];
function paint(c: Color): string { return `painted ${c}`; }
return Object.values(Color).map((c: Color) => paint(c));
