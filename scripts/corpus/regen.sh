#!/usr/bin/env bash
# Regenerates the differential corpus's expectations: starts the test toolset
# server (toolsetd), runs scripts/corpus/reference.mjs (node) over every
# internal/run/testdata/corpus/*.js and writes NAME.expected.json beside each
# program. Run from anywhere inside the repository:
#
#   scripts/corpus/regen.sh            # every program
#   scripts/corpus/regen.sh foo bar    # only foo.js and bar.js
#
# TOOLSETD may name a prebuilt toolsetd binary (default: built from
# ./internal/toolset/toolsettest/cmd/toolsetd).
set -euo pipefail

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
corpus="$root/internal/run/testdata/corpus"
source "$root/scripts/corpus/lib.sh"
start_toolsetd
url=$toolsetd_url

select_programs js "$@"
for f in "${files[@]}"; do
	name=$(basename "$f" .js)
	# The run id is the program's name: call keys stay unique across programs
	# that share one toolset server, as in corpus_test.go.
	if ! out=$(TZ=UTC node --harmony-iterator-helpers "$root/scripts/corpus/reference.mjs" --tools-url "$url" --run-id "$name" "$f"); then
		[[ -n "$out" ]] || { echo "regen: $name: reference failed" >&2; exit 1; }
	fi
	write_expected "$name" "$out"
done
