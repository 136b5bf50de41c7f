// lodash: data wrangling over a 120-item catalogue: grouping, sorting, chained transforms,
// deep clone and merge, and string helpers. (_.template is left out: it compiles to JavaScript
// source run with the Function constructor, which code mode programs cannot use.)
var _ = module.exports;
var catalog = JSON.parse(INPUT["catalog.json"]);

function main() {
  var items = _.cloneDeep(catalog.items);
  var byCategory = _.mapValues(_.groupBy(items, "category"), function (list) {
    return _.map(_.orderBy(list, ["rating", "price"], ["desc", "asc"]), "id");
  });
  var stats = _(items)
    .filter("onSale")
    .map(function (it) { return _.pick(it, ["id", "price", "stock", "tags"]); })
    .sortBy(["price"])
    .take(20)
    .value();
  var tags = _.countBy(_.flatMap(items, "tags"));
  var merged = _.merge({}, _.keyBy(items.slice(0, 30), "id"), _.keyBy(_.map(items.slice(15, 45), function (it) {
    return { id: it.id, extra: { seen: true, rank: it.id % 7 } };
  }), "id"));
  var html = _.map(_.take(_.sortBy(items, "name"), 40), function (r) {
    return "<li id=\"" + _.kebabCase(r.name) + "\">" + _.escape(_.startCase(r.name) + " <" + r.category + ">") + " " +
      _.padStart(r.price.toFixed(2), 8) + " " + _.camelCase(r.tags.join(" ")) + "</li>";
  }).join("");
  return {
    byCategory: byCategory,
    stats: stats,
    tags: tags,
    mergedKeys: _.keys(merged).length,
    merged: merged[String(items[20].id)],
    chunks: _.chunk(_.range(0, 23), 5),
    uniq: _.uniqBy(items, "name").length,
    debounced: typeof _.debounce(function () {}, 10),
    html: html,
  };
}
