// diff (jsdiff): line diff, a unified patch and a word diff of two versions of a 45 KB script.
var Diff = module.exports;
var before = INPUT["old.txt"], after = INPUT["new.txt"];

function main() {
  var lines = Diff.diffLines(before, after);
  var patch = Diff.createTwoFilesPatch("app.js", "app.js", before, after, "old", "new", { context: 2 });
  var changed = lines.filter(function (p) { return p.added || p.removed; });
  var words = Diff.diffWords(changed.filter(function (p) { return p.removed; }).map(function (p) { return p.value; }).join(""),
    changed.filter(function (p) { return p.added; }).map(function (p) { return p.value; }).join(""));
  return {
    parts: lines.length,
    added: changed.filter(function (p) { return p.added; }).reduce(function (n, p) { return n + p.count; }, 0),
    removed: changed.filter(function (p) { return p.removed; }).reduce(function (n, p) { return n + p.count; }, 0),
    words: words.length,
    patch: patch,
  };
}
