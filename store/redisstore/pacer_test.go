package redisstore

import (
	"context"
	"errors"
	"math"
	"net/http"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

// TestPacer_Turns checks the rules fetch.Pacer states, on Redis: the first
// request goes at once; one whose deadline comes before its turn fails at
// once with a *fetch.CrawlDelayError and reserves nothing, so the next is
// offered the same turn; another origin is not held up.
func TestPacer_Turns(t *testing.T) {
	srv := startRedis(t)
	p := NewPacer(srv.Client(), Options{})
	const d = time.Hour
	bg := context.Background()
	if err := p.Wait(bg, "http://a.test", d); err != nil {
		t.Fatalf("first request: %v", err)
	}
	ctx, cancel := context.WithTimeout(bg, time.Minute)
	defer cancel()
	var waits []time.Duration
	for i := 0; i < 3; i++ {
		var cd *fetch.CrawlDelayError
		err := p.Wait(ctx, "http://a.test", d)
		// The turn comes d and the first request's margin after it
		// (more than DefaultPaceMargin when its reply was slow).
		if !errors.As(err, &cd) || !errors.Is(err, context.DeadlineExceeded) || cd.Wait <= d-time.Minute || cd.Wait > d+time.Second {
			t.Fatalf("request %d: %v, want a *fetch.CrawlDelayError with a wait of about %v", i+2, err, d)
		}
		if cd.Origin != "http://a.test" || cd.Delay != d {
			t.Errorf("CrawlDelayError = %+v", cd)
		}
		waits = append(waits, cd.Wait)
	}
	if !(waits[2] <= waits[1] && waits[1] <= waits[0]) {
		t.Errorf("waits offered %v: the refused requests took turns", waits)
	}
	if err := p.Wait(ctx, "http://b.test", d); err != nil {
		t.Errorf("another origin: %v", err)
	}
	if st := p.Stats(); st.Reserved != 2 || st.TooSoon != 3 || st.Waited != 0 || st.Unavailable != 0 {
		t.Errorf("Stats() = %+v, want 2 reserved, 3 refused", st)
	}
}

// TestPacer_GapsAcrossNodes checks that requests from two Pacers (two
// nodes, each with its own Redis connections) with four workers each take
// turns at least the crawl-delay apart on the server's clock (each goes no
// earlier than its turn, and no later than its margin after it); the gaps
// between the moments Wait returned, which a goroutine scheduled late
// shortens or lengthens, are logged.
func TestPacer_GapsAcrossNodes(t *testing.T) {
	srv := startRedis(t)
	d, n := 30*time.Millisecond, 30
	nodes := []*Pacer{NewPacer(srv.Client(), Options{}), NewPacer(srv.Client(), Options{})}
	var mu sync.Mutex
	var turns []int64
	for _, p := range nodes {
		p.went = func(at int64) {
			mu.Lock()
			turns = append(turns, at)
			mu.Unlock()
		}
	}
	var went []time.Time
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				if err := nodes[w%2].Wait(context.Background(), "http://a.test", d); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				went = append(went, time.Now())
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	slices.Sort(turns)
	for i := 1; i < len(turns); i++ {
		if g := time.Duration(turns[i]-turns[i-1]) * time.Microsecond; g < d {
			t.Errorf("turn %d came %v after the one before, less than the crawl-delay %v", i, g, d)
		}
	}
	if len(turns) != n {
		t.Errorf("%d requests took a turn, want %d", len(turns), n)
	}
	sort.Slice(went, func(i, j int) bool { return went[i].Before(went[j]) })
	shortest := time.Duration(math.MaxInt64)
	for i := 1; i < len(went); i++ {
		shortest = min(shortest, went[i].Sub(went[i-1]))
	}
	t.Logf("the shortest gap between two returns of Wait: %v (crawl-delay %v)", shortest, d)
}

// TestPacer_CancelGivesBack checks that a waiter whose context ends gives
// its turn back when no turn was reserved after it: the next request is
// offered that turn, not the one after.
func TestPacer_CancelGivesBack(t *testing.T) {
	srv := startRedis(t)
	p := NewPacer(srv.Client(), Options{})
	const d = time.Minute
	bg := context.Background()
	if err := p.Wait(bg, "http://a.test", d); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(bg)
	done := make(chan error)
	go func() { done <- p.Wait(ctx, "http://a.test", d) }()
	waiting, stop := context.WithTimeout(bg, 10*time.Second)
	defer stop()
	for p.Stats().Waited == 0 {
		select {
		case <-waiting.Done():
			t.Fatal("the second waiter never started to wait for its turn")
		case <-time.After(time.Millisecond):
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled waiter: %v, want context.Canceled", err)
	}
	probe, pcancel := context.WithTimeout(bg, time.Second)
	defer pcancel()
	var cd *fetch.CrawlDelayError
	if err := p.Wait(probe, "http://a.test", d); !errors.As(err, &cd) || cd.Wait > d+time.Second {
		t.Errorf("probe: %v, want a *fetch.CrawlDelayError offering the turn given back (within %v)", err, d+time.Second)
	}
	if st := p.Stats(); st.GivenBack != 1 {
		t.Errorf("Stats() = %+v, want 1 turn given back", st)
	}
}

// TestPacer_Unavailable checks that with Redis down a Pacer says so at
// once (fetch.ErrPacerUnavailable), and that a Transport then paces on its
// own by the same rules.
func TestPacer_Unavailable(t *testing.T) {
	srv := startRedis(t)
	s := newSite(t, "User-agent: *\nCrawl-delay: 60\n")
	p := NewPacer(srv.Client(), Options{})
	tr := &fetch.Transport{Client: fetch.New(fetch.Options{}), Agent: "FooBot", CrawlDelay: true, Pacer: p}
	hc := &http.Client{Transport: tr}
	srv.Kill()
	for i, tt := range []struct {
		timeout time.Duration
		refused bool
	}{{time.Hour, false}, {time.Second, true}} {
		ctx, cancel := context.WithTimeout(context.Background(), tt.timeout)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/page", nil)
		resp, err := hc.Do(req)
		cancel()
		var cd *fetch.CrawlDelayError
		switch {
		case tt.refused && !errors.As(err, &cd):
			t.Errorf("request %d: %v, want a *fetch.CrawlDelayError from the Transport's own pacer", i, err)
		case !tt.refused && err != nil:
			t.Errorf("request %d: %v", i, err)
		case err == nil:
			resp.Body.Close()
		}
	}
	if st := tr.Stats(); st.PacerFallbacks != 2 || st.TooSoon != 1 {
		t.Errorf("Transport Stats() = %+v, want 2 fallbacks, 1 refused", st)
	}
	if st := p.Stats(); st.Unavailable != 2 {
		t.Errorf("Pacer Stats() = %+v, want 2 unavailable", st)
	}
}
