globalThis.shared = 'set on globalThis';
const out = [typeof globalThis, globalThis.Math === Math, globalThis.JSON === JSON, shared, typeof globalThis.tools];
return out;
