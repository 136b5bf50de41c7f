// js-yaml: load a 15 KB deployment config (anchors, merge keys, flow collections, block
// scalars) and dump it back to YAML.
var yaml = module.exports;

function main() {
  var doc = yaml.load(INPUT["config.yaml"]);
  var text = yaml.dump(doc, { sortKeys: true, lineWidth: 100 });
  return { doc: doc, dump: text };
}
