// immutable: persistent maps and lists built from the catalogue: updates that share structure,
// deep setIn/updateIn, grouping, sorting, sets and conversion back to plain objects.
var Immutable = module.exports;
var catalog = JSON.parse(INPUT["catalog.json"]);

function main() {
  var items = Immutable.fromJS(catalog.items);
  var byId = Immutable.Map(items.map(function (it) { return [it.get("id"), it]; }));
  var restocked = byId.withMutations(function (m) {
    m.forEach(function (it, id) { if (it.get("stock") < 5) m.setIn([id, "stock"], it.get("stock") + 20); });
  });
  var repriced = restocked.map(function (it) { return it.update("price", function (p) { return Math.round(p * 110) / 100; }); });
  var groups = items.groupBy(function (it) { return it.get("category"); })
    .map(function (list) { return list.sortBy(function (it) { return -it.get("rating"); }).map(function (it) { return it.get("id"); }).take(5); });
  var tags = items.flatMap(function (it) { return it.get("tags"); }).toSet().sort();
  var list = Immutable.List().withMutations(function (l) { for (var i = 0; i < 2000; i++) l.push(i * 3); });
  var edited = list.set(1500, -1).delete(10).insert(20, 7).splice(100, 50).filter(function (x) { return x % 2 === 0; });
  return {
    changed: restocked.filter(function (it, id) { return it !== byId.get(id); }).size,
    sameTags: repriced.get(catalog.items[0].id).get("tags") === byId.get(catalog.items[0].id).get("tags"),
    groups: groups.toJS(),
    tags: tags.toArray(),
    list: [edited.size, edited.get(0), edited.get(700), edited.last(), edited.reduce(function (a, b) { return a + b; }, 0)],
    equal: Immutable.is(Immutable.fromJS(catalog.items), items),
    first: repriced.get(catalog.items[3].id).toJS(),
  };
}
