//go:build !nolua

package engine

import (
	"strings"
	"testing"
)

// Scripts on a cluster node per profile: 7.0 words every routing failure inside a script "non
// local key"; 7.4 (script.c of 7.4.1) names the command for CROSSSLOT and reports an unassigned
// slot. The 7.0 replies are compared with a real cluster by internal/difftest
// (TestClusterScriptsDiff).
func TestClusterScriptErrorsPerProfile(t *testing.T) {
	sha := sha1hex("return redis.call('mget', 'b', 'foo')")
	for _, c := range []struct {
		v    Version
		want string
	}{
		{V70, "(error) ERR Script attempted to access a non local key in a cluster node script: " + sha + ", on @user_script:1."},
		{V72, "(error) ERR Script attempted to access a non local key in a cluster node script: " + sha + ", on @user_script:1."},
		{V74, "(error) ERR Command 'mget' in script attempted to access keys that don't hash to the same slot script: " + sha + ", on @user_script:1."},
	} {
		cl := NewCluster(ClusterOptions{Masters: 3, Port: 7000, Options: Options{Version: c.v}})
		e := cl.Nodes()[0]
		want(t, e, c.want, "EVAL", "return redis.call('mget', 'b', 'foo')", "0")
		// Keys of node 2 from node 0: non local on every profile.
		got := strings.TrimSpace(e.Do("EVAL", "return redis.call('get', 'foo')", "0").FormatCLI())
		if !strings.Contains(got, "Script attempted to access a non local key in a cluster node script: ") {
			t.Errorf("%v: GET foo from node 0: %s", c.v, got)
		}
		// A "#!lua" script keeps to one slot; allow-cross-slot-keys lifts it.
		got = strings.TrimSpace(e.Do("EVAL", "#!lua\nredis.call('get', 'b')\nreturn redis.call('get', 'bar')", "0").FormatCLI())
		if !strings.Contains(got, "ERR Script attempted to access keys that do not hash to the same slot script: ") || !strings.HasSuffix(got, ", on @user_script:3.") {
			t.Errorf("%v: #!lua two slots: %s", c.v, got)
		}
		want(t, e, "(nil)", "EVAL", "#!lua flags=allow-cross-slot-keys\nredis.call('get', 'b')\nreturn redis.call('get', 'bar')", "0")
		want(t, e, "(error) ERR Can not run script on cluster, 'no-cluster' flag is set.", "EVAL", "#!lua flags=no-cluster\nreturn 1", "0")
		// redis.pcall returns the error table; the script goes on.
		want(t, e, `"ERR Script attempted to access a non local key in a cluster node"`, "EVAL", "return redis.pcall('get', 'foo')['err']", "0")
	}
}

// A node whose cluster state failed: a key of the unassigned slot is non local on 7.0 and "a
// slot not served" on 7.4; any other key is refused because the cluster is down.
func TestClusterScriptDown(t *testing.T) {
	for _, v := range []Version{V70, V74} {
		cl := NewCluster(ClusterOptions{Masters: 3, Port: 7000, Options: Options{Version: v}})
		e := cl.Nodes()[0]
		want(t, e, "OK", "CLUSTER", "DELSLOTS", "5000")
		unbound := "Script attempted to access a non local key in a cluster node"
		if v == V74 {
			unbound = "Script attempted to access a slot not served"
		}
		want(t, e, `"ERR `+unbound+`"`, "EVAL", "return redis.pcall('get', 'x48125')['err']", "0")
		want(t, e, `"ERR Script attempted to execute a command while the cluster is down"`, "EVAL", "return redis.pcall('get', 'bar')['err']", "0")
		want(t, e, "PONG", "EVAL", "return redis.call('ping')", "0")
	}
}
