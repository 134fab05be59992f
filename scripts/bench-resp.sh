#!/usr/bin/env bash
# Throughput and latency of redscope's RESP server against a real redis-server, side by side, with
# redis-benchmark.
#
#   scripts/bench-resp.sh     (N=100000 requests per test, P=16 pipeline, C=20 clients,
#                              R=100000 key range, ROUNDS=11)
#
# Starts redis-server and `redscope resp` (the 7.0 profile with jemalloc-16; WITH88=1 adds the
# default 8.8 profile) on free loopback ports (RPORT, SPORT, S88PORT to choose them), then plays
# ROUNDS rounds; in each round every test runs once against each server, one after the other
# (A B A B …), so that a burst of load on the shared machine hits both; many short rounds rather
# than a few long ones, because the load on a shared virtual machine changes within seconds.
# Even so a test's median ratio can move by 0.1 or more between two runs minutes apart:
# BENCHMARKS.md gives several runs. Tests (TESTS="set get …"):
# SET GET INCR PFADD HSET ZINCRBY SADD by default; also hget sintercard zrange lpush. Each run is
# `redis-benchmark --csv` from FLUSHALL; it prints every run's requests per second and p50 / p99
# latency, then per test the medians over the rounds and the median of the per-round ratios
# redscope / redis-server. OLD_BIN=<a redscope binary> adds an older build as a third server
# ("old"), to compare before and after in the same run. Everything stops at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

N="${N:-100000}"
P="${P:-16}"
C="${C:-20}"
ROUNDS="${ROUNDS:-11}"
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

rport=${RPORT:-$(free_port)}
redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp" --daemonize no \
	--logfile "$tmp/redis.log" &
pids+=($!)
wait_up "$rport"

s70=${SPORT:-$(free_port)}
"$tmp/redscope" resp --addr "127.0.0.1:$s70" --redis-version 7.0 --allocator jemalloc-16 >/dev/null &
pids+=($!)
wait_up "$s70"

# OLD_BIN=/path/to/redscope adds that build (same flags) as server "old": before/after in one run.
if [ -n "${OLD_BIN:-}" ]; then
	sold=${OLDPORT:-$(free_port)}
	"$OLD_BIN" resp --addr "127.0.0.1:$sold" --redis-version 7.0 --allocator jemalloc-16 >/dev/null &
	pids+=($!)
	wait_up "$sold"
fi

if [ "${WITH88:-0}" = 1 ]; then
	s88=${S88PORT:-$(free_port)}
	"$tmp/redscope" resp --addr "127.0.0.1:$s88" >/dev/null &
	pids+=($!)
	wait_up "$s88"
fi

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

# run PORT TEST prints "rps p50 p99" (ms) of one redis-benchmark run.
run() {
	local port=$1 n=$N
	redis-cli -p "$port" flushall >/dev/null
	prep "$port" "$2"
	# SINTERCARD walks 1000 members a call: fewer requests keep the run short.
	[ "$2" = sintercard ] && n=$((N / 10))
	# shellcheck disable=SC2046
	redis-benchmark -p "$port" -P "$P" -c "$C" -n "$n" --csv $(targs "$2") 2>/dev/null |
		awk -F, 'NR == 2 { gsub(/"/, ""); print $2, $5, $7 }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

TESTS="${TESTS:-set get incr pfadd hset zincrby sadd}"
servers="redis:$rport scope70:$s70"
[ -n "${OLD_BIN:-}" ] && servers="$servers old:$sold"
[ "${WITH88:-0}" = 1 ] && servers="$servers scope88:$s88"
printf 'redis-benchmark -P %s -c %s -n %s -r %s, %s rounds (%s cores, redis-server %s); load before: %s\n\n' "$P" "$C" "$N" "$R" \
	"$ROUNDS" "$(nproc)" "$(redis-server --version | awk '{print $3}' | sed 's/v=//')" "$(uptime | sed 's/.*load average: //')"
printf '%-6s %-10s %-8s %12s %9s %9s\n' round test server rps p50_ms p99_ms
for round in $(seq "$ROUNDS"); do
	for t in $TESTS; do
		for sv in $servers; do
			name=${sv%%:*}
			port=${sv##*:}
			read -r rps p50 p99 < <(run "$port" "$t")
			printf '%-6s %-10s %-8s %12s %9s %9s\n' "$round" "$t" "$name" "$rps" "$p50" "$p99"
			echo "$round $t $name $rps $p50 $p99" >>"$tmp/results"
		done
	done
done
printf '\nload after: %s\n\nmedians over %s rounds (ratio: median of the per-round ratios to redis-server)\n' \
	"$(uptime | sed 's/.*load average: //')" "$ROUNDS"
printf '%-10s %-8s %12s %9s %9s %7s\n' test server rps p50_ms p99_ms ratio
for t in $TESTS; do
	for sv in $servers; do
		name=${sv%%:*}
		rps=$(awk -v t="$t" -v s="$name" '$2 == t && $3 == s { print $4 }' "$tmp/results" | median)
		p50=$(awk -v t="$t" -v s="$name" '$2 == t && $3 == s { print $5 }' "$tmp/results" | median)
		p99=$(awk -v t="$t" -v s="$name" '$2 == t && $3 == s { print $6 }' "$tmp/results" | median)
		ratio=$(awk -v t="$t" -v s="$name" '$2 == t && $3 == "redis" { r[$1] = $4 } $2 == t && $3 == s { x[$1] = $4 }
			END { for (k in x) if (r[k] > 0) print x[k] / r[k] }' "$tmp/results" | median)
		printf '%-10s %-8s %12.0f %9s %9s %7.2f\n' "$t" "$name" "$rps" "$p50" "$p99" "$ratio"
	done
done
