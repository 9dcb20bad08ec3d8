package fetch

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

// memStore is a Store in memory, for the tests of this package (the real
// ones, on Redis and bbolt, are tested in their own modules). Its TTLs run
// on the real clock. fail makes every call fail; block makes every call
// wait until its context ends.
type memStore struct {
	mu      sync.Mutex
	records map[string][]byte
	leases  map[string]memLease
	calls   atomic.Int64
	fail    atomic.Bool
	block   atomic.Bool
}

type memLease struct {
	token string
	until time.Time
}

func newMemStore() *memStore {
	return &memStore{records: map[string][]byte{}, leases: map[string]memLease{}}
}

var errStoreDown = errors.New("memStore: down")

func (m *memStore) enter(ctx context.Context) error {
	m.calls.Add(1)
	if m.block.Load() {
		<-ctx.Done()
		return ctx.Err()
	}
	if m.fail.Load() {
		return errStoreDown
	}
	return nil
}

func (m *memStore) Load(ctx context.Context, key string, max int) ([]byte, error) {
	if err := m.enter(ctx); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.records[key]
	if len(b) > max {
		return nil, ErrRecordTooLarge
	}
	return bytes.Clone(b), nil
}

func (m *memStore) Save(ctx context.Context, key string, record []byte, ttl time.Duration) error {
	if err := m.enter(ctx); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.records[key] = bytes.Clone(record)
	return nil
}

func (m *memStore) Lease(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	if err := m.enter(ctx); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if l, ok := m.leases[key]; ok && time.Now().Before(l.until) {
		return false, nil
	}
	m.leases[key] = memLease{token, time.Now().Add(ttl)}
	return true, nil
}

func (m *memStore) Release(ctx context.Context, key, token string) error {
	if err := m.enter(ctx); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.leases[key].token == token {
		delete(m.leases, key)
	}
	return nil
}

// set replaces the record of key, as another node (or a fault) would.
func (m *memStore) set(key string, b []byte) {
	m.mu.Lock()
	m.records[key] = b
	m.mu.Unlock()
}

func (m *memStore) get(key string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.records[key]
}

// TestStore_OneFetchForTwoNodes checks that two Clients sharing a Store
// fetch a robots.txt once: the second answers from the record the first
// saved, with the same rules.
func TestStore_OneFetchForTwoNodes(t *testing.T) {
	s := newServer(t, serveRobots(200, robotsBody))
	store := newMemStore()
	a, b := New(Options{Store: store}), New(Options{Store: store})
	wantSource(t, lookup(t, a, s.URL+"/"), Fetched)
	res := lookup(t, b, s.URL+"/x")
	wantSource(t, res, Cached)
	if !res.Hit || res.Status != 200 || res.RobotsURL != s.URL+"/robots.txt" || res.Size != len(robotsBody) {
		t.Errorf("Result from the store = %+v", res)
	}
	wantAllowed(t, res, map[string]bool{"/private/x": false, "/public": true})
	if n := s.requests.Load(); n != 1 {
		t.Errorf("the server saw %d requests, want 1", n)
	}
	if st := b.Stats(); st.StoreHits != 1 || st.Fetches != 0 || st.Misses != 1 {
		t.Errorf("second node's Stats = %+v, want one store hit and no fetch", st)
	}
	if st := a.Stats(); st.StoreSaves != 1 || st.StoreErrors != 0 {
		t.Errorf("first node's Stats = %+v, want one save", st)
	}
}

// TestStore_HitDoesNotCallStore checks that a fresh entry answers without
// calling the Store, and that a cache hit allocates nothing with a Store
// configured (as TestAllowed_NoAlloc without).
func TestStore_HitDoesNotCallStore(t *testing.T) {
	s := newServer(t, serveRobots(200, robotsBody))
	store := newMemStore()
	c := New(Options{Store: store})
	ctx := context.Background()
	u := s.URL + "/private/page?q=1"
	if ok, _, err := c.Allowed(ctx, "ExampleBot", u); ok || err != nil {
		t.Fatalf("Allowed = %v, %v", ok, err)
	}
	calls := store.calls.Load()
	allocs := testing.AllocsPerRun(100, func() {
		_, _, _ = c.Allowed(ctx, "ExampleBot", u)
	})
	if allocs != 0 {
		t.Errorf("Allowed on a cache hit with a Store: %v allocations, want 0", allocs)
	}
	if n := store.calls.Load() - calls; n != 0 {
		t.Errorf("%d Store calls on cache hits, want 0", n)
	}
}

