// Compares one codemode Result (a JSON line on stdin) with a corpus
// expectation file: ok, value (as JSON, object keys in their order), logs and,
// for failures, error.kind. Exits 0 when they agree; otherwise prints what
// differs and exits 1.
//
//   codemode eval ... | node scripts/corpus/compare.mjs NAME.expected.json
import { readFileSync } from 'node:fs';

const want = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const input = readFileSync(0, 'utf8').trim();
let got;
try {
  got = JSON.parse(input);
} catch {
  console.log(`no Result on stdout: ${JSON.stringify(input.slice(0, 200))}`);
  process.exit(1);
}

const pick = (r) => ({
  ok: r.ok === true,
  value: r.ok ? (r.value ?? null) : undefined,
  kind: r.ok ? undefined : r.error?.kind,
  logs: r.logs ?? [],
});
const [w, g] = [pick(want), pick(got)];
const diffs = [];
for (const k of ['ok', 'kind', 'value', 'logs']) {
  // Both sides were parsed from JSON: stringifying again compares key order
  // too and numbers by value (-0 and 0 are one JSON value).
  if (JSON.stringify(w[k]) !== JSON.stringify(g[k])) {
    diffs.push(`${k}: want ${JSON.stringify(w[k])?.slice(0, 200)} got ${JSON.stringify(g[k])?.slice(0, 200)}`);
  }
}
if (diffs.length > 0) {
  console.log(diffs.join('; '));
  process.exit(1);
}
