// Package difftest holds redscope's differential tests: transcripts and seeded random command
// sequences replayed on Debian's redis-server 7.0.15 and on redscope's RESP server (7.0 profile,
// jemalloc-16), byte-exact; the profile transcripts on the engine alone; and go-redis and
// redis-cli talking to the redscope server. The tests need /usr/bin/redis-server (and
// redis-cli): without them they skip, or fail when CI=true.
package difftest