// TestStore_Restart checks that a node that restarts (a new Client on the
// same Store) fetches nothing the Store has, and that a Stale copy and the
// 30-day rule carry over (docs/SEMANTICS.md section 5.3): the record keeps
// the last fetched copy and when the site last answered.
func TestStore_Restart(t *testing.T) {
	h, s := newSwitchable(t, 200, robotsBody)
	clk := newClock()
	store := newMemStore()
	a := New(Options{Store: store, Now: clk.Now})
	t0 := clk.Now()
	wantSource(t, lookup(t, a, s.URL+"/"), Fetched)
	a.Close()

	b := New(Options{Store: store, Now: clk.Now})
	wantSource(t, lookup(t, b, s.URL+"/"), Cached)
	b.Close()

	// After a day the site is down: the restarted node uses the copy
	// fetched before its restart.
	h.set(503, "")
	clk.Advance(DefaultTTL + time.Second)
	c := New(Options{Store: store, Now: clk.Now})
	res := lookup(t, c, s.URL+"/")
	wantSource(t, res, Stale)
	if !res.Fetched.Equal(t0) || res.Status != 503 {
		t.Errorf("Stale result: Fetched %v, Status %d; want %v, 503", res.Fetched, res.Status, t0)
	}
	wantAllowed(t, res, map[string]bool{"/private/x": false, "/public": true})
	c.Close()

	// 30 days after the copy was fetched, with the site still down, a
	// further restart allows all (the copy ran out, the site last answered
	// then).
	clk.Advance(DefaultMaxStale)
	d := New(Options{Store: store, Now: clk.Now})
	res = lookup(t, d, s.URL+"/")
	wantSource(t, res, UnavailableDefault)
	if got := s.requests.Load(); got != 3 {
		t.Errorf("the server saw %d requests, want 3", got)
	}
}

// TestStore_LeaseWait checks single flight across nodes: while another
// node holds an origin's lease, a node waits for its record instead of
// fetching.
func TestStore_LeaseWait(t *testing.T) {
	s := newServer(t, serveRobots(200, robotsBody))
	store := newMemStore()
	key := s.URL
	if ok, _ := store.Lease(context.Background(), key, "other-node", time.Minute); !ok {
		t.Fatal("could not take the lease")
	}
	b := New(Options{Store: store})
	done := make(chan Result)
	go func() {
		res, err := b.Lookup(context.Background(), s.URL+"/")
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
	defer cancel()
	for b.Stats().StoreWaits == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("the node did not wait for the lease")
		case <-time.After(time.Millisecond):
		}
	}
	// The other node fetches and saves (its store ignores leases), then
	// releases.
	other := New(Options{Store: &memStoreNoLease{store}})
	wantSource(t, lookup(t, other, s.URL+"/"), Fetched)
	_ = store.Release(context.Background(), key, "other-node")

	res := <-done
	wantSource(t, res, Cached)
	if st := b.Stats(); st.Fetches != 0 || st.StoreHits != 1 || st.StoreWaits != 1 {
		t.Errorf("waiting node's Stats = %+v, want no fetch, one wait, one store hit", st)
	}
	if n := s.requests.Load(); n != 1 {
		t.Errorf("the server saw %d requests, want 1", n)
	}
}

// memStoreNoLease is a memStore whose leases always succeed.
type memStoreNoLease struct{ *memStore }

func (m *memStoreNoLease) Lease(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	return true, m.enter(ctx)
}

// TestStore_LeaseHolderDies checks that a node waits for a lease held by a
// node that never saves for at most its fetch Timeout, then fetches.
func TestStore_LeaseHolderDies(t *testing.T) {
	s := newServer(t, serveRobots(200, robotsBody))
	store := newMemStore()
	_, _ = store.Lease(context.Background(), s.URL, "dead-node", time.Hour)
	c := New(Options{Store: store, Timeout: 100 * time.Millisecond})
	res := lookup(t, c, s.URL+"/")
	wantSource(t, res, Fetched)
	if st := c.Stats(); st.StoreWaits != 1 || st.Fetches != 1 || st.StoreSaves != 1 {
		t.Errorf("Stats = %+v, want one wait, one fetch, one save", st)
	}
}

