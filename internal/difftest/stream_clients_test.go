package difftest

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestGoRedisStreams runs the course's stream queue through go-redis v9 against redis-server
// 7.0.15 (which speaks RESP3 to it) and against redscope (RESP2 after HELLO 3 is refused): what
// go-redis decodes must be the same, apart from idle times and delivery timestamps, which read
// each server's clock.
func TestGoRedisStreams(t *testing.T) {
	sv := freshServers(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run := func(addr string) map[string]any {
		rdb := redis.NewClient(&redis.Options{Addr: addr})
		defer rdb.Close()
		out := map[string]any{}
		note := func(name string, v any, err error) {
			if err != nil {
				out[name] = "error: " + err.Error()
			} else {
				out[name] = v
			}
		}
		v0, err := rdb.XGroupCreateMkStream(ctx, "jobs", "workers", "$").Result()
		note("xgroup create", v0, err)
		for i, id := range []string{"1700000000000-0", "1700000000000-1", "1700000000001-0"} {
			v, err := rdb.XAdd(ctx, &redis.XAddArgs{Stream: "jobs", ID: id, Values: []string{"task", "resize", "n", string(rune('1' + i))}}).Result()
			note("xadd "+id, v, err)
		}
		v1, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "workers", Consumer: "w1", Streams: []string{"jobs", ">"}, Count: 2}).Result()
		note("xreadgroup w1", v1, err)
		v2, err := rdb.XAck(ctx, "jobs", "workers", "1700000000000-0").Result()
		note("xack", v2, err)
		v3, err := rdb.XPending(ctx, "jobs", "workers").Result()
		note("xpending", v3, err)
		ext, err := rdb.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: "jobs", Group: "workers", Start: "-", End: "+", Count: 10}).Result()
		for i := range ext {
			ext[i].Idle = 0
		}
		note("xpending ext", ext, err)
		msgs, start, err := rdb.XAutoClaim(ctx, &redis.XAutoClaimArgs{Stream: "jobs", Group: "workers", Consumer: "w2", MinIdle: 0, Start: "0-0", Count: 10}).Result()
		note("xautoclaim", []any{msgs, start}, err)
		v4, err := rdb.XClaimJustID(ctx, &redis.XClaimArgs{Stream: "jobs", Group: "workers", Consumer: "w1", MinIdle: 0, Messages: []string{"1700000000000-1"}}).Result()
		note("xclaim justid", v4, err)
		v5, err := rdb.XRange(ctx, "jobs", "-", "+").Result()
		note("xrange", v5, err)
		v6, err := rdb.XRevRangeN(ctx, "jobs", "+", "-", 1).Result()
		note("xrevrange", v6, err)
		v7, err := rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{"jobs", "0"}, Count: 1}).Result()
		note("xread", v7, err)
		v8, err := rdb.XInfoStream(ctx, "jobs").Result()
		note("xinfo stream", v8, err)
		v9, err := rdb.XInfoGroups(ctx, "jobs").Result()
		note("xinfo groups", v9, err)
		cons, err := rdb.XInfoConsumers(ctx, "jobs", "workers").Result()
		for i := range cons {
			cons[i].Idle = 0
		}
		note("xinfo consumers", cons, err)
		v10, err := rdb.XDel(ctx, "jobs", "1700000000000-0", "9-9").Result()
		note("xdel", v10, err)
		v11, err := rdb.XTrimMaxLen(ctx, "jobs", 1).Result()
		note("xtrim", v11, err)
		v12, err := rdb.XLen(ctx, "jobs").Result()
		note("xlen", v12, err)
		v13, err := rdb.MemoryUsage(ctx, "jobs").Result()
		note("memory usage", v13, err)
		_, err = rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "nogroup", Consumer: "w1", Streams: []string{"jobs", ">"}}).Result()
		note("xreadgroup nogroup", nil, err)
		return out
	}
	want, got := run(sv.ref), run(sv.scope)
	for k, w := range want {
		if g := got[k]; !reflect.DeepEqual(w, g) {
			t.Errorf("%s:\n redis-server: %#v\n redscope:     %#v", k, w, g)
		}
	}
	if len(want) != 21 || len(got) != len(want) {
		t.Errorf("%d results from redis-server, %d from redscope", len(want), len(got))
	}
}
