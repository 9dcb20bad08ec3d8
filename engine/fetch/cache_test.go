package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
)

// switchable is a handler whose status and headers a test changes between
// lookups.
type switchable struct {
	mu      sync.Mutex
	status  int
	body    string
	headers map[string]string
}

func (h *switchable) set(status int, body string, headers ...string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.status, h.body = status, body
	h.headers = map[string]string{}
	for i := 0; i+1 < len(headers); i += 2 {
		h.headers[headers[i]] = headers[i+1]
	}
}

func (h *switchable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	status, body, headers := h.status, h.body, h.headers
	h.mu.Unlock()
	for k, v := range headers {
		w.Header().Set(k, v)
	}
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

func newSwitchable(t *testing.T, status int, body string, headers ...string) (*switchable, *server) {
	h := &switchable{}
	h.set(status, body, headers...)
	return h, newServer(t, h.ServeHTTP)
}

// wantExpires fails the test unless res expires d after now.
func wantExpires(t *testing.T, res Result, now time.Time, d time.Duration) {
	t.Helper()
	if got := res.Expires.Sub(now); got != d {
		t.Errorf("expires in %v, want %v (source %v)", got, d, res.Source)
	}
}

// TestRFC9309_CacheControl checks docs/SEMANTICS.md section 5.3: max-age may
// shorten or lengthen the 24 hours, within MinTTL and MaxTTL.
func TestRFC9309_CacheControl(t *testing.T) {
	tests := []struct {
		header string
		want   time.Duration
	}{
		{"", DefaultTTL},
		{"max-age=0", DefaultMinTTL},
		{"max-age=30", DefaultMinTTL},
		{"max-age=600", 10 * time.Minute},
		{"public, max-age=7200", 2 * time.Hour},
		{`max-age="3600"`, time.Hour},
		{"MAX-AGE=3600", time.Hour},
		{"max-age=172800", 48 * time.Hour},
		{"max-age=31536000", DefaultMaxTTL},                // a year: capped
		{"max-age=99999999999999999999999", DefaultMaxTTL}, // overflows: capped
		{"max-age=abc", DefaultTTL},                        // malformed: ignored
		{"max-age=-5", DefaultTTL},
		{"max-age=", DefaultTTL},
		{"max-age=1.5", DefaultTTL},
		{"max-age=abc, max-age=600", 10 * time.Minute},
		{"no-cache", DefaultMinTTL},
		{"no-store, max-age=3600", DefaultMinTTL},
		{"private", DefaultTTL},
	}
	for _, tt := range tests {
		t.Run(tt.header, func(t *testing.T) {
			var h []string
			if tt.header != "" {
				h = []string{"Cache-Control", tt.header}
			}
			_, s := newSwitchable(t, 200, robotsBody, h...)
			clk := newClock()
			res := lookup(t, New(Options{Now: clk.Now}), s.URL+"/")
			wantSource(t, res, Fetched)
			wantExpires(t, res, clk.Now(), tt.want)
		})
	}
	// The bounds are options; max-age also applies to a 404.
	_, s := newSwitchable(t, 404, "", "Cache-Control", "max-age=10")
	clk := newClock()
	res := lookup(t, New(Options{Now: clk.Now, MinTTL: 5 * time.Second}), s.URL+"/")
	wantSource(t, res, UnavailableDefault)
	wantExpires(t, res, clk.Now(), 10*time.Second)
	_, s = newSwitchable(t, 200, "", "Cache-Control", "max-age=86400")
	res = lookup(t, New(Options{Now: clk.Now, MaxTTL: time.Hour}), s.URL+"/")
	wantExpires(t, res, clk.Now(), time.Hour)
	res = lookup(t, New(Options{Now: clk.Now, TTL: 3 * time.Hour}), newServer(t, serveRobots(200, "")).URL+"/")
	wantExpires(t, res, clk.Now(), 3*time.Hour)
}

// TestKoster1996_TTL checks docs/SEMANTICS.md section 5.3: the default expiry
// is 7 days in Koster1996 semantics.
func TestKoster1996_TTL(t *testing.T) {
	_, s := newSwitchable(t, 200, robotsBody)
	clk := newClock()
	c := New(Options{Now: clk.Now, Engine: engine.Options{Semantics: engine.Koster1996}})
	res := lookup(t, c, s.URL+"/")
	wantExpires(t, res, clk.Now(), 7*24*time.Hour)
	clk.Advance(6 * 24 * time.Hour)
	wantSource(t, lookup(t, c, s.URL+"/"), Cached)
	clk.Advance(24 * time.Hour)
	wantSource(t, lookup(t, c, s.URL+"/"), Fetched)
}

func TestCache_Expiry(t *testing.T) {
	h, s := newSwitchable(t, 200, robotsBody)
	clk := newClock()
	c := New(Options{Now: clk.Now})
	t0 := clk.Now()
	wantSource(t, lookup(t, c, s.URL+"/a"), Fetched)
	clk.Advance(DefaultTTL - time.Second)
	res := lookup(t, c, s.URL+"/b")
	wantSource(t, res, Cached)
	if !res.Hit || !res.Fetched.Equal(t0) || !res.Expires.Equal(t0.Add(DefaultTTL)) {
		t.Errorf("Hit, Fetched, Expires = %v, %v, %v", res.Hit, res.Fetched, res.Expires)
	}
	h.set(200, "User-agent: *\nDisallow: /public\n")
	clk.Advance(time.Second)
	res = lookup(t, c, s.URL+"/c")
	wantSource(t, res, Fetched)
	wantAllowed(t, res, map[string]bool{"/private/x": true, "/public": false})
	if got := s.requests.Load(); got != 2 {
		t.Errorf("server saw %d requests, want 2", got)
	}
	st := c.Stats()
	if st.Hits != 1 || st.Misses != 2 || st.Fetches != 2 || st.Entries != 1 {
		t.Errorf("Stats = %+v", st)
	}
}

// TestRFC9309_StaleCopy checks docs/SEMANTICS.md section 5.3: while the file is
// unreachable, the last copy is used for up to 30 days after it was
// fetched; after that everything is allowed.
func TestRFC9309_StaleCopy(t *testing.T) {
	h, s := newSwitchable(t, 200, robotsBody)
	clk := newClock()
	c := New(Options{Now: clk.Now})
	t0 := clk.Now()
	wantSource(t, lookup(t, c, s.URL+"/"), Fetched)

	// Unreachable after the TTL: the copy is used, retried after a minute.
	h.set(503, "")
	clk.Advance(DefaultTTL)
	res := lookup(t, c, s.URL+"/")
	wantSource(t, res, Stale)
	wantAllowed(t, res, rulesApply)
	if res.Status != 503 || res.Err == nil || !res.Fetched.Equal(t0) || res.Hit {
		t.Errorf("Status, Err, Fetched, Hit = %d, %v, %v, %v", res.Status, res.Err, res.Fetched, res.Hit)
	}
	wantExpires(t, res, clk.Now(), DefaultRetryTTL)
	res = lookup(t, c, s.URL+"/")
	wantSource(t, res, Stale)
	if !res.Hit {
		t.Errorf("the stale result was not cached")
	}

	// Each failure in a row doubles the wait, up to an hour.
	for _, want := range []time.Duration{2, 4, 8, 16, 32, 60, 60} {
		clk.Advance(time.Hour)
		res = lookup(t, c, s.URL+"/")
		wantSource(t, res, Stale)
		wantExpires(t, res, clk.Now(), want*time.Minute)
	}

	// Just before 30 days after the copy was fetched: still the copy, and
	// the next attempt is when it runs out.
	clk.Advance(t0.Add(DefaultMaxStale - 30*time.Minute).Sub(clk.Now()))
	res = lookup(t, c, s.URL+"/")
	wantSource(t, res, Stale)
	if !res.Expires.Equal(t0.Add(DefaultMaxStale)) {
		t.Errorf("Expires = %v, want the end of the copy %v", res.Expires, t0.Add(DefaultMaxStale))
	}

	// 30 days: no usable copy, unreachable for 30 days: allow all.
	clk.Advance(30 * time.Minute)
	res = lookup(t, c, s.URL+"/")
	wantSource(t, res, UnavailableDefault)
	wantAllowed(t, res, allowAll)
	if res.Err == nil || res.Status != 503 {
		t.Errorf("Err, Status = %v, %d", res.Err, res.Status)
	}

	// Reachable again: fetched, the failures are forgotten.
	h.set(200, robotsBody)
	clk.Advance(time.Hour)
	res = lookup(t, c, s.URL+"/")
	wantSource(t, res, Fetched)
	wantAllowed(t, res, rulesApply)
	h.set(500, "")
	clk.Advance(DefaultTTL)
	res = lookup(t, c, s.URL+"/")
	wantSource(t, res, Stale)
	wantExpires(t, res, clk.Now(), DefaultRetryTTL)
}

// TestRFC9309_UnreachableNoCopy checks docs/SEMANTICS.md section 5.3: without a
// copy, an unreachable file disallows everything, until it has been
// unreachable for 30 days; then everything is allowed.
func TestRFC9309_UnreachableNoCopy(t *testing.T) {
	h, s := newSwitchable(t, 503, "", "Retry-After", "120")
	clk := newClock()
	c := New(Options{Now: clk.Now})
	t0 := clk.Now()
	res := lookup(t, c, s.URL+"/")
	wantSource(t, res, UnreachableDefault)
	wantAllowed(t, res, disallowAll)
	wantExpires(t, res, clk.Now(), 2*time.Minute) // Retry-After
	wantSource(t, lookup(t, c, s.URL+"/"), UnreachableDefault)
	if got := s.requests.Load(); got != 1 {
		t.Errorf("the unreachable result was not cached: %d requests", got)
	}
	for clk.Now().Add(24 * time.Hour).Before(t0.Add(DefaultMaxStale)) {
		clk.Advance(24 * time.Hour)
		wantSource(t, lookup(t, c, s.URL+"/"), UnreachableDefault)
	}
	clk.Advance(t0.Add(DefaultMaxStale).Sub(clk.Now()))
	res = lookup(t, c, s.URL+"/")
	wantSource(t, res, UnavailableDefault)
	wantAllowed(t, res, allowAll)

	// A 404 followed by an outage: no copy; 30 days after the 404, allow.
	h.set(404, "")
	clk.Advance(time.Hour)
	t1 := clk.Now()
	wantSource(t, lookup(t, c, s.URL+"/"), UnavailableDefault)
	h.set(429, "")
	clk.Advance(DefaultTTL)
	res = lookup(t, c, s.URL+"/")
	wantSource(t, res, UnreachableDefault)
	if res.Status != 429 {
		t.Errorf("Status = %d", res.Status)
	}
	clk.Advance(t1.Add(DefaultMaxStale).Sub(clk.Now()))
	wantSource(t, lookup(t, c, s.URL+"/"), UnavailableDefault)
}

func TestRetryAfter(t *testing.T) {
	clk := newClock()
	tests := []struct {
		value string
		want  time.Duration
	}{
		{"600", 10 * time.Minute},
		{"1", DefaultRetryTTL},         // at least RetryTTL
		{"100000", DefaultMaxRetryTTL}, // at most MaxRetryTTL
		{clk.Now().Add(20 * time.Minute).Format(http.TimeFormat), 20 * time.Minute},
		{"soon", DefaultRetryTTL},
	}
	for _, tt := range tests {
		_, s := newSwitchable(t, 429, "", "Retry-After", tt.value)
		res := lookup(t, New(Options{Now: clk.Now}), s.URL+"/")
		wantSource(t, res, UnreachableDefault)
		wantExpires(t, res, clk.Now(), tt.want)
	}
}

// TestSingleFlight checks that 1,000 concurrent lookups of one robots.txt
// cause exactly one request.
func TestSingleFlight(t *testing.T) {
	release := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		_, _ = w.Write([]byte(robotsBody))
	})
	c := New(Options{})
	const n = 1000
	var wg, started sync.WaitGroup
	var fetched, disallowed atomic.Int64
	errs := make(chan error, n)
	wg.Add(n)
	started.Add(n)
	for i := 0; i < n; i++ {
		go func(i int) {
			defer wg.Done()
			started.Done()
			ok, res, err := c.Allowed(context.Background(), "ExampleBot", s.URL+"/private/"+strings.Repeat("x", i%7))
			if err != nil {
				errs <- err
				return
			}
			if res.Source == Fetched {
				fetched.Add(1)
			}
			if !ok {
				disallowed.Add(1)
			}
		}(i)
	}
	started.Wait()
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := s.requests.Load(); got != 1 {
		t.Errorf("server saw %d requests, want 1", got)
	}
	if disallowed.Load() != n || fetched.Load() == 0 {
		t.Errorf("disallowed %d, fetched %d of %d", disallowed.Load(), fetched.Load(), n)
	}
	if st := c.Stats(); st.Fetches != 1 || st.Hits+st.Misses != n {
		t.Errorf("Stats = %+v", st)
	}
}