// TestStore_Down checks that a node whose Store fails fetches and decides
// on its own, counts the failure, and leaves the Store alone for a while.
func TestStore_Down(t *testing.T) {
	s := newServer(t, serveRobots(200, robotsBody))
	base := routingTransport(s.Listener.Addr().String())
	t.Cleanup(base.CloseIdleConnections)
	store := newMemStore()
	store.fail.Store(true)
	c := New(Options{Store: store, HTTPClient: &http.Client{Transport: base}})
	for _, host := range []string{"a.test", "b.test", "c.test"} {
		res := lookup(t, c, "http://"+host+"/")
		wantSource(t, res, Fetched)
		wantAllowed(t, res, map[string]bool{"/private/x": false, "/public": true})
	}
	if st := c.Stats(); st.StoreErrors != 1 || st.Fetches != 3 {
		t.Errorf("Stats = %+v, want 1 store error (then the store is left alone) and 3 fetches", st)
	}
	if n := store.calls.Load(); n != 1 {
		t.Errorf("%d calls to a failed store, want 1", n)
	}
}

// TestStore_Slow checks that a Store that does not answer delays a lookup
// by StoreTimeout at most: the lookup is answered within its deadline.
func TestStore_Slow(t *testing.T) {
	s := newServer(t, serveRobots(200, robotsBody))
	store := newMemStore()
	store.block.Store(true)
	c := New(Options{Store: store, StoreTimeout: 20 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
	defer cancel()
	res, err := c.Lookup(ctx, s.URL+"/")
	if err != nil {
		t.Fatalf("Lookup with a Store that does not answer: %v", err)
	}
	wantSource(t, res, Fetched)
	if st := c.Stats(); st.StoreErrors != 1 {
		t.Errorf("Stats = %+v, want 1 store error", st)
	}
}

// record returns a valid record for origin, as a Client of opts saves it
// after fetching body.
func testRecord(t *testing.T, origin, body string, opts Options) []byte {
	t.Helper()
	s := newServer(t, serveRobots(200, body))
	store := newMemStore()
	opts.Store = store
	c := New(opts)
	lookup(t, c, s.URL+"/")
	b := store.get(s.URL)
	if b == nil {
		t.Fatal("no record saved")
	}
	rec, err := decodeRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	rec.fileURL = origin + robotsPath
	return encodeRecord(rec)
}

// reframe returns b with its version byte set to v and a valid checksum:
// a record of another release.
func reframe(b []byte, v byte) []byte {
	b = bytes.Clone(b[:len(b)-4])
	b[len(recordMagic)] = v
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, crc32c))
}

// TestStore_BadRecords checks that a record that fails the checks is
// ignored and never decides: the node fetches (the site disallows
// /private), counts the record, and saves a good one over it.
func TestStore_BadRecords(t *testing.T) {
	s := newServer(t, serveRobots(200, robotsBody))
	good := testRecord(t, s.URL, robotsBody, Options{})
	// A record that allows all (the site's robots.txt was a 404), which a
	// damaged record must never turn into.
	allowAll := func() []byte {
		rec, _ := decodeRecord(good)
		rec.source, rec.status, rec.hasGood, rec.body = UnavailableDefault, 404, false, nil
		return encodeRecord(rec)
	}()
	flip := bytes.Clone(allowAll)
	flip[len(flip)/2] ^= 0x20
	edit := func(f func(*record)) []byte {
		rec, err := decodeRecord(good)
		if err != nil {
			t.Fatal(err)
		}
		f(rec)
		return encodeRecord(rec)
	}
	tests := []struct {
		name   string
		record []byte
	}{
		{"garbage", []byte("not a record at all")},
		{"empty", []byte{}},
		{"cut-short", allowAll[:len(allowAll)-7]},
		{"bit-flipped", flip},
		{"other-version", reframe(allowAll, recordVersion+1)},
		{"too-large", append(bytes.Repeat([]byte{'x'}, 600<<10), good...)},
		{"other-semantics", edit(func(r *record) { r.semantics = engine.Google })},
		{"other-origin", edit(func(r *record) { r.fileURL = "http://elsewhere.test/robots.txt" })},
		{"fetched-without-copy", edit(func(r *record) { r.hasGood, r.body = false, nil })},
		{"forbidden-in-rfc9309", edit(func(r *record) { r.source = ForbiddenDefault })},
		{"unknown-source", edit(func(r *record) { r.source = Source(99) })},
		{"no-expiry", edit(func(r *record) { r.expires = time.Time{} })},
		{"long-error", edit(func(r *record) { r.err = strings.Repeat("e", MaxErrorLength+1) })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := newMemStore()
			store.set(s.URL, tt.record)
			before := s.requests.Load()
			c := New(Options{Store: store})
			res := lookup(t, c, s.URL+"/")
			wantSource(t, res, Fetched)
			wantAllowed(t, res, map[string]bool{"/private/x": false, "/public": true})
			// Read twice: before the lease and after it was taken.
			if st := c.Stats(); st.StoreRejected != 2 || st.StoreHits != 0 || st.StoreErrors != 0 {
				t.Errorf("Stats = %+v, want the record rejected twice", st)
			}
			if n := s.requests.Load() - before; n != 1 {
				t.Errorf("the server saw %d requests, want 1", n)
			}
			if _, err := decodeRecord(store.get(s.URL)); err != nil {
				t.Errorf("the bad record was not replaced: %v", err)
			}
		})
	}

	// The same allow-all record, intact, is used: the checks reject what
	// is damaged, not what allows.
	store := newMemStore()
	store.set(s.URL, allowAll)
	res := lookup(t, New(Options{Store: store}), s.URL+"/")
	wantSource(t, res, UnavailableDefault)
}

