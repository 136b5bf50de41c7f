// acorn: parse a 48 KB browser script (ES2022) with locations, then walk the tree counting node
// types and collecting the declared function names.
var acorn = module.exports;

function main() {
  var ast = acorn.parse(INPUT["program.js"], { ecmaVersion: 2022, sourceType: "script", locations: true });
  var counts = {};
  var functions = [];
  (function walk(node) {
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (!node || typeof node.type !== "string") return;
    counts[node.type] = (counts[node.type] || 0) + 1;
    if (node.type === "FunctionDeclaration") functions.push(node.id.name + "@" + node.loc.start.line);
    for (var key in node) {
      if (key !== "loc" && node[key] && typeof node[key] === "object") walk(node[key]);
    }
  })(ast);
  var types = Object.keys(counts).sort();
  return { end: ast.end, types: types.map(function (t) { return t + ":" + counts[t]; }), functions: functions };
}