// TestCancel checks that a lookup returns when its context ends, while the
// fetch goes on for the other lookups and is cached.
func TestCancel(t *testing.T) {
	release := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		_, _ = w.Write([]byte(robotsBody))
	})
	c := New(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Lookup(ctx, s.URL+"/"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Lookup with a cancelled context: %v", err)
	}
	if s.requests.Load() != 0 {
		t.Fatalf("a cancelled lookup fetched")
	}

	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := c.Lookup(ctx, s.URL+"/"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Lookup past its deadline: %v", err)
	}
	close(release)
	// The detached fetch finishes and is cached.
	res := lookup(t, c, s.URL+"/")
	if res.Source != Fetched && res.Source != Cached {
		t.Errorf("Source = %v", res.Source)
	}
	wantSource(t, lookup(t, c, s.URL+"/"), Cached)
	if got := s.requests.Load(); got != 1 {
		t.Errorf("server saw %d requests, want 1", got)
	}
}

// TestCache_LRUEntries checks the bound on entries and that the least
// recently used entry goes first.
func TestCache_LRUEntries(t *testing.T) {
	var mu sync.Mutex
	hosts := map[string]int{}
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hosts[r.Host]++
		mu.Unlock()
		_, _ = w.Write([]byte(robotsBody))
	})
	c := New(Options{MaxEntries: 2, HTTPClient: &http.Client{Transport: routingTransport(s.Listener.Addr().String())}})
	for _, h := range []string{"a", "b", "a", "c", "a", "b"} {
		lookup(t, c, "http://"+h+".test/")
	}
	// a, b fetched; a hit; c evicts b (a was used more recently); a hit;
	// b fetched again, evicting c.
	mu.Lock()
	defer mu.Unlock()
	if hosts["a.test"] != 1 || hosts["b.test"] != 2 || hosts["c.test"] != 1 {
		t.Errorf("requests per host = %v", hosts)
	}
	if st := c.Stats(); st.Entries != 2 || st.Hits != 2 {
		t.Errorf("Stats = %+v", st)
	}
}

