let s = '';
for (let i = 0; i < 2000; i++) s += String.fromCharCode(97 + (i % 26));
const counts = {};
for (const ch of s) counts[ch] = (counts[ch] ?? 0) + 1;
return [s.length, s.slice(0, 30), counts.a, counts.z, Object.keys(counts).length];
