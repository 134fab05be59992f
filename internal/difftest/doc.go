// Package difftest holds redscope's differential tests: transcripts and seeded random command
// sequences replayed on Debian's redis-server 7.0.15 and on redscope's RESP server (7.0 profile,
// jemalloc-16), byte-exact; the profile transcripts on the engine alone; and go-redis and
// redis-cli talking to the redscope server. The tests need /usr/bin/redis-server (and
// redis-cli): without them they skip, or fail when CI=true.
//
// A few tests compare the 7.4 profile with a real 7.4 server when REDSCOPE_REDIS74 names a
// redis-server 7.4 binary (built from the public Redis source outside the project; each test
// starts its own on a free port): TestProfileTranscriptsOnReference (the clock-independent 7.4
// profile transcripts) and TestStreamBlockingScenarios74. Without the variable they skip.
package difftest