// TestCache_LRUBytes checks the bound on bytes.
func TestCache_LRUBytes(t *testing.T) {
	body := robotsBody + strings.Repeat("# padding\n", 1000) // 10 KB
	s := newServer(t, serveRobots(200, body))
	tr := routingTransport(s.Listener.Addr().String())
	// The overhead, the robots.txt URL and the same as FinalURL, the file.
	per := int64(EntryOverhead + 2*len("http://a.test/robots.txt") + engine.Compile([]byte(body), engine.Options{}).Bytes())
	c := New(Options{MaxBytes: 2*per + per/2, HTTPClient: &http.Client{Transport: tr}})
	for _, h := range []string{"a", "b", "c"} {
		lookup(t, c, "http://"+h+".test/")
	}
	if st := c.Stats(); st.Entries != 2 || st.Bytes != 2*per {
		t.Errorf("Stats = %+v, want 2 entries of %d bytes", st, per)
	}
	wantSource(t, lookup(t, c, "http://c.test/"), Cached)
	wantSource(t, lookup(t, c, "http://a.test/"), Fetched)

	// An entry larger than the whole cache is not kept.
	c = New(Options{MaxBytes: 100, HTTPClient: &http.Client{Transport: tr}})
	wantSource(t, lookup(t, c, "http://a.test/"), Fetched)
	wantSource(t, lookup(t, c, "http://a.test/"), Fetched)
	if st := c.Stats(); st.Entries != 0 || st.Bytes != 0 {
		t.Errorf("Stats = %+v", st)
	}
}

