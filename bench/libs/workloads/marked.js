// marked: the README-sized markdown document to HTML, with GitHub-flavoured markdown.
var marked = module.exports;

function main() {
  var html = marked.parse(INPUT["readme.md"], { gfm: true });
  return { length: html.length, html: html };
}
