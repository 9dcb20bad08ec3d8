package redisstore

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

// clusterSlots is the number of hash slots of a Redis Cluster.
const clusterSlots = 16384

// clusterNodeTimeout is the cluster-node-timeout of the test clusters: a
// master that does not answer for that long is failing, and the cluster
// refuses every call (cluster-require-full-coverage, the default) until
// it is back.
const clusterNodeTimeout = time.Second

// clusterReadyTimeout bounds how long a test waits for a cluster to be
// ready, at its start or after a master restarted: the others clear the
// master's failure within a few node timeouts.
const clusterReadyTimeout = 30 * time.Second

// redisCluster is a Redis Cluster of three masters without replicas that a
// test started on free loopback ports, each without persistence but with
// its cluster configuration, so that a master restarted rejoins with its
// slots, empty. Cleanup kills them.
type redisCluster struct {
	t      *testing.T
	nodes  []*redisServer
	killed int // the node that KillFor killed
}

// startCluster starts a cluster for t, or skips t (fails it, with
// ROBOTSTXT_REQUIRE_REDIS=1) when redis-server is not installed. It
// returns once every node reports the cluster ok.
func startCluster(t *testing.T) *redisCluster {
	t.Helper()
	path := redisPath(t)
	c := &redisCluster{t: t}
	for range 3 {
		c.nodes = append(c.nodes, newRedisServer(t, path, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", strconv.Itoa(int(clusterNodeTimeout.Milliseconds()))))
	}
	ctx, cancel := context.WithTimeout(context.Background(), clusterReadyTimeout)
	defer cancel()
	for i, s := range c.nodes {
		rdb := redis.NewClient(&redis.Options{Addr: s.addr})
		err := rdb.ClusterAddSlotsRange(ctx, i*clusterSlots/len(c.nodes), (i+1)*clusterSlots/len(c.nodes)-1).Err()
		if err == nil && i > 0 {
			host, port, _ := net.SplitHostPort(c.nodes[0].addr)
			err = rdb.ClusterMeet(ctx, host, port).Err()
		}
		rdb.Close()
		if err != nil {
			t.Fatalf("cluster node %s: %v", s.addr, err)
		}
	}
	c.waitReady()
	return c
}

// Addrs returns the addresses of the nodes.
func (c *redisCluster) Addrs() []string {
	var addrs []string
	for _, s := range c.nodes {
		addrs = append(addrs, s.addr)
	}
	return addrs
}

// waitReady waits until every node reports the cluster ok with all three
// masters, and a key of each master's slots can be written through a
// cluster client.
func (c *redisCluster) waitReady() {
	c.t.Helper()
	deadline := time.Now().Add(clusterReadyTimeout)
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs(), MaxRedirects: 8})
	defer rdb.Close()
	var last error
	for time.Now().Before(deadline) {
		if last = c.ready(rdb); last == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.t.Fatalf("the cluster was not ready within %v: %v", clusterReadyTimeout, last)
}

// ready returns why the cluster is not ready, or nil.
func (c *redisCluster) ready(rdb *redis.ClusterClient) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for _, s := range c.nodes {
		node := redis.NewClient(&redis.Options{Addr: s.addr})
		info, err := node.ClusterInfo(ctx).Result()
		node.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", s.addr, err)
		}
		if !strings.Contains(info, "cluster_state:ok") || !strings.Contains(info, "cluster_known_nodes:3") {
			return fmt.Errorf("%s: %q", s.addr, info)
		}
	}
	rdb.ReloadState(ctx)
	// One key in the slots of each master (the hash tags {0}, {1}, {3}
	// are in slots 13907, 9842 and 1584, of masters 2, 1 and 0).
	for _, tag := range []string{"{0}", "{1}", "{3}"} {
		if err := rdb.Set(ctx, "ready"+tag, "1", time.Second).Err(); err != nil {
			return fmt.Errorf("a key %s: %w", tag, err)
		}
	}
	return nil
}

// Client returns a cluster client, closed by Cleanup, that bounds each
// call by its context.
func (c *redisCluster) Client() *redis.ClusterClient {
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs(), ContextTimeoutEnabled: true})
	c.t.Cleanup(func() { rdb.Close() })
	return rdb
}