// TestCache_BytesBoundHoldsMemory fills a cache with large files and
// decides many URLs on each, so that their automata build states after the
// files were cached, and checks that the cache stays within MaxBytes both
// as it counts and as the Go heap measures it (runtime.MemStats).
func TestCache_BytesBoundHoldsMemory(t *testing.T) {
	const maxBytes = 6 << 20
	// Each matcher's warm-up is 256 URLs: past it, states are built.
	const warmUp = 256
	hosts, urlsPer := 100, 400
	if testing.Short() {
		hosts, urlsPer = 64, 300
	}
	// The bodies come from memory, not a server: connections and their
	// buffers would be heap the cache does not hold, and the test measures
	// the heap.
	tr := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seed, _ := strconv.Atoi(strings.TrimSuffix(r.URL.Hostname(), ".test")[1:])
		body := gen.Robots(3000, int64(seed), true)
		return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{},
			Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
	})
	c := New(Options{MaxBytes: maxBytes, HTTPClient: &http.Client{Transport: tr}, Engine: engine.Options{WarmUp: warmUp}})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	ctx := context.Background()
	peak := int64(0)
	for h := 0; h < hosts; h++ {
		host := fmt.Sprintf("http://h%d.test", h)
		urls := gen.URLs(gen.Robots(3000, int64(h), true), urlsPer, int64(h))
		for _, u := range urls {
			if _, _, err := c.Allowed(ctx, "Googlebot", host+u); err != nil {
				t.Fatal(err)
			}
		}
		peak = max(peak, c.Stats().Bytes)
	}
	// Two collections: the first moves what sync.Pools hold (buffers of
	// net/http, the automata's scratch) to their victim caches, the second
	// frees it. It is not the cache's.
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	st := c.Stats()
	t.Logf("%d hosts: cache counts %d entries, %.1f MiB (peak %.1f MiB); heap grew %.1f MiB; MaxBytes %.1f MiB",
		hosts, st.Entries, float64(st.Bytes)/(1<<20), float64(peak)/(1<<20), float64(held)/(1<<20), float64(maxBytes)/(1<<20))
	if peak > maxBytes {
		t.Errorf("the cache counted %d bytes, more than MaxBytes %d", peak, maxBytes)
	}
	// A MiB of slack for what the test and the runtime keep, and a
	// quarter for what Bytes estimates.
	if limit := int64(maxBytes)*5/4 + 1<<20; held > limit {
		t.Errorf("the heap grew by %d bytes with the cache full, more than %d: the cache's count misses memory", held, limit)
	}
	// And the heap held no more than the cache counts, with the same
	// slack: a count that misses memory (a matcher bound but not charged)
	// fails here even where the cache is not full.
	if limit := st.Bytes*5/4 + 1<<20; held > limit {
		t.Errorf("the heap grew by %d bytes, more than the %d the cache counts allow (%d): the cache's count misses memory", held, st.Bytes, limit)
	}
	if st.Entries == hosts {
		t.Errorf("no entry was evicted: the test does not fill the cache")
	}
	runtime.KeepAlive(c)
}

