// json5: parse an 11 KB settings file (comments, unquoted keys, trailing commas, hex numbers)
// and stringify the result back to JSON5.
var JSON5 = module.exports;

function main() {
  var doc = JSON5.parse(INPUT["settings.json5"]);
  var text = JSON5.stringify(doc, null, 2);
  return { doc: doc, text: text };
}
