#!/usr/bin/env bash
# Runs the differential corpus through the real CLI, `codemode eval
# --tools-url`, against toolsetd in another process, and compares each
# Result with its node expectation (ok, value, logs, error.kind), as
# internal/run/corpus_test.go does in process. Prints one line per
# disagreement and "N passed, N failed" at the end; exits 1 on any
# disagreement.
#
#   scripts/corpus/compare-cli.sh            # every program
#   scripts/corpus/compare-cli.sh foo bar    # only foo.js and bar.js
#
# CODEMODE and TOOLSETD may name prebuilt binaries (default: built here).
set -euo pipefail

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
corpus="$root/internal/run/testdata/corpus"
tmp=$(mktemp -d)
pid=""
cleanup() {
	if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

codemode=${CODEMODE:-}
if [[ -z "$codemode" ]]; then
	codemode="$tmp/codemode"
	(cd "$root" && go build -o "$codemode" ./cmd/codemode)
fi
toolsetd=${TOOLSETD:-}
if [[ -z "$toolsetd" ]]; then
	toolsetd="$tmp/toolsetd"
	(cd "$root" && go build -o "$toolsetd" ./internal/toolset/toolsettest/cmd/toolsetd)
fi
"$toolsetd" -listen 127.0.0.1:0 >"$tmp/toolsetd.out" 2>&1 &
pid=$!
url=""
for _ in $(seq 1 100); do
	url=$(sed -n 's/^listening on //p' "$tmp/toolsetd.out")
	[[ -n "$url" ]] && break
	sleep 0.1
done
[[ -n "$url" ]] || { echo "compare-cli: toolsetd did not start" >&2; exit 1; }

if [[ $# -gt 0 ]]; then
	files=()
	for name in "$@"; do files+=("$corpus/${name%.js}.js"); done
else
	files=("$corpus"/*.js)
fi
passed=0
failed=0
for f in "${files[@]}"; do
	name=$(basename "$f" .js)
	# Exit status 1 is a failed run, which may be the expected outcome.
	got=$("$codemode" eval --tools-url "$url" --run-id "$name" --timeout-ms 120000 "$f" 2>"$tmp/stderr") || true
	if verdict=$(node "$root/scripts/corpus/compare.mjs" "$corpus/$name.expected.json" <<<"$got"); then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL $name: $verdict $(head -c 300 "$tmp/stderr")"
	fi
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
