package difftest

import "testing"

// TestStreamDirtyCounts compares INFO's rdb_changes_since_last_save after each stream command
// (t_stream.c's server.dirty: one per entry acknowledged, claimed, deleted or trimmed, per
// consumer created, per stream XREADGROUP served, …; engine/cmd_stream.go streamDirty) on
// redis-server 7.0.15 and redscope.
func TestStreamDirtyCounts(t *testing.T) {
	script := []string{
		"XADD x 1-0 data a", "XADD x 2-0 data b", "XADD x 3-0 data c", "XADD x 4-0 data d",
		"XADD x 5-0 data e", "XGROUP CREATE x g1 0", "XGROUP CREATE x g1 0",
		"XGROUP CREATE y g1 0 MKSTREAM", "XGROUP CREATECONSUMER x g1 Alice",
		"XGROUP CREATECONSUMER x g1 Alice", "XREADGROUP GROUP g1 Alice COUNT 2 STREAMS x >",
		"XREADGROUP GROUP g1 Alice NOACK COUNT 1 STREAMS x >",
		"XREADGROUP GROUP g1 Alice COUNT 2 STREAMS x 0",
		"XREADGROUP GROUP g1 Alice COUNT 2 STREAMS x 9000",
		"XREADGROUP GROUP g1 noconsumer COUNT 2 STREAMS x 0",
		"XREADGROUP GROUP g1 Bob COUNT 2 STREAMS x >", "XREADGROUP GROUP g1 Bob COUNT 2 STREAMS x >",
		"XREADGROUP GROUP g1 Bob COUNT 2 STREAMS x y > >", "XACK x g1 1-0 2-0 9-0", "XACK x g1 1-0",
		"XCLAIM x g1 Carol 0 4-0 5-0", "XCLAIM x g1 Carol 0 4-0 JUSTID", "XCLAIM x g1 Carol 0 9-0",
		"XCLAIM x g1 Carol 0 4-0 LASTID 8-0", "XAUTOCLAIM x g1 Dave 0 0",
		"XAUTOCLAIM x g1 Dave 0 0 JUSTID", "XDEL x 4-0", "XAUTOCLAIM x g1 Eve 0 0",
		"XDEL x 1-0 2-0 3-0", "XDEL x 1-0", "XTRIM x MAXLEN 0", "XTRIM x MAXLEN 0", "XSETID x 10-0",
		"XGROUP SETID x g1 0", "XGROUP DELCONSUMER x g1 Alice", "XGROUP DELCONSUMER x g1 nobody",
		"XGROUP DESTROY x g1", "XGROUP DESTROY x g1", "XADD z NOMKSTREAM 1-0 a b",
		"XADD z MAXLEN 0 1-0 a b",
	}
	moved := compareDirty(t, script)
	t.Logf("%d commands compared, %d moved the counter", len(script), moved)
}
