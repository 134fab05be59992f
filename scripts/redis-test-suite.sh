#!/usr/bin/env bash
# redis-test-suite.sh — measure redscope with Redis's own Tcl test suite.
#
# Usage: scripts/redis-test-suite.sh REDIS_SRC_DIR [unit ...]
#
# REDIS_SRC_DIR is a checkout of the public Redis source, built OUTSIDE this project
# (`make -j2` there); nothing of it is copied here. For every unit the script runs
# `./runtest --host 127.0.0.1 --port P --single UNIT` (the suite's external-server mode) twice:
# once against REDIS_SRC_DIR/src/redis-server and once against `redscope resp`, each server
# started fresh for the unit, and prints one table row per unit:
#
#   unit | ok on redis-server | ok on redscope | ok on both | err on each | where redscope stopped
#
# and then the failures on redscope grouped by the missing feature their message names.
#
# "ok on both" pairs test names (a name that appears twice counts twice). A unit that
# raises an exception stops there (the suite exits); the row names the exception and the
# last test that passed. Logs stay in $OUT (default /tmp/redis-test-suite).
#
# Environment:
#   REAL_PORT (6608)  RS_PORT (6609)     ports of the two servers
#   PROFILE (7.4)                        redscope --redis-version
#   RS_BIN                               a built redscope binary (default: go build one)
#   UNIT_TIMEOUT (600)                   seconds per unit and server
#   RUNTEST_OPTS                         extra runtest options, e.g. "--durable" (keep going after
#                                        an exception) or "--tags -resp3"
#   ONLY (both|real|redscope|none)       which servers to run (none: only print the tables of the
#                                        logs already in $OUT)
set -u
SRC=${1:?usage: $0 REDIS_SRC_DIR [unit ...]}
shift
SRC=$(cd "$SRC" && pwd)
HERE=$(cd "$(dirname "$0")/.." && pwd)
REAL_PORT=${REAL_PORT:-6608}
RS_PORT=${RS_PORT:-6609}
PROFILE=${PROFILE:-7.4}
UNIT_TIMEOUT=${UNIT_TIMEOUT:-600}
RUNTEST_OPTS=${RUNTEST_OPTS:-}
ONLY=${ONLY:-both}
OUT=${OUT:-/tmp/redis-test-suite}
mkdir -p "$OUT"

