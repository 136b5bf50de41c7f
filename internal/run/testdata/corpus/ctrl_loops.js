const out = [];
for (let i = 0; i < 3; i++) out.push(i);
let j = 0;
while (j < 3) { j++; if (j === 2) continue; out.push('w' + j); }
let k = 0;
do { out.push('d' + k); k++; } while (k < 2);
do { out.push('once'); } while (false);
for (const ch of 'ab') out.push(ch);
return out;
