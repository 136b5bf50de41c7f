function tag(strings, ...values) { return { strings: [...strings], raw: strings.raw, values }; }
const x = 1;
const r = tag`a${x}b${x + 1}c\n`;
const html = (s, ...v) => s.reduce((acc, str, i) => acc + str + (i < v.length ? String(v[i]).replace(/</g, '&lt;') : ''), '');
const same = (s) => s;
const f = () => same`x`;
return [r, html`<p>${'<b>'}</p>`, String.raw`C:\path\${'file'}`, f() === f(), tag``.strings];
