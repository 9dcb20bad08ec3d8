package redisstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

// robotsBody is what the test sites serve at /robots.txt.
const robotsBody = "User-agent: *\nDisallow: /private\n"

// site is a loopback site that counts its robots.txt fetches.
type site struct {
	*httptest.Server
	robots atomic.Int64
}

func newSite(t *testing.T, robots string) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			s.robots.Add(1)
			_, _ = io.WriteString(w, robots)
			return
		}
		_, _ = io.WriteString(w, "ok")
	}))
	t.Cleanup(s.Close)
	return s
}

// lookup looks pageURL up with c and fails the test on an error or when
// the rules are not the test site's (/private disallowed, the rest
// allowed): no fault may make a node decide otherwise.
func lookup(t *testing.T, c *fetch.Client, pageURL string) fetch.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := c.Lookup(ctx, pageURL)
	if err != nil {
		t.Fatalf("Lookup(%q): %v", pageURL, err)
	}
	if res.Allowed("FooBot", "/private/x") || !res.Allowed("FooBot", "/public") {
		t.Fatalf("Lookup(%q): rules %v (status %d, err %v): /private is not disallowed or /public not allowed", pageURL, res.Source, res.Status, res.Err)
	}
	return res
}

// TestStore_Calls checks the Store's calls on a real Redis: a record is
// saved and loaded with its TTL, a record longer than the bound is not
// read, a key of another type is an empty record, and a lease is taken
// once and released by its token only.
func TestStore_Calls(t *testing.T) {
	srv := startRedis(t)
	rdb := srv.Client()
	st := New(rdb, Options{Prefix: "t:"})
	ctx := context.Background()
	const origin = "https://example.com"

	if b, err := st.Load(ctx, origin, 100); b != nil || err != nil {
		t.Fatalf("Load of nothing = %q, %v; want nil, nil", b, err)
	}
	if err := st.Save(ctx, origin, []byte("record"), time.Hour); err != nil {
		t.Fatal(err)
	}
	if b, err := st.Load(ctx, origin, 100); string(b) != "record" || err != nil {
		t.Errorf("Load = %q, %v; want the record", b, err)
	}
	k := "t:{" + origin + "}:record"
	if ttl := rdb.PTTL(ctx, k).Val(); ttl <= 0 || ttl > time.Hour {
		t.Errorf("the record's TTL is %v, want up to an hour", ttl)
	}
	if _, err := st.Load(ctx, origin, 5); !errors.Is(err, fetch.ErrRecordTooLarge) {
		t.Errorf("Load of a record over the bound: %v, want fetch.ErrRecordTooLarge", err)
	}
	rdb.Del(ctx, k)
	rdb.HSet(ctx, k, "a", "b")
	if b, err := st.Load(ctx, origin, 100); b == nil || len(b) != 0 || err != nil {
		t.Errorf("Load of a hash = %q, %v; want an empty record", b, err)
	}

	for i, tt := range []struct {
		token string
		want  bool
	}{{"a", true}, {"b", false}, {"a", false}} {
		if took, err := st.Lease(ctx, origin, tt.token, time.Minute); took != tt.want || err != nil {
			t.Errorf("Lease %d (%s) = %v, %v; want %v", i, tt.token, took, err, tt.want)
		}
	}
	_ = st.Release(ctx, origin, "b") // not the holder
	if took, _ := st.Lease(ctx, origin, "b", time.Minute); took {
		t.Error("a lease was released by a token that did not hold it")
	}
	_ = st.Release(ctx, origin, "a")
	if took, _ := st.Lease(ctx, origin, "b", time.Minute); !took {
		t.Error("the lease was not released by its holder")
	}
	if ttl := rdb.PTTL(ctx, "t:{"+origin+"}:lease").Val(); ttl <= 0 || ttl > time.Minute {
		t.Errorf("the lease's TTL is %v, want up to a minute", ttl)
	}
}