// TestRecord_LaterFieldsSkipped checks the format's promise to the next
// release: a record with a field this release does not know is read, the
// field skipped.
func TestRecord_LaterFieldsSkipped(t *testing.T) {
	good := testRecord(t, "http://a.test", robotsBody, Options{})
	b := bytes.Clone(good[:len(good)-4])
	b = binary.AppendUvarint(b, 99)
	b = binary.AppendUvarint(b, 3)
	b = append(b, "new"...)
	b = binary.BigEndian.AppendUint32(b, crc32.Checksum(b, crc32c))
	rec, err := decodeRecord(b)
	if err != nil {
		t.Fatalf("a record with a later field: %v", err)
	}
	want, _ := decodeRecord(good)
	if !bytes.Equal(encodeRecord(rec), encodeRecord(want)) {
		t.Error("the record read differs from the one without the later field")
	}
}

// TestRFC9110_Revalidation checks conditional fetches (RFC 9110 sections
// 13.1.1 and 13.1.3; RFC 9111 section 4.3.4): an expired copy with an ETag
// or a Last-Modified is fetched with If-None-Match or If-Modified-Since,
// and a 304 renews it, rules and all, without downloading it.
func TestRFC9110_Revalidation(t *testing.T) {
	const lastMod = "Mon, 01 Jan 2024 00:00:00 GMT"
	for _, tt := range []struct {
		name, header, value, cond string
	}{
		{"etag", "ETag", `"v1"`, "If-None-Match"},
		{"last-modified", "Last-Modified", lastMod, "If-Modified-Since"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var conds atomic.Int64
			s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get(tt.cond) == tt.value {
					conds.Add(1)
					w.Header().Set("Cache-Control", "max-age=7200")
					w.WriteHeader(http.StatusNotModified)
					return
				}
				w.Header().Set(tt.header, tt.value)
				_, _ = w.Write([]byte(robotsBody))
			})
			clk := newClock()
			c := New(Options{Now: clk.Now})
			first := lookup(t, c, s.URL+"/")
			wantSource(t, first, Fetched)
			clk.Advance(DefaultTTL)
			res := lookup(t, c, s.URL+"/")
			wantSource(t, res, Fetched)
			if res.Status != http.StatusNotModified || res.Robots != first.Robots || res.Size != len(robotsBody) {
				t.Errorf("revalidated Result: Status %d, same rules %v, Size %d", res.Status, res.Robots == first.Robots, res.Size)
			}
			wantExpires(t, res, clk.Now(), 2*time.Hour) // the 304's max-age
			wantAllowed(t, res, map[string]bool{"/private/x": false, "/public": true})
			if conds.Load() != 1 || c.Stats().Revalidated != 1 {
				t.Errorf("%d conditional requests, Stats %+v; want 1 revalidated", conds.Load(), c.Stats())
			}
			// The renewed copy is revalidated again (the validators carried over).
			clk.Advance(3 * time.Hour)
			wantSource(t, lookup(t, c, s.URL+"/"), Fetched)
			if conds.Load() != 2 {
				t.Errorf("%d conditional requests, want 2", conds.Load())
			}
		})
	}
}