// TestCache_CountsTheBoundMatcher checks that an entry counts the matcher
// a decision binds, though the decision, in the matcher's warm-up, builds
// no state: Client.Allowed, Decide and Matcher each.
func TestCache_CountsTheBoundMatcher(t *testing.T) {
	body := gen.Robots(3000, 1, true)
	tr := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{},
			Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
	})
	ctx := context.Background()
	for _, how := range []string{"Allowed", "Decide", "Matcher"} {
		c := New(Options{HTTPClient: &http.Client{Transport: tr}})
		res := lookup(t, c, "http://a.test/")
		fileOnly := c.Stats().Bytes
		switch how {
		case "Allowed":
			_, _, err := c.Allowed(ctx, "Googlebot", "http://a.test/x")
			if err != nil {
				t.Fatal(err)
			}
		case "Decide":
			if _, _, err := c.Decide(ctx, "Googlebot", "http://a.test/x"); err != nil {
				t.Fatal(err)
			}
		case "Matcher":
			if _, _, err := c.Matcher(ctx, "http://a.test/x", "Googlebot"); err != nil {
				t.Fatal(err)
			}
		}
		m := res.Robots.Matcher("Googlebot")
		if st := m.Stats(); st.States != 0 {
			t.Fatalf("%s: %d states built: the test means the warm-up, which builds none", how, st.States)
		}
		if got, want := c.Stats().Bytes, fileOnly+int64(m.Bytes()); got != want {
			t.Errorf("%s: the cache counts %d bytes, want %d (the file's %d and the matcher's %d)", how, got, want, fileOnly, m.Bytes())
		}
	}
}

