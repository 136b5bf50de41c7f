// decimal.js: arbitrary-precision arithmetic: exact totals of the 500 orders of the CSV, pi by
// Machin's formula to 300 digits, square roots, exp, ln and powers.
var Decimal = module.exports;
var rows = INPUT["orders.csv"].trim().split("\n").slice(1).map(function (line) {
  var cells = line.split(",");
  return { quantity: cells[5], price: cells[6] };
}).filter(function (r) { return /^\d+(\.\d+)?$/.test(r.price); });

function arctanInv(D, x) {
  var x2 = new D(x).times(x), term = new D(1).div(x), sum = term, n = 1;
  for (var i = 1; term.abs().gt(new D(10).pow(-D.precision - 2)); i++) {
    term = term.div(x2).neg();
    n += 2;
    sum = sum.plus(term.div(n));
  }
  return sum;
}

function main() {
  var D = Decimal.clone({ precision: 300 });
  var total = rows.reduce(function (t, r) { return t.plus(new D(r.price).times(r.quantity)); }, new D(0));
  var pi = arctanInv(D, 5).times(16).minus(arctanInv(D, 239).times(4));
  var D50 = Decimal.clone({ precision: 50, rounding: Decimal.ROUND_HALF_EVEN });
  return {
    rows: rows.length,
    total: total.toFixed(2),
    mean: total.div(rows.length).toSignificantDigits(20).toString(),
    pi: pi.toString(),
    sqrt2: new D50(2).sqrt().toString(),
    e: new D50(1).exp().toString(),
    ln10: new D50(10).ln().toString(),
    pow: new D50("1.0001").pow(10000).toString(),
    fraction: new D50("0.3333333333").toFraction(1000).map(String),
    hex: new D50(255.5).toHexadecimal(),
  };
}
