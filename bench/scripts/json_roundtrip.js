// JSON.stringify and JSON.parse of about 1 MB of nested data.
function main() {
  const rows = [];
  for (let i = 0; i < 8000; i++) {
    rows.push({
      id: i,
      name: "user" + i,
      active: i % 3 === 0,
      score: i * 1.5,
      tags: ["a" + (i % 7), "b" + (i % 11)],
      address: { city: "City" + (i % 50), zip: String(10000 + i) },
    });
  }
  let size = 0;
  let check = 0;
  for (let round = 0; round < 2; round++) {
    const text = JSON.stringify({ rows });
    size = text.length;
    const back = JSON.parse(text);
    check += back.rows[round * 100].id + back.rows.length;
  }
  return [size, check];
}
