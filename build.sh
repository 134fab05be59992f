#!/usr/bin/env bash
# redscope build script.
#
#   ./build.sh test    gofmt check, go vet, go test ./... (differential tests against a real
#                      redis-server included), the engine's tests under node (GOOS=js GOARCH=wasm)
#                      when node exists, and a short fuzz run
#   ./build.sh dist    build the browser app into dist/ (main.wasm, wasm_exec.js, index.html,
#                      assets/) with precompressed .gz and .br copies
#   ./build.sh serve   dist, then serve it on http://127.0.0.1:8080/ (ADDR=host:port to change)
#
# Environment: FUZZTIME (default 200000x, a count: a duration can fail with a bare "context
# deadline exceeded" under Go 1.26, golang/go#75804; 0 skips the fuzz run), BROTLI_QUALITY (default 11),
# ADDR (serve address).
set -euo pipefail

cd "$(dirname "$0")"

if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
	export PATH="$PATH:/usr/local/go/bin"
fi

say() { printf '\n==> %s\n' "$*"; }

gofmt_check() {
	say "gofmt"
	local bad
	bad=$(find . -name '*.go' -not -path './.git/*' -not -path '*/testdata/*' -not -path './dist/*' -print0 |
		xargs -0 gofmt -l)
	if [ -n "$bad" ]; then
		echo "these files are not gofmt'ed (run gofmt -w on them):" >&2
		echo "$bad" >&2
		return 1
	fi
}

cmd_test() {
	gofmt_check
	say "go vet ./..."
	go vet ./...
	say "go test ./..."
	go test -count=1 -timeout 20m ./...
	if command -v node >/dev/null 2>&1; then
		say "engine tests under node (GOOS=js GOARCH=wasm)"
		local exec
		exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec"
		[ -x "$exec" ] || exec="$(go env GOROOT)/misc/wasm/go_js_wasm_exec"
		GOOS=js GOARCH=wasm go test -count=1 -timeout 15m -exec="$exec" ./engine/...
	elif [ "${CI:-}" = "true" ]; then
		echo "node is missing: CI needs it for the wasm tests" >&2
		return 1
	else
		say "node not found: skipping the wasm tests"
	fi
	local ft="${FUZZTIME:-200000x}"
	if [ "$ft" != "0" ]; then
		say "fuzz FuzzExec ($ft)"
		go test -run '^$' -fuzz '^FuzzExec$' -fuzztime "$ft" ./engine
	fi
	say "all tests passed"
}

# compress writes gzip -9 and brotli copies of every compressible file under dist/.
compress() {
	local q="${BROTLI_QUALITY:-11}"
	local have_brotli=1
	if ! command -v brotli >/dev/null 2>&1; then
		have_brotli=0
		if [ "${CI:-}" = "true" ]; then
			echo "brotli is missing (apt-get install brotli)" >&2
			return 1
		fi
		echo "brotli not found: only .gz copies (apt-get install brotli)" >&2
	fi
	find dist -type f \( -name '*.html' -o -name '*.js' -o -name '*.mjs' -o -name '*.css' -o -name '*.wasm' \
		-o -name '*.json' -o -name '*.svg' -o -name '*.txt' -o -name '*.md' -o -name '*.lesson' -o -name '*.map' \) -print0 |
		while IFS= read -r -d '' f; do
			gzip -9 -n -k -f "$f"
			if [ "$have_brotli" = 1 ]; then
				brotli -q "$q" -f -k "$f"
			fi
		done
}

cmd_dist() {
	if [ ! -d wasm ] || ! ls wasm/*.go >/dev/null 2>&1; then
		say "no browser app yet (wasm/ has no Go files): nothing to build into dist/"
		return 0
	fi
	say "building dist/"
	rm -rf dist
	mkdir -p dist
	GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o dist/main.wasm ./wasm
	local wexec
	wexec="$(go env GOROOT)/lib/wasm/wasm_exec.js"
	[ -f "$wexec" ] || wexec="$(go env GOROOT)/misc/wasm/wasm_exec.js"
	cp "$wexec" dist/wasm_exec.js
	if [ -f index.html ]; then
		cp index.html dist/index.html
	elif [ -f wasm/index.html ]; then
		cp wasm/index.html dist/index.html
	else
		echo "no index.html (at the repository root or in wasm/)" >&2
		return 1
	fi
	# The embedding demo (a course-style page with two lessons in iframes), beside index.html.
	if [ -f web/embed-demo.html ]; then cp web/embed-demo.html dist/embed-demo.html; fi
	# The lesson format, linked from the embed dialog.
	cp lesson/FORMAT.md dist/FORMAT.md
	if [ -d assets ]; then
		# Everything but the Go package files that embed or test the assets.
		(cd assets && find . -type f -not -name '*.go' -print0 | while IFS= read -r -d '' f; do
			mkdir -p "../dist/assets/$(dirname "$f")"
			cp "$f" "../dist/assets/$f"
		done)
	fi
	compress
	say "dist/ ready: $(du -sh dist | cut -f1) ($(stat -c %s dist/main.wasm) bytes of main.wasm)"
}

cmd_serve() {
	cmd_dist
	local addr="${ADDR:-127.0.0.1:8080}"
	if [ -f dist/index.html ]; then
		say "serving dist/ on http://$addr/ (Ctrl-C stops)"
		exec go run ./cmd/redscope serve --addr "$addr" --dir dist
	fi
	local raddr="${RESP_ADDR:-127.0.0.1:6380}"
	say "the browser app does not exist yet: serving the Redis protocol instead on $raddr (redis-cli -p ${raddr##*:}; Ctrl-C stops)"
	exec go run ./cmd/redscope resp --addr "$raddr"
}

case "${1:-}" in
test) cmd_test ;;
dist) cmd_dist ;;
serve) cmd_serve ;;
*)
	echo "usage: ./build.sh test|dist|serve" >&2
	exit 2
	;;
esac
