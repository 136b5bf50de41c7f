# Shared by the corpus regeneration scripts (scripts/corpus/regen.sh,
# scripts/tscorpus/regen.sh); source it after setting root and tmp.

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

# write_expected NAME OUT writes the reference runner's Result OUT, indented, to
# $corpus/NAME.expected.json.
write_expected() {
	printf '%s\n' "$2" | node -e '
		let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
			process.stdout.write(JSON.stringify(JSON.parse(s), null, 2) + "\n");
		});' >"$corpus/$1.expected.json"
	echo "$1: $(head -c 200 <<<"$2")"
}
