#!/usr/bin/env bash
# Scale-out check: loadgen's scenarios (trivial, calls10, resume) against one API and 1, 2 and 4
# worker processes on one PostgreSQL, first with the journal committing asynchronously (the
# default), then with synchronous_commit on for every write (--synchronous-journal). Each run
# measures the ceilings first (PostgreSQL's, and the floor of a run of 10 calls) and prints each
# scenario's ratio to its ceiling, and what a run costs the database (-pg-counts). See docs/operations.md, "Scaling out".
#
#   scripts/scaleout.sh                 # 1 2 4 workers, 10 s per scenario
#   DURATION=20s CONCURRENCY=32 scripts/scaleout.sh 1 2 4 8
#
# Environment: DURATION (per scenario, default 10s), CONCURRENCY (runs in flight, default 16),
# MODES ("async sync" by default), OUT (directory of the raw outputs, default a temporary one).
set -euo pipefail
cd "$(dirname "$0")/.."

workers=("$@")
[ ${#workers[@]} -gt 0 ] || workers=(1 2 4)
duration=${DURATION:-10s}
concurrency=${CONCURRENCY:-16}
modes=(${MODES:-async sync})
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

bin="$out/loadgen"
go build -o "$bin" ./cmd/loadgen

printf '%-6s %-8s %-15s %9s %9s %9s %9s %10s %10s\n' mode workers scenario 'runs/s' 'x ceil' p50 p99 'stmts/run' 'xacts/run'
for mode in "${modes[@]}"; do
	for n in "${workers[@]}"; do
		flags=(-ceiling -pg-counts -json -workers "$n" -duration "$duration" -concurrency "$concurrency")
		[ "$mode" = sync ] && flags+=(-synchronous-journal)
		file="$out/$mode-$n.json"
		"$bin" "${flags[@]}" >"$file" 2>"$out/$mode-$n.log"
		# One line per scenario: rate, ratio to the ceiling, latency, statements and writing
		# transactions per run.
		python3 - "$file" "$mode" "$n" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
for r in results:
    c = r.get("counts") or {}
    lat = r["latency"]
    print("%-6s %-8s %-15s %9.1f %9s %9.1f %9.1f %10s %10s" % (
        sys.argv[2], sys.argv[3], r["scenario"], r["runsPerSec"],
        "%.2f" % r["ceilingRatio"] if r.get("ceilingRatio") else "-",
        lat["p50"] / 1e6, lat["p99"] / 1e6,
        "%.1f" % c["statements"] if c else "-", "%.2f" % c["writeXacts"] if c else "-"))
PY
	done
done
echo "raw outputs: $out" >&2
