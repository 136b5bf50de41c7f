// mustache: parse and render a catalogue page (sections, inverted sections, a partial, a lambda,
// escaped and raw values); the parse cache is cleared on every call.
var Mustache = module.exports;
var catalog = JSON.parse(INPUT["catalog.json"]);

function main() {
  Mustache.clearCache();
  var byCategory = {};
  catalog.items.forEach(function (it) { (byCategory[it.category] = byCategory[it.category] || []).push(it); });
  var view = {
    store: catalog.store,
    currency: catalog.currency,
    count: catalog.items.length,
    categories: Object.keys(byCategory).sort().map(function (name) {
      return {
        name: name,
        items: byCategory[name].map(function (it) {
          return Object.assign({ note: it.onSale ? "<b>sale</b>" : "", description: "Fits <all> & more" }, it);
        }),
      };
    }),
    stars: function () { return "*****".slice(0, Math.round(this.rating)); },
    money: function () {
      return function (text, render) { return Number(render(text)).toFixed(2); };
    },
    summary: { stock: 0, value: "n/a" },
  };
  var html = Mustache.render(INPUT["page.mustache"], view, { header: "<nav>{{store}} <a href=\"/cart\">cart</a></nav>" });
  return { length: html.length, html: html };
}