// TestStore_TwoClients checks that two Clients on one Redis fetch a
// robots.txt once, and that a third, after a restart of its process,
// fetches nothing.
func TestStore_TwoClients(t *testing.T) {
	srv := startRedis(t)
	s := newSite(t, robotsBody)
	st := New(srv.Client(), Options{})
	a, b := fetch.New(fetch.Options{Store: st}), fetch.New(fetch.Options{Store: st})
	if res := lookup(t, a, s.URL+"/"); res.Source != fetch.Fetched {
		t.Errorf("first node: %v, want fetched", res.Source)
	}
	if res := lookup(t, b, s.URL+"/"); res.Source != fetch.Cached || !res.Hit {
		t.Errorf("second node: %v, want cached", res.Source)
	}
	c := fetch.New(fetch.Options{Store: New(srv.Client(), Options{})})
	lookup(t, c, s.URL+"/")
	if n := s.robots.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times, want 1", n)
	}
	if k := srv.Client().Keys(context.Background(), DefaultPrefix+"{"+s.URL+"}:*").Val(); len(k) != 1 {
		t.Errorf("keys %q, want the record alone (the lease released)", k)
	}
}

// TestFault_RedisDown checks that with Redis killed, a node fetches and
// decides on its own, counts the failure, and does not call Redis again
// for a while.
func TestFault_RedisDown(t *testing.T) {
	srv := startRedis(t)
	s1, s2 := newSite(t, robotsBody), newSite(t, robotsBody)
	c := fetch.New(fetch.Options{Store: New(srv.Client(), Options{})})
	srv.Kill()
	lookup(t, c, s1.URL+"/")
	lookup(t, c, s2.URL+"/")
	if st := c.Stats(); st.StoreErrors != 1 || st.Fetches != 2 {
		t.Errorf("Stats = %+v, want 1 store error and 2 fetches", st)
	}
}

// TestFault_RedisStuck checks that a Redis that answers nothing (stopped
// with SIGSTOP) holds a lookup for the store's Timeout only, also on a
// client made without ContextTimeoutEnabled; the lookup is then decided on
// the node's own fetch.
func TestFault_RedisStuck(t *testing.T) {
	srv := startRedis(t)
	s := newSite(t, robotsBody)
	rdb := redis.NewClient(&redis.Options{Addr: srv.addr}) // go-redis' default: a 5 s ReadTimeout
	t.Cleanup(func() { rdb.Close() })
	c := fetch.New(fetch.Options{Store: New(rdb, Options{Timeout: 50 * time.Millisecond})})
	rdb.Ping(context.Background()) // a connection in the pool
	srv.Stop()
	defer srv.Cont()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second) // under the ReadTimeout
	defer cancel()
	res, err := c.Lookup(ctx, s.URL+"/")
	if err != nil {
		t.Fatalf("Lookup with Redis stuck: %v", err)
	}
	if res.Source != fetch.Fetched || res.Allowed("FooBot", "/private/x") {
		t.Errorf("Lookup = %v, want the node's own fetch", res.Source)
	}
	if st := c.Stats(); st.StoreErrors != 1 {
		t.Errorf("Stats = %+v, want 1 store error", st)
	}
}

// TestFault_RedisRestartedEmpty checks that after Redis restarts empty
// (no records, no scripts) the nodes reconnect by themselves: a lookup
// fetches again and the store has its record again.
func TestFault_RedisRestartedEmpty(t *testing.T) {
	srv := startRedis(t)
	s := newSite(t, robotsBody)
	rdb := srv.Client()
	c := fetch.New(fetch.Options{Store: New(rdb, Options{}), TTL: time.Minute})
	lookup(t, c, s.URL+"/")
	srv.Restart()

	// A new node (an empty cache) after the restart: it finds no record.
	// Its first call may meet a connection of the old server; within a
	// few seconds it saves again.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for i := 0; ; i++ {
		d := fetch.New(fetch.Options{Store: New(rdb, Options{})})
		lookup(t, d, s.URL+"/")
		if d.Stats().StoreSaves == 1 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no record saved after the restart: %+v", d.Stats())
		case <-time.After(200 * time.Millisecond):
		}
	}
	if n := rdb.Exists(context.Background(), DefaultPrefix+"{"+s.URL+"}:record").Val(); n != 1 {
		t.Error("the restarted Redis has no record")
	}
}

// reversion returns the record b as a release of format version v would
// write it: the format (engine/fetch's record.go) is "RTXR", a version
// byte, fields, and a CRC-32C of what comes before it.
func reversion(b []byte, v byte) []byte {
	b = bytes.Clone(b[:len(b)-4])
	b[4] = v
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
}

