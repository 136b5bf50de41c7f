// Reads {"cases": [{secret, id, timestamp, body (base64), headers}]} on standard input; for each
// case verifies the headers with the standardwebhooks package and signs the same message with
// it, and prints [{verified, error, signature}] on standard output.
"use strict";
const { Webhook } = require("standardwebhooks");

// The key rule of internal/signing: "whsec_" secrets are base64 after the prefix, any other
// secret is its raw UTF-8 bytes.
function webhook(secret) {
  if (secret.startsWith(Webhook.prefix)) {
    return new Webhook(secret);
  }
  return new Webhook(new Uint8Array(Buffer.from(secret, "utf8")), { format: "raw" });
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const out = JSON.parse(input).cases.map((c) => {
    const wh = webhook(c.secret);
    const body = Buffer.from(c.body, "base64");
    const result = { verified: false, error: "", signature: "" };
    try {
      wh.verify(body, c.headers, { jsonParse: false });
      result.verified = true;
    } catch (e) {
      result.error = String(e && e.message);
    }
    result.signature = wh.sign(c.id, new Date(c.timestamp * 1000), body);
    return result;
  });
  process.stdout.write(JSON.stringify(out));
});
