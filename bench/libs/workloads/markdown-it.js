// markdown-it: the README-sized markdown document to tokens and HTML, with linkify and
// typographer replacements.
var markdownit = module.exports;

function main() {
  var md = markdownit({ html: true, linkify: true, typographer: true });
  var tokens = md.parse(INPUT["readme.md"], {});
  var html = md.renderer.render(tokens, md.options, {});
  return { tokens: tokens.length, length: html.length, html: html };
}
