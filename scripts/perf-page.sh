#!/usr/bin/env bash
# The browser app's figures of BENCHMARKS.md ("Browser app", issue 11), one part or all:
#
#   scripts/perf-page.sh session   the course week typed through window.redscope.exec
#                                  (TestPageSessionCost: day and batch times, Go split)
#   scripts/perf-page.sh long      a generated 5 000-step lesson through step() / Next
#                                  (TestLongLessonNext: ms per 1 000 steps)
#   scripts/perf-page.sh embed     the week as postMessage exec requests (TestEmbedExecSessionCost)
#   scripts/perf-page.sh cold      five fresh browsers to ready, with the breakdown (TestColdStart)
#   scripts/perf-page.sh frame     payload, first frames, Go per Update+Draw in the HLL map after
#                                  20 000 typed elements, the course week (TestPerf)
#   scripts/perf-page.sh payload   main.wasm's sections and code by package (scripts/wasmsize),
#                                  its and main-lua.wasm's brotli size at BROTLI_QUALITY (default 11)
#   scripts/perf-page.sh init      package init times of main.wasm under node (GODEBUG=inittrace=1)
#   scripts/perf-page.sh all       all of the above, one after the other
#
# Every part prints the load average before it starts (the machine may be shared: the times are
# only comparable at similar loads). Browser tests write their figures to REDSCOPE_ARTIFACTS too.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

load() { echo "== $1 (load $(cut -d' ' -f1-3 /proc/loadavg))"; }
# wasmbuild OUT [wasmbuild flags]: main.wasm as build.sh dist builds it (scripts/wasmbuild).
wasmbuild() {
	local out=$1
	shift
	go run ./scripts/wasmbuild "$@" -o "$out"
}
btest() { go test -count=1 -timeout 30m -run "$1" -v ./wasm/browsertest | grep -v 'GL Driver Message'; }

part() {
	case "$1" in
	session) load session; btest '^TestPageSessionCost$' ;;
	long) load long; btest '^TestLongLessonNext$' ;;
	embed) load embed; btest '^TestEmbedExecSessionCost$' ;;
	cold) load cold; btest '^TestColdStart$' ;;
	frame) load frame; btest '^TestPerf$' ;;
	payload)
		load payload
		# main.wasm: the build a first visit loads (no Lua); main-lua.wasm: the whole app (wasm/lua.go).
		wasmbuild "$tmp/main.wasm" -tags nolua
		wasmbuild "$tmp/main-lua.wasm"
		wasmbuild "$tmp/names.wasm" -names -tags nolua
		go run ./scripts/wasmsize -groups "$tmp/names.wasm"
		go run ./scripts/wasmsize -top 25 "$tmp/names.wasm" | sed -n '/^code bodies/,$p'
		q="${BROTLI_QUALITY:-11}"
		for f in main main-lua; do
			echo "$f.wasm raw $(stat -c %s "$tmp/$f.wasm") B, gzip -9 $(gzip -9 -c "$tmp/$f.wasm" | wc -c) B, brotli -q $q $(brotli -q "$q" -c "$tmp/$f.wasm" | wc -c) B"
		done
		;;
	init)
		load init
		wasmbuild "$tmp/names.wasm" -names -tags nolua
		# main stops at its first DOM call under node; the package inits have all run by then.
		GODEBUG=inittrace=1 node "$(go env GOROOT)/lib/wasm/wasm_exec_node.js" "$tmp/names.wasm" 2>&1 |
			awk '/^init / {print $5, "ms", $2}' | sort -rn | head -15 || true
		;;
	*) echo "unknown part $1" >&2; exit 2 ;;
	esac
}

if [ "${1:-all}" = all ]; then
	for p in payload init session long embed cold frame; do part "$p"; done
else
	for p in "$@"; do part "$p"; done
fi
