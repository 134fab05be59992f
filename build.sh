#!/usr/bin/env bash
# redscope build script.
#
#   ./build.sh test    installs what the tests need when it is missing (Debian's redis-server,
#                      redis-tools, chromium, brotli, nodejs, with apt-get), then gofmt check,
#                      go vet, go test ./... (differential tests against a real redis-server and
#                      browser tests in headless Chromium included), the engine's tests under node
#                      (GOOS=js GOARCH=wasm), and a short fuzz run. It fails, naming the packages,
#                      where it cannot install them: it never reports success with tests skipped.
#   ./build.sh dist    build the browser app into dist/ (main.<hash>.wasm, wasm_exec.<hash>.js,
#                      index.html, sw.js, assets/) with precompressed .gz and .br copies
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

# tool → the Debian package that provides it (what the tests need).
declare -A test_pkgs=(
	[redis-server]=redis-server
	[redis-cli]=redis-tools
	[redis-benchmark]=redis-tools
	[chromium]=chromium
	[brotli]=brotli
	[node]=nodejs
)

missing_tools() {
	local tool
	for tool in "${!test_pkgs[@]}"; do
		command -v "$tool" >/dev/null 2>&1 || echo "$tool"
	done
}

# ensure_test_tools installs the missing test tools with apt-get (as root), or fails naming them.
ensure_test_tools() {
	local missing pkgs
	missing=$(missing_tools)
	[ -z "$missing" ] && return 0
	pkgs=$(for t in $missing; do echo "${test_pkgs[$t]}"; done | sort -u | tr '\n' ' ')
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		say "installing the test packages: $pkgs"
		export DEBIAN_FRONTEND=noninteractive
		# Keep a packaged redis-server from starting its own daemon on 6379.
		local rc_added=0
		if [ ! -e /usr/sbin/policy-rc.d ]; then
			printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
			chmod +x /usr/sbin/policy-rc.d
			rc_added=1
		fi
		apt-get update -qq || true
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $pkgs || true
		[ "$rc_added" = 1 ] && rm -f /usr/sbin/policy-rc.d
		missing=$(missing_tools)
		[ -z "$missing" ] && return 0
	fi
	echo "the tests need these tools, which are missing: $(echo $missing)" >&2
	echo "install them (as root: apt-get install $pkgs) and run ./build.sh test again" >&2
	return 1
}

cmd_test() {
	ensure_test_tools
	export CI="${CI:-true}" # the tools are there: a test that would skip for want of one fails instead
	gofmt_check
	say "go vet ./..."
	go vet ./...
	say "go test ./..."
	go test -count=1 -timeout 75m ./... # the browser package alone takes about 45 minutes on 2 cores
	say "engine tests under node (GOOS=js GOARCH=wasm)"
	local exec
	exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec"
	GOOS=js GOARCH=wasm go test -count=1 -timeout 10m -exec="$exec" ./engine/...
	say "the build without Lua (-tags nolua)"
	go vet -tags nolua ./engine/... ./lesson/... ./scene/...
	GOOS=js GOARCH=wasm go vet -tags nolua ./wasm
	go test -tags nolua -count=1 -run 'NoLua' ./engine # the engine's other tests are the full build's
	GOOS=js GOARCH=wasm go build -tags nolua -o /dev/null ./wasm
	local deps
	deps="$(GOOS=js GOARCH=wasm go list -deps -tags nolua ./wasm)"
	if grep -q gopher-lua <<<"$deps"; then
		echo "the nolua build of ./wasm still links gopher-lua" >&2
		return 1
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
	say "building dist/"
	rm -rf dist
	mkdir -p dist
	# scripts/wasmbuild: ebiten's built-in shaders precompiled (scripts/shaderpack,
	# docs/shaderpack.md) and the inlining policy (docs/wasm-build.md). Two builds: main.wasm
	# without the Lua interpreter (what a first visit downloads) and main-lua.wasm, the whole app,
	# which the page moves to when a session needs a script (wasm/lua.go).
	go run ./scripts/wasmbuild -tags nolua -o dist/main.wasm
	go run ./scripts/wasmbuild -o dist/main-lua.wasm
	local wexec
	wexec="$(go env GOROOT)/lib/wasm/wasm_exec.js"
	cp "$wexec" dist/wasm_exec.js
	cp index.html dist/index.html
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
	# Content-hashed names (main.<hash>.wasm, wasm_exec.<hash>.js) that web/ serves as immutable
	# for a year, index.html rewritten to them, and sw.js, the offline service worker.
	go run ./web/fingerprint dist
	compress
	local wasm
	wasm=$(ls dist/main.*.wasm)
	say "dist/ ready: $(du -sh dist | cut -f1) ($(stat -c %s "$wasm") bytes of $(basename "$wasm"))"
}

cmd_serve() {
	cmd_dist
	local addr="${ADDR:-127.0.0.1:8080}"
	say "serving dist/ on http://$addr/ (Ctrl-C stops)"
	exec go run ./cmd/redscope serve --addr "$addr" --dir dist
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
