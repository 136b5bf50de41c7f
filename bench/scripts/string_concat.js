// String building with += in a loop (quadratic in engines that copy on every append).
function main() {
  let s = "";
  for (let i = 0; i < 20000; i++) {
    s += "item" + (i % 10) + ",";
  }
  return [s.length, s.charCodeAt(s.length - 3)];
}