// KillFor kills the master that holds the keys of origin (those of the
// fleet tests' prefix), as a crash would: the calls for its slots fail at
// once, and the cluster refuses every call once the others find it
// failing.
func (c *redisCluster) KillFor(origin string) {
	c.t.Helper()
	slot, err := c.Client().ClusterKeySlot(context.Background(), key("fleet:", origin, "pace")).Result()
	if err != nil { // called from a goroutine of the test's: no Fatal
		c.t.Errorf("the slot of %s: %v; killing the first master", origin, err)
	}
	c.killed = c.master(slot)
	c.nodes[c.killed].Kill()
}

// Whole reports false: a master is not the whole cluster.
func (c *redisCluster) Whole() bool { return false }

// master returns the node that holds slot (startCluster gave each an equal
// range of the slots, in order).
func (c *redisCluster) master(slot int64) int {
	for i := range c.nodes {
		if slot <= int64((i+1)*clusterSlots/len(c.nodes)-1) {
			return i
		}
	}
	return len(c.nodes) - 1
}

// RestartKilled restarts the master KillFor killed, empty, and waits until
// the cluster is ready again.
func (c *redisCluster) RestartKilled() {
	c.t.Helper()
	c.nodes[c.killed].Restart()
	c.waitReady()
}

// Keys returns the keys that match pattern on every master.
func (c *redisCluster) Keys(pattern string) []string {
	var keys []string
	for _, s := range c.nodes {
		keys = append(keys, s.Client().Keys(context.Background(), pattern).Val()...)
	}
	return keys
}

// TestCluster_StoreAndPacer: the Store and the Pacer on a Redis Cluster,
// through redis.NewClusterClient: the keys of one origin share a hash slot
// (each call's keys are one slot's, as a cluster requires, and the
// origins spread over the masters), two nodes fetch each robots.txt once
// between them, and the pacer's turns keep the crawl-delay.
func TestCluster_StoreAndPacer(t *testing.T) {
	cl := startCluster(t)
	var rdb redis.UniversalClient = cl.Client()
	ctx := context.Background()
	var sites []*site
	for range 6 {
		sites = append(sites, newSite(t, robotsBody))
	}
	st := New(rdb, Options{})
	a, b := fetch.New(fetch.Options{Store: st}), fetch.New(fetch.Options{Store: st})
	defer a.Close()
	defer b.Close()
	for _, s := range sites {
		if res := lookup(t, a, s.URL+"/"); res.Source != fetch.Fetched {
			t.Errorf("first node: %v, want fetched", res.Source)
		}
		if res := lookup(t, b, s.URL+"/"); res.Source != fetch.Cached {
			t.Errorf("second node: %v, want cached", res.Source)
		}
		if n := s.robots.Load(); n != 1 {
			t.Errorf("%s: robots.txt fetched %d times, want 1", s.URL, n)
		}
	}
	p := NewPacer(rdb, Options{})
	const delay = 50 * time.Millisecond
	origin := sites[0].URL
	start := time.Now()
	for range 3 {
		if err := p.Wait(ctx, origin, delay); err != nil {
			t.Fatal(err)
		}
	}
	if el := time.Since(start); el < 2*delay {
		t.Errorf("three turns in %v, less than two crawl-delays of %v", el, delay)
	}
	masters := map[int]bool{}
	for _, s := range sites {
		var slots []int64
		for _, what := range []string{"record", "lease", "pace"} {
			slot, err := rdb.ClusterKeySlot(ctx, key(DefaultPrefix, s.URL, what)).Result()
			if err != nil {
				t.Fatal(err)
			}
			slots = append(slots, slot)
		}
		if slots[0] != slots[1] || slots[1] != slots[2] {
			t.Errorf("%s: its keys are in slots %v, not one", s.URL, slots)
		}
		masters[cl.master(slots[0])] = true
	}
	t.Logf("%d sites' keys on %d of %d masters", len(sites), len(masters), len(cl.nodes))
	if ps := p.Stats(); ps.Unavailable != 0 || ps.Reserved != 3 {
		t.Errorf("PacerStats %+v", ps)
	}
	if sa, sb := a.Stats(), b.Stats(); sa.StoreErrors+sb.StoreErrors != 0 {
		t.Errorf("store errors: %+v, %+v", sa, sb)
	}
}
