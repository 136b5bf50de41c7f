// validator: run the string validators and sanitizers (emails, URLs, IPs, dates, card
// numbers, UUIDs, colours, numbers, escaping) over 300 mixed strings.
var validator = module.exports;
var lines = INPUT["strings.txt"].trim().split("\n");

function main() {
  var counts = {};
  var rows = lines.map(function (s) {
    var flags = [
      validator.isEmail(s), validator.isURL(s), validator.isURL(s, { require_protocol: true, protocols: ["https"] }),
      validator.isIP(s), validator.isIP(s, 4), validator.isISO8601(s, { strict: true }), validator.isCreditCard(s),
      validator.isUUID(s), validator.isHexColor(s), validator.isFloat(s), validator.isNumeric(s),
      validator.isAlphanumeric(s), validator.isAscii(s), validator.isFQDN(s), validator.isLength(s, { min: 5, max: 30 }),
    ];
    flags.forEach(function (f, i) { if (f) counts[i] = (counts[i] || 0) + 1; });
    return flags.map(Number).join("") + " " + validator.escape(s) + " " + validator.trim(validator.stripLow(s, true)) +
      (validator.isEmail(s) ? " " + validator.normalizeEmail(s) : "");
  });
  return { counts: counts, rows: rows };
}
