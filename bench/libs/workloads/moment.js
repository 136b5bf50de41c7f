// moment: parse 200 ISO timestamps in UTC and compute with them: formats, start/end of units,
// adding, differences, ISO weeks, durations and relative times against a fixed date.
var moment = module.exports;
var stamps = INPUT["dates.txt"].trim().split("\n");

function main() {
  var base = moment.utc("2020-02-29T12:00:00.000Z");
  return stamps.map(function (s, i) {
    var d = moment.utc(s);
    return [
      d.format("YYYY-MM-DD HH:mm:ss ddd MMM Do [week] W"),
      d.clone().startOf("quarter").toISOString(),
      d.clone().endOf("isoWeek").format(),
      d.clone().add(i, "days").subtract(3, "hours").format("dddd, MMMM D YYYY h:mm A"),
      d.diff(base, "days"),
      d.diff(base, "months", true).toFixed(4),
      d.from(base),
      moment.duration(d.diff(base)).humanize(),
      d.isBefore(base),
      d.isoWeekday(),
      d.daysInMonth(),
      d.dayOfYear(),
      moment.utc(d.format("DD/MM/YYYY HH:mm"), "DD/MM/YYYY HH:mm").valueOf(),
    ].join("|");
  });
}