// TestRFC9111_NotModifiedValidators: a 304 that sends validators of its
// own replaces the renewed copy's (RFC 9111 section 4.3.4), so the next
// conditional fetch sends the 304's ETag, not the first answer's.
func TestRFC9111_NotModifiedValidators(t *testing.T) {
	var v2 atomic.Int64
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.Header.Get("If-None-Match") {
		case `"v1"`:
			w.Header().Set("ETag", `"v2"`)
			w.WriteHeader(http.StatusNotModified)
		case `"v2"`:
			v2.Add(1)
			w.WriteHeader(http.StatusNotModified)
		default:
			w.Header().Set("ETag", `"v1"`)
			_, _ = w.Write([]byte(robotsBody))
		}
	})
	clk := newClock()
	c := New(Options{Now: clk.Now})
	for range 3 {
		wantSource(t, lookup(t, c, s.URL+"/"), Fetched)
		clk.Advance(DefaultTTL)
	}
	if v2.Load() != 1 || c.Stats().Revalidated != 2 {
		t.Errorf("%d requests with the 304's ETag, Stats %+v; want 1, and 2 revalidated", v2.Load(), c.Stats())
	}
}

// TestRFC9110_UnconditionalNotModified checks that a 304 to a request
// that carried no validators keeps its reading (docs/SEMANTICS.md section
// 5.2: a 3xx that is no redirect, everything allowed), also when the
// Client holds a copy without validators.
func TestRFC9110_UnconditionalNotModified(t *testing.T) {
	h, s := newSwitchable(t, 200, robotsBody)
	clk := newClock()
	c := New(Options{Now: clk.Now})
	wantSource(t, lookup(t, c, s.URL+"/"), Fetched)
	h.set(http.StatusNotModified, "")
	clk.Advance(DefaultTTL)
	res := lookup(t, c, s.URL+"/")
	wantSource(t, res, UnavailableDefault)
	if c.Stats().Revalidated != 0 {
		t.Errorf("Stats = %+v, want nothing revalidated", c.Stats())
	}
}

// TestRFC9110_RevalidationAfterRedirect checks that the validators go to
// the URL the copy came from, after redirects, and not to the robots.txt
// URL that redirects.
func TestRFC9110_RevalidationAfterRedirect(t *testing.T) {
	var sentToRedirect atomic.Int64
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			if r.Header.Get("If-None-Match") != "" {
				sentToRedirect.Add(1)
			}
			http.Redirect(w, r, "/real.txt", http.StatusMovedPermanently)
		case "/real.txt":
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("ETag", `"v1"`)
			_, _ = w.Write([]byte(robotsBody))
		}
	})
	clk := newClock()
	c := New(Options{Now: clk.Now})
	wantSource(t, lookup(t, c, s.URL+"/"), Fetched)
	clk.Advance(DefaultTTL)
	res := lookup(t, c, s.URL+"/")
	if res.Source != Fetched || res.Status != http.StatusNotModified || res.Redirects != 1 {
		t.Errorf("Result = %v, status %d, %d redirects; want fetched, 304, 1", res.Source, res.Status, res.Redirects)
	}
	if sentToRedirect.Load() != 0 {
		t.Error("the validators were sent to the robots.txt URL that redirects")
	}
}

// TestStore_RevalidationShared checks that a node revalidates the copy
// another node fetched: the record carries the validators.
func TestStore_RevalidationShared(t *testing.T) {
	var full, notModified atomic.Int64
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		full.Add(1)
		w.Header().Set("ETag", `"v1"`)
		_, _ = w.Write([]byte(robotsBody))
	})
	clk := newClock()
	store := newMemStore()
	a := New(Options{Store: store, Now: clk.Now})
	wantSource(t, lookup(t, a, s.URL+"/"), Fetched)
	clk.Advance(DefaultTTL)
	b := New(Options{Store: store, Now: clk.Now})
	res := lookup(t, b, s.URL+"/")
	if res.Source != Fetched || res.Status != http.StatusNotModified {
		t.Errorf("Result = %v, status %d; want fetched, 304", res.Source, res.Status)
	}
	wantAllowed(t, res, map[string]bool{"/private/x": false, "/public": true})
	// The renewed record is fresh for the first node too.
	wantSource(t, lookup(t, a, s.URL+"/"), Cached)
	if full.Load() != 1 || notModified.Load() != 1 {
		t.Errorf("%d full fetches and %d 304s, want 1 and 1", full.Load(), notModified.Load())
	}
}

