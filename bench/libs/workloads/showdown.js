// showdown: the README-sized markdown document to HTML, with tables and GitHub flavour.
var showdown = module.exports;

function main() {
  var converter = new showdown.Converter({ tables: true, ghCodeBlocks: true, strikethrough: true, tasklists: true });
  var html = converter.makeHtml(INPUT["readme.md"]);
  return { length: html.length, html: html };
}
