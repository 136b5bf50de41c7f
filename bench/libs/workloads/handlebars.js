// handlebars: compile a catalogue page (helpers, a partial, each/if/unless/with, block params)
// and render it with the catalogue data; the template is compiled afresh on every call.
var Handlebars = module.exports;
var catalog = JSON.parse(INPUT["catalog.json"]);

function main() {
  var hb = Handlebars.create();
  hb.registerPartial("header", "<nav>{{store}} <a href=\"/cart\">cart</a></nav>");
  hb.registerHelper("upper", function (s) { return String(s).toUpperCase(); });
  hb.registerHelper("money", function (n, currency) { return n.toFixed(2) + " " + currency; });
  hb.registerHelper("stars", function (r) { return "*****".slice(0, Math.round(r)) + "-----".slice(Math.round(r)); });
  hb.registerHelper("groupByCategory", function (items) {
    var out = {};
    items.forEach(function (it) { (out[it.category] = out[it.category] || []).push(it); });
    return out;
  });
  var template = hb.compile(INPUT["page.hbs"]);
  var data = {
    store: catalog.store,
    currency: catalog.currency,
    items: catalog.items.map(function (it) {
      return Object.assign({ note: it.onSale ? "<b>sale</b>" : "", description: "Fits <all> & more" }, it);
    }),
    summary: catalog.items.reduce(function (s, it) {
      return { stock: s.stock + it.stock, value: s.value + it.stock * it.price };
    }, { stock: 0, value: 0 }),
  };
  var html = template(data);
  return { length: html.length, html: html };
}
