// String building with Array.prototype.join.
function main() {
  let total = 0;
  for (let round = 0; round < 10; round++) {
    const parts = [];
    for (let i = 0; i < 20000; i++) {
      parts.push("item" + i);
    }
    const s = parts.join(",");
    total += s.length;
  }
  return total;
}
