// esprima: tokenize and parse a 48 KB browser script with ranges and locations, then count the
// node types.
var esprima = module.exports;

function main() {
  var tokens = esprima.tokenize(INPUT["program.js"], { comment: true });
  var ast = esprima.parseScript(INPUT["program.js"], { range: true, loc: true });
  var counts = {};
  (function walk(node) {
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (!node || typeof node.type !== "string") return;
    counts[node.type] = (counts[node.type] || 0) + 1;
    for (var key in node) {
      if (key !== "loc" && key !== "range" && node[key] && typeof node[key] === "object") walk(node[key]);
    }
  })(ast);
  var kinds = {};
  tokens.forEach(function (t) { kinds[t.type] = (kinds[t.type] || 0) + 1; });
  return { tokens: tokens.length, kinds: kinds, body: ast.body.length, range: ast.range, types: Object.keys(counts).sort().map(function (t) { return t + ":" + counts[t]; }) };
}
