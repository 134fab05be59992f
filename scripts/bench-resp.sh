#!/usr/bin/env bash
# Throughput of redscope's RESP server against a real redis-server, with redis-benchmark.
#
#   scripts/bench-resp.sh            (N=200000 requests per test, P=16 pipeline, C=50 clients)
#
# Starts redis-server and two `redscope resp` servers (the 7.0 profile with jemalloc-16, and the
# default 8.8 profile) on free loopback ports, runs SET/GET/INCR and a PFADD test against each,
# and prints requests per second and the ratio redscope/redis. Everything stops at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

N="${N:-200000}"
P="${P:-16}"
C="${C:-50}"
R="${R:-100000}"

for t in redis-server redis-benchmark redis-cli go; do
	command -v "$t" >/dev/null 2>&1 || { echo "missing $t (apt-get install redis-server redis-tools)" >&2; exit 1; }
done

tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 30000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
	done
}

wait_up() {
	for _ in $(seq 100); do
		redis-cli -p "$1" ping >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	echo "nothing answers on port $1" >&2
	return 1
}

go build -o "$tmp/redscope" ./cmd/redscope

rport=$(free_port)
redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp" --daemonize no \
	--logfile "$tmp/redis.log" &
pids+=($!)
wait_up "$rport"

s70=$(free_port)
"$tmp/redscope" resp --addr "127.0.0.1:$s70" --redis-version 7.0 --allocator jemalloc-16 >/dev/null &
pids+=($!)
wait_up "$s70"

s88=$(free_port)
"$tmp/redscope" resp --addr "127.0.0.1:$s88" >/dev/null &
pids+=($!)
wait_up "$s88"

# rps PORT TEST-ARGS… prints the requests per second of one redis-benchmark run.
rps() {
	local port=$1
	shift
	redis-cli -p "$port" flushall >/dev/null
	redis-benchmark -p "$port" -P "$P" -c "$C" -n "$N" -q "$@" 2>/dev/null | tr '\r' '\n' |
		grep -Eo '[0-9.]+ requests per second' | tail -1 | awk '{print $1}'
}

printf 'redis-benchmark -P %s -c %s -n %s (%s cores, %s)\n\n' "$P" "$C" "$N" "$(nproc)" "$(redis-server --version | awk '{print $3}')"
printf '%-8s %14s %16s %7s %16s %7s\n' test redis-server "redscope 7.0/j16" ratio "redscope 8.8" ratio
for t in set get incr pfadd; do
	if [ "$t" = pfadd ]; then
		args=(-r "$R" pfadd hll __rand_int__)
	else
		args=(-r "$R" -t "$t")
	fi
	a=$(rps "$rport" "${args[@]}")
	b=$(rps "$s70" "${args[@]}")
	c=$(rps "$s88" "${args[@]}")
	printf '%-8s %14s %16s %7s %16s %7s\n' "$t" "$a" "$b" "$(awk -v x="$b" -v y="$a" 'BEGIN{printf "%.2f", x/y}')" \
		"$c" "$(awk -v x="$c" -v y="$a" 'BEGIN{printf "%.2f", x/y}')"
done