// TestCache_KeyCanonical checks that differently written URLs of one site
// share one entry.
func TestCache_KeyCanonical(t *testing.T) {
	s := newServer(t, serveRobots(200, robotsBody))
	tr := routingTransport(s.Listener.Addr().String())
	c := New(Options{HTTPClient: &http.Client{Transport: tr}})
	for _, u := range []string{
		"http://example.test/a",
		"HTTP://Example.TEST:80/b",
		"http://user:pw@example.test/c?d#e",
		"http://example.test",
	} {
		lookup(t, c, u)
	}
	if got := s.requests.Load(); got != 1 {
		t.Errorf("server saw %d requests, want 1", got)
	}
	if st := c.Stats(); st.Entries != 1 || st.Hits != 3 {
		t.Errorf("Stats = %+v", st)
	}
}

func TestAllowed(t *testing.T) {
	s := newServer(t, serveRobots(200, "User-agent: ExampleBot\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n"))
	c := New(Options{})
	ctx := context.Background()
	for _, tt := range []struct {
		agent, path string
		want        bool
	}{
		{"ExampleBot", "/x/1", false},
		{"ExampleBot", "/y", true},
		{"OtherBot", "/y", false},
		{"ExampleBot", "/y", true},
	} {
		ok, res, err := c.Allowed(ctx, tt.agent, s.URL+tt.path)
		if err != nil || ok != tt.want {
			t.Errorf("Allowed(%q, %q) = %v, %v; want %v", tt.agent, tt.path, ok, err, tt.want)
		}
		if res.RobotsURL != s.URL+"/robots.txt" {
			t.Errorf("RobotsURL = %q", res.RobotsURL)
		}
	}
	d, _, err := c.Decide(ctx, "ExampleBot", s.URL+"/x/1")
	if err != nil || d.Allowed || d.Rule.Line != 2 || d.Rule.Value != "/x" {
		t.Errorf("Decide = %+v, %v", d, err)
	}
}

