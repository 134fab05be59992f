#!/usr/bin/env bash
# Throughput of redscope's RESP server against a real redis-server, with redis-benchmark.
#
#   scripts/bench-resp.sh            (N=200000 requests per test, P=16 pipeline, C=50 clients)
#
# Starts redis-server and two `redscope resp` servers (the 7.0 profile with jemalloc-16, and the
# default 8.8 profile) on free loopback ports, runs the issue-2 tests (SET, GET, INCR, PFADD) and
# the issue-3 tests (HSET, HGET, SADD, SINTERCARD of two 1000-member sets, ZINCRBY, ZRANGE top 10
# WITHSCORES of a 1000-member zset, LPUSH) against each, and prints requests per second and the
# ratio redscope/redis. TESTS="set get …" picks tests. Everything stops at the end.
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

# prep PORT TEST fills the keys a test reads (after FLUSHALL).
prep() {
	local port=$1
	case $2 in
	hget)
		redis-benchmark -p "$port" -P "$P" -c "$C" -n "$R" -r "$R" -q hset h __rand_int__ v >/dev/null 2>&1
		;;
	sintercard)
		redis-cli -p "$port" sadd a $(seq 0 999) >/dev/null
		redis-cli -p "$port" sadd b $(seq 500 1499) >/dev/null
		;;
	zrange)
		redis-cli -p "$port" zadd z $(seq 0 999 | awk '{printf "%d m%d ", $1, $1}') >/dev/null
		;;
	esac
}

# targs TEST prints the redis-benchmark arguments of a test.
targs() {
	case $1 in
	set | get | incr | lpush) echo "-r $R -t $1" ;;
	pfadd) echo "-r $R pfadd hll __rand_int__" ;;
	hset) echo "-r $R hset h __rand_int__ v" ;;
	hget) echo "-r $R hget h __rand_int__" ;;
	sadd) echo "-r $R sadd s __rand_int__" ;;
	sintercard) echo "sintercard 2 a b" ;;
	zincrby) echo "-r $R zincrby z 1 __rand_int__" ;;
	zrange) echo "zrange z 0 9 rev withscores" ;;
	*) echo "unknown test $1" >&2; exit 1 ;;
	esac
}

# rps PORT TEST prints the requests per second of one redis-benchmark run.
rps() {
	local port=$1 n=$N
	redis-cli -p "$port" flushall >/dev/null
	prep "$port" "$2"
	# SINTERCARD walks 1000 members a call: fewer requests keep the run short.
	[ "$2" = sintercard ] && n=$((N / 10))
	# shellcheck disable=SC2046
	redis-benchmark -p "$port" -P "$P" -c "$C" -n "$n" -q $(targs "$2") 2>/dev/null | tr '\r' '\n' |
		grep -Eo '[0-9.]+ requests per second' | tail -1 | awk '{print $1}'
}

ratio() { awk -v x="$1" -v y="$2" 'BEGIN{ if (y > 0) printf "%.2f", x/y; else printf "-" }'; }

TESTS="${TESTS:-set get incr pfadd hset hget sadd sintercard zincrby zrange lpush}"
printf 'redis-benchmark -P %s -c %s -n %s -r %s (%s cores, redis-server %s); load before: %s\n\n' "$P" "$C" "$N" "$R" \
	"$(nproc)" "$(redis-server --version | awk '{print $3}' | sed 's/v=//')" "$(uptime | sed 's/.*load average: //')"
printf '%-10s %14s %16s %7s %16s %7s\n' test redis-server "redscope 7.0/j16" ratio "redscope 8.8" ratio
for t in $TESTS; do
	a=$(rps "$rport" "$t")
	b=$(rps "$s70" "$t")
	c=$(rps "$s88" "$t")
	printf '%-10s %14s %16s %7s %16s %7s\n' "$t" "$a" "$b" "$(ratio "$b" "$a")" "$c" "$(ratio "$c" "$a")"
done
printf '\nload after: %s\n' "$(uptime | sed 's/.*load average: //')"
