#!/bin/sh
# Records redis-7.0.15.txt, the HLL strings read_test.go decodes, from a redis-server 7.0.15
# listening on port $1 (started with --save '' --appendonly no; the script runs FLUSHALL).
#
#   redis-server --port 6402 --save '' --appendonly no &
#   sh engine/hll/testdata/record.sh 6402 > engine/hll/testdata/redis-7.0.15.txt
#
# Each block is "> " and a label, then redis-cli --no-raw's output, except PFDEBUG GETREG whose
# 16 384 replies are written on one line, space separated (redis-cli --raw), to keep the file small.
set -e
port=${1:?port}
cli() { redis-cli -p "$port" --no-raw "$@"; }
run() { echo "> $*"; cli "$@"; }
echo "# $(redis-cli -p "$port" INFO server | grep -E '^redis_version' | tr -d '\r'), hll-sparse-max-bytes $(redis-cli -p "$port" --raw CONFIG GET hll-sparse-max-bytes | tail -1)"
cli FLUSHALL >/dev/null
run PFADD h1 a b c
run GET h1
run PFDEBUG DECODE h1
run PFCOUNT h1
run GET h1
echo "> PFADD h2 1..300"
cli PFADD h2 $(seq 1 300)
run GET h2
run PFDEBUG DECODE h2
echo "> PFDEBUG GETREG h2"
redis-cli -p "$port" --raw PFDEBUG GETREG h2 | tr '\n' ' ' | sed 's/ $//'
echo
run PFDEBUG ENCODING h2
echo "> PFADD h3 1..1500"
cli PFADD h3 $(seq 1 1500)
run GET h3
run PFDEBUG DECODE h3
run PFCOUNT h3
echo "> PFADD d 1..20000"
cli PFADD d $(seq 1 20000)
run PFDEBUG ENCODING d
run GET d
echo "> PFDEBUG GETREG d"
redis-cli -p "$port" --raw PFDEBUG GETREG d | tr '\n' ' ' | sed 's/ $//'
echo
run PFCOUNT d