// TestFault_BadRecords checks that a record that is corrupt, too large, or
// of another format version, put in Redis, is ignored: the node fetches,
// decides by what it fetched, counts it, and saves a good record over it.
func TestFault_BadRecords(t *testing.T) {
	srv := startRedis(t)
	rdb := srv.Client()
	s := newSite(t, robotsBody)
	ctx := context.Background()
	k := DefaultPrefix + "{" + s.URL + "}:record"
	lookup(t, fetch.New(fetch.Options{Store: New(rdb, Options{})}), s.URL+"/")
	good, err := rdb.Get(ctx, k).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		record []byte
	}{
		{"garbage", []byte("User-agent: *\nAllow: /\n")},
		{"cut-short", good[:len(good)/2]},
		{"oversized", bytes.Repeat([]byte("x"), 2<<20)},
		{"other-version", reversion(good, 2)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rdb.Set(ctx, k, tt.record, time.Hour)
			before := s.robots.Load()
			c := fetch.New(fetch.Options{Store: New(rdb, Options{})})
			if res := lookup(t, c, s.URL+"/"); res.Source != fetch.Fetched {
				t.Errorf("Source = %v, want fetched", res.Source)
			}
			if st := c.Stats(); st.StoreRejected == 0 || st.StoreErrors != 0 || st.StoreSaves != 1 {
				t.Errorf("Stats = %+v, want the record rejected and replaced", st)
			}
			if n := s.robots.Load() - before; n != 1 {
				t.Errorf("robots.txt fetched %d times, want 1", n)
			}
			if b, _ := rdb.Get(ctx, k).Bytes(); !strings.HasPrefix(string(b), "RTXR\x01") {
				t.Errorf("the record was not replaced: %.20q", b)
			}
		})
	}
}

// TestClose_ReleasesLeases: a node closed while it holds a site's lease
// (its robots.txt fetch in flight, on a slow server) releases it, and its
// store calls end, without waiting for their time-outs: the node waiting
// for the lease takes it at once and fetches, though its Timeout (the
// bound of its wait) is long.
func TestClose_ReleasesLeases(t *testing.T) {
	srv := startRedis(t)
	var robots atomic.Int64
	first := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if robots.Add(1) == 1 { // the first fetch hangs until its client gives up
			close(first)
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		_, _ = io.WriteString(w, robotsBody)
	}))
	defer site.Close()
	const timeout = 10 * time.Second
	st := New(srv.Client(), Options{})
	a := fetch.New(fetch.Options{Store: st, Timeout: timeout})
	b := fetch.New(fetch.Options{Store: st, Timeout: timeout})
	defer b.Close()

	errA := make(chan error, 1)
	go func() {
		_, err := a.Lookup(context.Background(), site.URL+"/")
		errA <- err
	}()
	<-first // a holds the lease and fetches
	lease := srv.Client().Get(context.Background(), DefaultPrefix+"{"+site.URL+"}:lease")
	if lease.Err() != nil {
		t.Fatalf("no lease while the first node fetches: %v", lease.Err())
	}
	resB := make(chan fetch.Result, 1)
	go func() {
		res, err := b.Lookup(context.Background(), site.URL+"/")
		if err != nil {
			res.Source = fetch.NoSource
		}
		resB <- res
	}()
	for b.Stats().StoreWaits == 0 { // b found the lease taken and waits for it
		time.Sleep(5 * time.Millisecond)
	}

	start := time.Now()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	closed := time.Since(start)
	if err := <-errA; !errors.Is(err, fetch.ErrClosed) {
		t.Errorf("the closed node's lookup: %v, want ErrClosed", err)
	}
	// The waiting node may take the lease the moment it is released, so the
	// key may exist again: what must be gone is the closed node's token.
	held, err := srv.Client().Get(context.Background(), DefaultPrefix+"{"+site.URL+"}:lease").Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		t.Fatal(err)
	}
	if held == lease.Val() {
		t.Errorf("after Close the closed node's lease %q is still held", held)
	}
	select {
	case res := <-resB:
		waited := time.Since(start)
		t.Logf("Close took %v; the waiting node had its answer %v after it (%v, Timeout %v)", closed, waited, res.Source, timeout)
		if res.Source != fetch.Fetched || waited > timeout/4 {
			t.Errorf("the waiting node: %v after %v; want fetched, well before its Timeout %v", res.Source, waited, timeout)
		}
	case <-time.After(timeout / 2):
		t.Fatalf("the waiting node still waits %v after the holder closed", timeout/2)
	}
	if closed > time.Second {
		t.Errorf("Close took %v", closed)
	}
	if n := robots.Load(); n != 2 {
		t.Errorf("robots.txt fetched %d times, want 2 (the closed node's, the waiting node's)", n)
	}
}
