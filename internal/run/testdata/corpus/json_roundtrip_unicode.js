const o = { emoji: '😀', ctrl: '\u0001\u001f', quote: '"', slash: '/', back: '\\', nul: '\u0000' };
const s = JSON.stringify(o);
return [s, JSON.parse(s).emoji === '😀', s.length];