// TestAllowed_NoAlloc checks that a cache hit with a decision allocates
// nothing.
func TestAllowed_NoAlloc(t *testing.T) {
	s := newServer(t, serveRobots(200, robotsBody))
	c := New(Options{})
	ctx := context.Background()
	u := s.URL + "/private/page?q=1"
	if ok, _, err := c.Allowed(ctx, "ExampleBot", u); ok || err != nil {
		t.Fatalf("Allowed = %v, %v", ok, err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		_, _, _ = c.Allowed(ctx, "ExampleBot", u)
	})
	if allocs != 0 {
		t.Errorf("Allowed on a cache hit: %v allocations, want 0", allocs)
	}
}

func TestSourceString(t *testing.T) {
	for s, want := range map[Source]string{
		NoSource: "none", Fetched: "fetched", Cached: "cached", Stale: "stale",
		UnreachableDefault: "unreachable-default", UnavailableDefault: "unavailable-default",
		ForbiddenDefault: "forbidden-default", Source(99): "Source(99)",
	} {
		if got := s.String(); got != want {
			t.Errorf("Source(%d).String() = %q, want %q", s, got, want)
		}
	}
}

// TestCache_RealClock checks freshness with the real clock, which the
// entry's timer keeps (the other tests inject a clock).
func TestCache_RealClock(t *testing.T) {
	s := newServer(t, serveRobots(200, robotsBody))
	c := New(Options{TTL: 30 * time.Millisecond})
	wantSource(t, lookup(t, c, s.URL+"/"), Fetched)
	deadline := time.Now().Add(5 * time.Second)
	for {
		res := lookup(t, c, s.URL+"/")
		if res.Source == Fetched {
			break
		}
		wantSource(t, res, Cached)
		if time.Now().After(deadline) {
			t.Fatal("the entry never expired")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got := s.requests.Load(); got != 2 {
		t.Errorf("server saw %d requests, want 2", got)
	}
}

// TestClient_DroppedIsCollected checks that a Client that is dropped
// without Close is garbage: nothing (no timer of its entries) keeps its
// cache reachable.
func TestClient_DroppedIsCollected(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 300
	}
	body := robotsBody + strings.Repeat("Disallow: /a-path-of-some-length/*/with/a/wildcard\n", 40)
	tr := memoryTransport(func(*http.Request) (int, string, http.Header, string) { return 200, "OK", nil, body })
	before := heapInUse()
	c := New(Options{HTTPClient: &http.Client{Transport: tr}})
	for i := 0; i < n; i++ {
		lookup(t, c, fmt.Sprintf("http://h%d.test/", i))
	}
	full := heapInUse() - before
	held := c.Stats().Bytes
	c = nil
	left := heapInUse() - before
	t.Logf("%d entries: the cache counted %d bytes, the heap grew %d; %d left once the Client was dropped", n, held, full, left)
	if left > full/10 {
		t.Errorf("the dropped Client left %d of %d bytes on the heap", left, full)
	}
}

// TestClient_Close checks that Close ends the fetches in flight, empties
// the cache, and that lookups after it fail with ErrClosed.
func TestClient_Close(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	slow := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	fast := newServer(t, serveRobots(200, robotsBody))
	c := New(Options{Timeout: time.Hour})
	wantSource(t, lookup(t, c, fast.URL+"/"), Fetched)

	ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := c.Lookup(ctx, slow.URL+"/")
		done <- err
	}()
	for slow.requests.Load() == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("the fetch never started")
		case <-time.After(time.Millisecond):
		}
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, ErrClosed) {
			t.Errorf("the lookup in flight returned %v, want ErrClosed", err)
		}
	case <-ctx.Done():
		t.Fatal("Close did not end the fetch in flight")
	}
	if st := c.Stats(); st.Entries != 0 || st.Bytes != 0 {
		t.Errorf("after Close: Stats = %+v, want an empty cache", st)
	}
	if _, err := c.Lookup(context.Background(), fast.URL+"/"); !errors.Is(err, ErrClosed) {
		t.Errorf("Lookup after Close: %v, want ErrClosed", err)
	}
	if ok, _, err := c.Allowed(context.Background(), "FooBot", fast.URL+"/"); ok || !errors.Is(err, ErrClosed) {
		t.Errorf("Allowed after Close: %v, %v; want false, ErrClosed", ok, err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if n := fast.requests.Load(); n != 1 {
		t.Errorf("the server saw %d requests, want 1", n)
	}
}

// TestCache_InUseOutlivesOneOffs: an entry that hits keep asking for stays
// cached while a stream of sites asked for once each passes through a
// full cache (the clock gives it a second chance each time it comes up),
// and the cache stays within MaxEntries.
func TestCache_InUseOutlivesOneOffs(t *testing.T) {
	var fetches sync.Map // host -> *atomic.Int64
	tr := memoryTransport(func(r *http.Request) (int, string, http.Header, string) {
		n, _ := fetches.LoadOrStore(r.URL.Host, new(atomic.Int64))
		n.(*atomic.Int64).Add(1)
		return 200, "OK", nil, robotsBody
	})
	c := New(Options{MaxEntries: 4, HTTPClient: &http.Client{Transport: tr}})
	defer c.Close()
	lookup(t, c, "http://hot.test/")
	for i := 0; i < 50; i++ {
		lookup(t, c, fmt.Sprintf("http://once%d.test/", i))
		wantSource(t, lookup(t, c, "http://hot.test/"), Cached)
		if n := c.Stats().Entries; n > 4 {
			t.Fatalf("%d entries, more than MaxEntries 4", n)
		}
	}
	if n, _ := fetches.Load("hot.test"); n.(*atomic.Int64).Load() != 1 {
		t.Errorf("the site in use was fetched %d times, want 1", n.(*atomic.Int64).Load())
	}
}

// TestCache_ConcurrentHitsMissesEvictions: lookups from many goroutines at
// once, hits on a few sites in use and misses on others that evict (run
// with -race): each lookup is counted once, as a hit or a miss, the bounds
// hold whenever Stats is read, and every answer is right.
func TestCache_ConcurrentHitsMissesEvictions(t *testing.T) {
	tr := memoryTransport(func(r *http.Request) (int, string, http.Header, string) {
		return 200, "OK", nil, robotsBody
	})
	const maxEntries, goroutines = 8, 8
	perG := 2000
	if testing.Short() {
		perG = 400
	}
	c := New(Options{MaxEntries: maxEntries, HTTPClient: &http.Client{Transport: tr}})
	defer c.Close()
	ctx := context.Background()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var watched sync.WaitGroup
	watched.Add(1)
	go func() { // Stats, read while the lookups run
		defer watched.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if st := c.Stats(); st.Entries > maxEntries {
				t.Errorf("Stats %+v: more than MaxEntries", st)
				return
			}
			runtime.Gosched()
		}
	}()
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perG; i++ {
				host := fmt.Sprintf("hot%d.test", i%3)
				if i%10 == g%10 {
					host = fmt.Sprintf("g%d-once%d.test", g, i)
				}
				ok, _, err := c.Allowed(ctx, "FooBot", "http://"+host+"/private/x")
				if ok || err != nil {
					t.Errorf("Allowed(%s) = %v, %v; want false, nil", host, ok, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	watched.Wait()
	st := c.Stats()
	if got, want := st.Hits+st.Misses, int64(goroutines*perG); got != want {
		t.Errorf("Stats %+v: %d hits and misses, want %d lookups", st, got, want)
	}
	if st.Entries > maxEntries || st.Hits == 0 {
		t.Errorf("Stats %+v", st)
	}
}
