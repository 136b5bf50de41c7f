const raw = `id,name,score
1,ann,90
2,bob,72
3,cid,85
4,dee,72`;
const [header, ...lines] = raw.split('\n');
const cols = header.split(',');
const rows = lines.map(l => Object.fromEntries(l.split(',').map((v, i) => [cols[i], /^\d+$/.test(v) ? Number(v) : v])));
const byScore = Object.groupBy(rows, r => r.score >= 80 ? 'pass' : 'review');
const { text } = await tools.string.concat({ parts: byScore.pass.map(r => r.name), separator: '+' });
const avg = rows.reduce((s, r) => s + r.score, 0) / rows.length;
return { text, avg: avg.toFixed(1), review: byScore.review.map(r => r.id), ranked: rows.toSorted((a, b) => b.score - a.score || a.name.localeCompare(b.name)).map(r => r.name) };
