# Shared by the corpus regeneration scripts (scripts/corpus/regen.sh,
# scripts/tscorpus/regen.sh); source it after setting root and corpus. It makes
# a scratch directory, tmp, removed at exit with the toolset server.

tmp=$(mktemp -d)
toolsetd_pid=""
cleanup() {
	if [[ -n "$toolsetd_pid" ]]; then kill "$toolsetd_pid" 2>/dev/null || true; wait "$toolsetd_pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# start_toolsetd starts the test toolset server (TOOLSETD, or built from
# ./internal/toolset/toolsettest/cmd/toolsetd) on a free port, and sets
# toolsetd_pid and toolsetd_url.
start_toolsetd() {
	local bin=${TOOLSETD:-}
	if [[ -z "$bin" ]]; then
		bin="$tmp/toolsetd"
		(cd "$root" && go build -o "$bin" ./internal/toolset/toolsettest/cmd/toolsetd)
	fi
	"$bin" -listen 127.0.0.1:0 >"$tmp/toolsetd.out" 2>&1 &
	toolsetd_pid=$!
	toolsetd_url=""
	for _ in $(seq 1 100); do
		toolsetd_url=$(sed -n 's/^listening on //p' "$tmp/toolsetd.out")
		[[ -n "$toolsetd_url" ]] && return 0
		sleep 0.1
	done
	echo "regen: toolsetd did not start" >&2
	cat "$tmp/toolsetd.out" >&2
	exit 1
}

# select_programs EXT [NAME...] sets files to the corpus programs NAME.EXT, or
# to every *.EXT of the corpus.
select_programs() {
	local ext=$1
	shift
	files=()
	if [[ $# -gt 0 ]]; then
		for name in "$@"; do files+=("$corpus/${name%."$ext"}.$ext"); done
	else
		files=("$corpus"/*."$ext")
	fi
}

# write_expected NAME OUT writes the reference runner's Result OUT, indented, to
# $corpus/NAME.expected.json.
write_expected() {
	printf '%s\n' "$2" | node -e '
		let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
			process.stdout.write(JSON.stringify(JSON.parse(s), null, 2) + "\n");
		});' >"$corpus/$1.expected.json"
	echo "$1: $(head -c 200 <<<"$2")"
}
