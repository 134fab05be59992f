package difftest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// testGoRedisCluster drives the redscope cluster with go-redis's ClusterClient, which loads the
// slot map (CLUSTER SLOTS), sends each command to the node of its slot and follows MOVED.
func testGoRedisCluster(t *testing.T, scope *clusterSide, keys []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{scope.addr(0)}, Protocol: 2,
		MaxRedirects: 3, DisableIdentity: true})
	defer c.Close()
	for i, k := range keys[:100] {
		if got, err := c.Get(ctx, k).Result(); err != nil || got != "v" {
			t.Fatalf("ClusterClient GET %s: %q %v", k, got, err)
		}
		if err := c.Set(ctx, k, fmt.Sprint(i), 0).Err(); err != nil {
			t.Fatalf("ClusterClient SET %s: %v", k, err)
		}
	}
	// A hash-tagged multi-key command runs on one node; MSET across slots is refused as Redis
	// refuses it.
	if err := c.MSet(ctx, "{user:1}:name", "alice", "{user:1}:visits", "1").Err(); err != nil {
		t.Fatalf("MSET with a hash tag: %v", err)
	}
	if got, err := c.MGet(ctx, "{user:1}:name", "{user:1}:visits").Result(); err != nil || len(got) != 2 || got[0] != "alice" {
		t.Fatalf("MGET with a hash tag: %v %v", got, err)
	}
	if err := c.MSet(ctx, "a", "1", "b", "2").Err(); err == nil || err.Error() != "CROSSSLOT Keys in request don't hash to the same slot" {
		t.Errorf("MSET across slots: %v", err)
	}
	var n atomic.Int64 // ForEachMaster runs the function on every master at once
	if err := c.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		size, err := m.DBSize(ctx).Result()
		n.Add(size)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n.Load() < 100 {
		t.Errorf("ForEachMaster DBSIZE sum %d", n.Load())
	}
	// A pipeline spanning every node.
	p := c.Pipeline()
	cmds := make([]*redis.StringCmd, 50)
	for i := range cmds {
		cmds[i] = p.Get(ctx, keys[i])
	}
	if _, err := p.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	for i, cmd := range cmds {
		if cmd.Val() != fmt.Sprint(i) {
			t.Errorf("pipeline GET %s: %q", keys[i], cmd.Val())
		}
	}
}