UNITS=("$@")
if [ ${#UNITS[@]} -eq 0 ]; then
	UNITS=(unit/type/string unit/type/incr unit/type/list unit/type/list-2 unit/type/list-3
		unit/type/hash unit/type/set unit/type/zset unit/type/stream unit/type/stream-cgroups
		unit/bitops unit/bitfield unit/hyperloglog unit/keyspace unit/expire unit/multi
		unit/sort unit/scan unit/dump unit/other unit/protocol unit/info-command)
fi

if [ -z "${RS_BIN:-}" ] && { [ "$ONLY" = both ] || [ "$ONLY" = redscope ]; }; then
	RS_BIN=$OUT/redscope
	(cd "$HERE" && go build -o "$RS_BIN" ./cmd/redscope) || exit 1
fi
[ -x "$SRC/src/redis-server" ] || [ "$ONLY" = none ] || { echo "no $SRC/src/redis-server: build it first (make -j2)" >&2; exit 1; }
command -v tclsh >/dev/null || { echo "tclsh is missing (apt-get install tcl)" >&2; exit 1; }

wait_port() { # port
	for _ in $(seq 1 100); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
		sleep 0.1
	done
	return 1
}

start_real() {
	"$SRC/src/redis-server" --port "$REAL_PORT" --bind 127.0.0.1 --save '' --appendonly no \
		--enable-debug-command yes --dir "$OUT" --logfile "$OUT/real-server.log" \
		--daemonize no >/dev/null 2>&1 &
	SERVER_PID=$!
	wait_port "$REAL_PORT"
}

start_rs() {
	"$RS_BIN" resp --redis-version "$PROFILE" --addr "127.0.0.1:$RS_PORT" --dir "$OUT" \
		>>"$OUT/redscope-server.log" 2>&1 &
	SERVER_PID=$!
	wait_port "$RS_PORT"
}

stop_server() {
	kill "$SERVER_PID" 2>/dev/null
	# a server stuck under its own lock (a script that never ends) ignores SIGTERM
	for _ in $(seq 1 30); do
		kill -0 "$SERVER_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$SERVER_PID" 2>/dev/null
	wait "$SERVER_PID" 2>/dev/null
}

# run_unit which unit -> writes $OUT/<which>-<unit>.log (colours stripped)
run_unit() {
	local which=$1 unit=$2 port log
	log=$OUT/$which-${unit//\//_}.log
	if [ "$which" = real ]; then start_real; port=$REAL_PORT; else start_rs; port=$RS_PORT; fi
	# shellcheck disable=SC2086
	(cd "$SRC" && timeout "$UNIT_TIMEOUT" ./runtest --host 127.0.0.1 --port "$port" \
		--dont-pre-clean --single "$unit" $RUNTEST_OPTS) 2>&1 |
		sed 's/\x1b\[[0-9;]*m//g' >"$log"
	echo "rc=${PIPESTATUS[0]}" >>"$log"
	stop_server
}

oks() { sed -n 's/^\[ok\]: \(.*\) ([0-9]* ms)$/\1/p' "$1" 2>/dev/null | sort; }

# stopped LOG -> a short reason, or "-" when the unit ran to its end
stopped() {
	local log=$1 exc last
	if grep -q '^rc=124$' "$log"; then
		last=$(grep '^\[ok\]:' "$log" | tail -1 | sed 's/^\[ok\]: //; s/ ([0-9]* ms)$//')
		echo "timeout after \"$last\""
		return
	fi
	exc=$(grep -m1 -A1 '^\[exception\]:' "$log" | tail -1)
	if [ -n "$exc" ]; then
		last=$(grep '^\[ok\]:' "$log" | tail -1 | sed 's/^\[ok\]: //; s/ ([0-9]* ms)$//')
		echo "exception \"${exc:0:90}\" after \"$last\""
		return
	fi
	if grep -q 'TIMEOUT' "$log"; then echo "suite timeout"; return; fi
	echo "-"
}

count() { grep -c "^\[$1\]:" "$2" 2>/dev/null; }

printf '| unit | ok on redis-server | ok on redscope | ok on both | err (redis-server) | err (redscope) | where redscope stopped |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: | --- |\n'
TR=0 TS=0 TB=0
for unit in "${UNITS[@]}"; do
	real=$OUT/real-${unit//\//_}.log
	rs=$OUT/redscope-${unit//\//_}.log
	[ "$ONLY" = redscope ] || [ "$ONLY" = none ] || run_unit real "$unit"
	[ "$ONLY" = real ] || [ "$ONLY" = none ] || run_unit redscope "$unit"
	r=$(count ok "$real")
	s=$(count ok "$rs")
	b=$(comm -12 <(oks "$real") <(oks "$rs") | wc -l)
	TR=$((TR + ${r:-0})) TS=$((TS + ${s:-0})) TB=$((TB + b))
	printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$unit" "${r:-0}" "${s:-0}" "$b" \
		"$(count err "$real")" "$(count err "$rs")" "$(stopped "$rs")"
done
printf '| **total** | %s | %s | %s | | | |\n' "$TR" "$TS" "$TB"

# cause TEXT -> the missing feature a failure message points at (the test's error text)
cause() {
	case $1 in
	*"protocol version"* | *NOPROTO*) echo "needs RESP3 (HELLO 3)" ;;
	*"'sync' yet"* | *replication_stream*) echo "needs SYNC (replication stream)" ;;
	*loadaof*) echo "needs DEBUG LOADAOF (an AOF)" ;;
	*"'save' yet"* | *"'bgsave' yet"* | *"'bgrewriteaof' yet"*) echo "needs SAVE/BGSAVE/BGREWRITEAOF" ;;
	*"empty string as operand"* | *"*calls="* | *"count=1"* | *used_cpu_user* | *"# Server"*) echo "needs an INFO field" ;;
	*OOM*) echo "needs maxmemory enforcement" ;;
	*pubsub* | *subscribe* | *monitor* | *TRACKING* | *"'acl'"*) echo "needs Pub/Sub, MONITOR, tracking or ACL" ;;
	*) echo "other" ;;
	esac
}

echo
echo "Failures on redscope by cause (err and exception lines):"
echo
printf '| unit | cause | tests |\n| --- | --- | ---: |\n'
for unit in "${UNITS[@]}"; do
	rs=$OUT/redscope-${unit//\//_}.log
	[ -f "$rs" ] || continue
	grep -A1 '^\[err\]:\|^\[exception\]:' "$rs" | grep -v '^\[err\]:\|^\[exception\]:\|^--$' |
		while IFS= read -r line; do cause "$line"; done | sort | uniq -c |
		while read -r n c; do printf '| %s | %s | %s |\n' "$unit" "$c" "$n"; done
done
