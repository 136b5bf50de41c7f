// dayjs: parse 200 ISO timestamps and compute with them: formatting, start/end of units,
// adding, differences and comparisons.
var dayjs = module.exports;
var stamps = INPUT["dates.txt"].trim().split("\n");

function main() {
  var base = dayjs("2020-02-29T12:00:00.000Z");
  return stamps.map(function (s, i) {
    var d = dayjs(s);
    return [
      d.format("YYYY-MM-DD HH:mm:ss ddd MMM D"),
      d.startOf("month").format(),
      d.endOf("week").toISOString(),
      d.add(i, "day").subtract(3, "hour").format("dddd, MMMM D YYYY h:mm A"),
      d.diff(base, "day"),
      d.diff(base, "month", true).toFixed(4),
      d.isBefore(base),
      d.day(),
      d.daysInMonth(),
      d.set("month", i % 12).valueOf(),
    ].join("|");
  });
}
