// papaparse: parse a 500-row CSV with a header, typed values and quoted fields, then unparse it.
var Papa = module.exports;

function main() {
  var result = Papa.parse(INPUT["orders.csv"], { header: true, dynamicTyping: true, skipEmptyLines: true });
  var totals = {};
  result.data.forEach(function (r) { totals[r.city] = Math.round(((totals[r.city] || 0) + r.quantity * r.unit_price) * 100) / 100; });
  var csv = Papa.unparse(result.data, { quotes: false, newline: "\n" });
  return { rows: result.data.length, errors: result.errors.length, fields: result.meta.fields, totals: totals, sample: result.data.slice(0, 5), csvLength: csv.length };
}
