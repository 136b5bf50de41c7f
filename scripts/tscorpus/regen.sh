#!/usr/bin/env bash
# Regenerates the expectations of the TypeScript corpus
# (internal/run/testdata/tscorpus): each NAME.ts is compiled to JavaScript by
# the TypeScript compiler (transpile.mjs; the version is pinned in
# package-lock.json and installed with npm ci), the JavaScript runs in node
# through the differential corpus's reference runner
# (scripts/corpus/reference.mjs) against the test toolset, and the Result is
# written to NAME.expected.json. The Go test (TestTypeScriptCorpus) runs the
# TypeScript text itself and compares; it needs neither node nor npm.
#
#   scripts/tscorpus/regen.sh            # every program
#   scripts/tscorpus/regen.sh foo bar    # only foo.ts and bar.ts
set -euo pipefail

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
here="$root/scripts/tscorpus"
corpus="$root/internal/run/testdata/tscorpus"
(cd "$here" && npm ci --no-audit --no-fund --silent)

source "$root/scripts/corpus/lib.sh"
start_toolsetd
url=$toolsetd_url

select_programs ts "$@"
for f in "${files[@]}"; do
	name=$(basename "$f" .ts)
	node "$here/transpile.mjs" "$f" >"$tmp/$name.js"
	# The run id is the program's name, as in the Go test.
	if ! out=$(TZ=UTC node --harmony-iterator-helpers "$root/scripts/corpus/reference.mjs" --tools-url "$url" --run-id "ts_$name" "$tmp/$name.js"); then
		[[ -n "$out" ]] || { echo "regen: $name: reference failed" >&2; exit 1; }
	fi
	write_expected "$name" "$out"
done
