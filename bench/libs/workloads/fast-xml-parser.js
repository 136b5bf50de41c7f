// fast-xml-parser: validate and parse an 80-item RSS feed with attributes, CDATA and
// namespaces, then build XML back from the parsed object.
var fxp = module.exports;

function main() {
  var valid = fxp.XMLValidator.validate(INPUT["feed.xml"]);
  var parser = new fxp.XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", parseAttributeValue: true, cdataPropName: "#cdata" });
  var doc = parser.parse(INPUT["feed.xml"]);
  var builder = new fxp.XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", cdataPropName: "#cdata", format: true });
  var xml = builder.build(doc);
  return { valid: valid, items: doc.rss.channel.item.length, first: doc.rss.channel.item[0], xmlLength: xml.length, xmlStart: xml.slice(0, 2000) };
}
