package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestTransport_WaitBeforeTheClock: more requests at once than turns fit
// in their time-out all go when each waits for its turn with Wait before
// its clock starts; without Wait, the ones whose turn comes after their
// deadline fail. The pacer keeps the crawl-delay between every two turns.
func TestTransport_WaitBeforeTheClock(t *testing.T) {
	d := 100 * time.Millisecond
	const n = 6
	timeout := 2*d + d/2 // three turns fit in it, not six
	s := newSite(t, 200, crawlDelayRobots(d))
	tr := &Transport{Client: New(Options{}), Agent: "FooBot", CrawlDelay: true}
	defer tr.Client.Close()
	var went []time.Time
	tr.pacerInit().went = func(at time.Time) { went = append(went, at) } // under the pacer's lock
	hc := &http.Client{Transport: tr, Timeout: timeout}
	get(t, hc, s.URL+"/first") // robots.txt fetched, the first turn taken

	for _, wait := range []bool{true, false} {
		went = went[:0]
		time.Sleep(d) // the turns of the last round have passed
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest(http.MethodGet, s.URL+"/page/"+strconv.Itoa(i), nil)
				if wait {
					turn, err := tr.Wait(req)
					if err != nil || turn == nil {
						errs[i] = errors.Join(err, errors.New("no turn"))
						return
					}
					req = req.WithContext(turn.Context(req.Context()))
				}
				resp, err := hc.Do(req) // the clock starts here
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		failed := 0
		for _, err := range errs {
			var cd *CrawlDelayError
			switch {
			case err == nil:
			case !wait && errors.As(err, &cd):
				failed++
			default:
				t.Errorf("wait %v: %v", wait, err)
			}
		}
		turns := went // no request is in flight
		for i := 1; i < len(turns); i++ {
			if g := turns[i].Sub(turns[i-1]); g < d {
				t.Errorf("wait %v: a gap of %v between two turns, less than the crawl-delay %v", wait, g, d)
			}
		}
		switch {
		case wait && (failed != 0 || len(turns) != n):
			t.Errorf("with Wait: %d of %d requests failed, %d turns taken; want none failed, %d turns", failed, n, len(turns), n)
		case !wait && failed == 0:
			t.Errorf("without Wait: no request failed; the test means more than fit in the time-out (%v at %v)", timeout, d)
		}
	}
	if st := tr.Stats(); st.TooSoon == 0 || st.Waited == 0 {
		t.Errorf("Stats = %+v", st)
	}
}

// TestTransport_WaitOnce: a turn lets one request of its Transport to its
// origin go without another wait: a second request with the same context
// waits for its own turn, and a turn taken at one origin or by one
// Transport is no turn at another or for another.
func TestTransport_WaitOnce(t *testing.T) {
	d := 200 * time.Millisecond
	s := newSite(t, 200, crawlDelayRobots(d))
	other := newSite(t, 200, crawlDelayRobots(d))
	c := New(Options{})
	defer c.Close()
	tr := &Transport{Client: c, Agent: "FooBot", CrawlDelay: true}
	tr2 := &Transport{Client: c, Agent: "FooBot", CrawlDelay: true}
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/a", nil)
	before := time.Now() // the turn is taken after it
	turn, err := tr.Wait(req)
	if err != nil || turn == nil {
		t.Fatalf("Wait = %v, %v", turn, err)
	}
	ctx := turn.Context(context.Background())
	// Another origin, and another Transport: their own turns (the first at
	// each, so at once), and the turn is still unused.
	for _, x := range []struct {
		tr *Transport
		u  string
	}{{tr, other.URL + "/b"}, {tr2, s.URL + "/c"}} {
		r, _ := http.NewRequestWithContext(ctx, http.MethodGet, x.u, nil)
		if _, err := x.tr.RoundTrip(r); err != nil {
			t.Fatal(err)
		}
	}
	if st, st2 := tr.Stats(), tr2.Stats(); st.Waited != 0 || st2.Waited != 0 || st.PacedHosts != 2 || st2.PacedHosts != 1 {
		t.Errorf("Stats %+v, %+v: want no waits, a turn taken at each origin", st, st2)
	}
	start := time.Now()
	r, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/a", nil)
	if _, err := tr.RoundTrip(r); err != nil { // the turn: at once
		t.Fatal(err)
	}
	if el := time.Since(start); el >= d {
		t.Errorf("the request with its turn waited %v", el)
	}
	if _, err := tr.RoundTrip(r); err != nil { // the turn is used: it waits
		t.Fatal(err)
	}
	if el := time.Since(before); el < d {
		t.Errorf("a second request with the same turn went after %v, less than the crawl-delay %v", el, d)
	}
	if st := tr.Stats(); st.Waited != 1 {
		t.Errorf("Stats %+v: want 1 wait", st)
	}
}

// TestTransport_WaitRefuses: Wait refuses what RoundTrip refuses, sending
// nothing, and takes no turn where there is none to take.
func TestTransport_WaitRefuses(t *testing.T) {
	s := newSite(t, 200, crawlDelayRobots(time.Minute))
	plain := newSite(t, 200, "User-agent: *\nDisallow: /private\n")
	c := New(Options{})
	defer c.Close()
	tr := &Transport{Client: c, Agent: "FooBot", CrawlDelay: true}
	wait := func(ctx context.Context, tr *Transport, u string) (*Turn, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		return tr.Wait(req)
	}
	bg := context.Background()
	var d *DisallowedError
	if turn, err := wait(bg, tr, s.URL+"/private/x"); !errors.As(err, &d) || turn != nil {
		t.Errorf("disallowed: %v, %v; want a *DisallowedError", turn, err)
	}
	if turn, err := wait(bg, tr, s.URL+"/first"); err != nil || turn == nil {
		t.Fatalf("the first turn: %v, %v", turn, err)
	}
	ctx, cancel := context.WithTimeout(bg, time.Second)
	defer cancel()
	var cd *CrawlDelayError
	if turn, err := wait(ctx, tr, s.URL+"/next"); !errors.As(err, &cd) || turn != nil {
		t.Errorf("a turn after the deadline: %v, %v; want a *CrawlDelayError", turn, err)
	}
	for _, x := range []struct {
		tr *Transport
		u  string
	}{
		{tr, plain.URL + "/page"},                                   // no crawl-delay
		{&Transport{Client: c, Agent: "FooBot"}, s.URL + "/page"},   // CrawlDelay off
		{tr, s.URL + "/robots.txt"},                                 // untouched by RoundTrip
		{&Transport{Client: c, Agent: "Foo/1.0"}, plain.URL + "/x"}, // no product token: an error
	} {
		turn, err := wait(bg, x.tr, x.u)
		if turn != nil || (err != nil) != (x.tr.Agent == "Foo/1.0") {
			t.Errorf("%s (Agent %q, CrawlDelay %v): %v, %v", x.u, x.tr.Agent, x.tr.CrawlDelay, turn, err)
		}
	}
	var none *Turn
	if none.Context(bg) != bg {
		t.Error("a nil turn's Context is not the context given")
	}
	if got := append(s.requested(), plain.requested()...); len(got) != 0 {
		t.Errorf("Wait sent %q", got)
	}
	if st := tr.Stats(); st.Disallowed != 1 || st.TooSoon != 1 {
		t.Errorf("Stats %+v: want 1 disallowed, 1 too soon", st)
	}
}