// racingStore is a memStore on which another node saves its record just
// before this node's first Lease, and releases its lease: the load before
// the lease missed it.
type racingStore struct {
	*memStore
	record []byte
	once   sync.Once
	key    string
}

func (r *racingStore) Lease(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	r.once.Do(func() { r.set(r.key, r.record) })
	return r.memStore.Lease(ctx, key, token, ttl)
}

// TestStore_SavedBetweenLoadAndLease checks that a node that takes a lease
// looks for a record again before it fetches: the holder before it may
// have saved and released between the node's load and its lease.
func TestStore_SavedBetweenLoadAndLease(t *testing.T) {
	s := newServer(t, serveRobots(200, robotsBody))
	rec := testRecord(t, s.URL, robotsBody, Options{})
	before := s.requests.Load()
	store := &racingStore{memStore: newMemStore(), record: rec, key: s.URL}
	c := New(Options{Store: store})
	wantSource(t, lookup(t, c, s.URL+"/"), Cached)
	if n := s.requests.Load() - before; n != 0 {
		t.Errorf("the server saw %d requests, want none", n)
	}
	if st := c.Stats(); st.StoreHits != 1 || st.Fetches != 0 {
		t.Errorf("Stats = %+v, want one store hit, no fetch", st)
	}
}

// failingSave is a memStore whose saves fail.
type failingSave struct{ *memStore }

func (f failingSave) Save(ctx context.Context, key string, record []byte, ttl time.Duration) error {
	f.calls.Add(1)
	return errStoreDown
}

// TestStore_ReleaseAfterFailedSave checks that a node whose save fails
// still releases its lease, so that the nodes waiting for it need not wait
// for the lease to run out.
func TestStore_ReleaseAfterFailedSave(t *testing.T) {
	s := newServer(t, serveRobots(200, robotsBody))
	store := newMemStore()
	c := New(Options{Store: failingSave{store}})
	wantSource(t, lookup(t, c, s.URL+"/"), Fetched)
	if st := c.Stats(); st.StoreErrors != 1 || st.StoreSaves != 0 {
		t.Errorf("Stats = %+v, want the failed save counted", st)
	}
	if took, _ := store.Lease(context.Background(), s.URL, "next-node", time.Minute); !took {
		t.Error("the lease is still held after a failed save")
	}
}

// TestStore_ErrorKinds checks that the error of a result read from a
// record keeps what errors.Is finds in the fetch's own: a node that reads
// another's timed-out fetch sees a deadline error.
func TestStore_ErrorKinds(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { time.Sleep(200 * time.Millisecond) })
	store := newMemStore()
	a := New(Options{Store: store, Timeout: 20 * time.Millisecond})
	wantSource(t, lookup(t, a, s.URL+"/"), UnreachableDefault)
	res := lookup(t, New(Options{Store: store}), s.URL+"/")
	wantSource(t, res, UnreachableDefault)
	if !res.Hit || !errors.Is(res.Err, context.DeadlineExceeded) || errors.Is(res.Err, context.Canceled) {
		t.Errorf("Err from the record = %v: want a deadline error, not a cancellation", res.Err)
	}
}

// TestStore_FreshnessBounded checks that a record cannot keep a site's
// rules fresher than this node would: its freshness is cut to the longest
// this Client gives, counted from the fetch, or from now when the writer's
// clock was ahead.
func TestStore_FreshnessBounded(t *testing.T) {
	s := newServer(t, serveRobots(200, robotsBody))
	clk := newClock()
	good := testRecord(t, s.URL, robotsBody, Options{Now: clk.Now})
	for _, tt := range []struct {
		name    string
		at, exp time.Duration // from now
	}{
		{"a year fresh", 0, 365 * 24 * time.Hour},
		{"written by a clock a year ahead", 365 * 24 * time.Hour, 366 * 24 * time.Hour},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec, _ := decodeRecord(good)
			rec.at, rec.goodFetched, rec.expires = clk.Now().Add(tt.at), clk.Now().Add(tt.at), clk.Now().Add(tt.exp)
			store := newMemStore()
			store.set(s.URL, encodeRecord(rec))
			res := lookup(t, New(Options{Store: store, Now: clk.Now}), s.URL+"/")
			wantSource(t, res, Cached)
			if want := clk.Now().Add(DefaultMaxTTL); !res.Expires.Equal(want) {
				t.Errorf("Expires = %v, want %v (now and MaxTTL)", res.Expires, want)
			}
		})
	}
}
