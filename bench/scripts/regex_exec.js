// RegExp exec with the global flag, capture groups and replace over a text.
function main() {
  const words = [];
  for (let i = 0; i < 2000; i++) {
    words.push("user" + i + "@host" + (i % 13) + ".example");
  }
  const text = words.join(" ");
  const re = /([a-z]+)(\d+)@host(\d+)\.example/g;
  let count = 0;
  let sum = 0;
  for (let round = 0; round < 10; round++) {
    re.lastIndex = 0;
    let m;
    while ((m = re.exec(text)) !== null) {
      count++;
      sum += Number(m[3]);
    }
  }
  const replaced = text.replace(/host(\d+)/g, "h$1").length;
  return [count, sum, replaced];
}
