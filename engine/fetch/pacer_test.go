package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

// recordingPacer is a Pacer that records what it is asked and answers
// with err.
type recordingPacer struct {
	mu    sync.Mutex
	calls []string
	err   error
}

func (p *recordingPacer) Wait(ctx context.Context, origin string, delay time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, fmt.Sprintf("%s %v", origin, delay))
	return p.err
}

// TestTransport_Pacer checks that a Transport with a Pacer asks it, with
// the request's origin and its crawl-delay, for the requests to origins
// with a crawl-delay only; and returns its *CrawlDelayError.
func TestTransport_Pacer(t *testing.T) {
	s := newSite(t, 200, crawlDelayRobots(3*time.Second))
	plain := newSite(t, 200, "User-agent: *\nDisallow: /private\n")
	p := &recordingPacer{}
	tr := &Transport{Client: New(Options{}), Agent: "FooBot", CrawlDelay: true, Pacer: p}
	hc := &http.Client{Transport: tr}
	get(t, hc, s.URL+"/a")
	get(t, hc, plain.URL+"/b")
	if want := []string{s.URL + " 3s"}; fmt.Sprint(p.calls) != fmt.Sprint(want) {
		t.Errorf("Pacer asked %q, want %q", p.calls, want)
	}
	p.err = &CrawlDelayError{Origin: s.URL, Delay: 3 * time.Second, Wait: time.Second}
	_, err := hc.Get(s.URL + "/c")
	var cd *CrawlDelayError
	if !errors.As(err, &cd) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error = %v, want the Pacer's *CrawlDelayError", err)
	}
	if st := tr.Stats(); st.TooSoon != 1 || st.PacerFallbacks != 0 || st.Waited != 0 {
		t.Errorf("Stats() = %+v, want 1 refused, no fallback", st)
	}
	if got := s.requested(); len(got) != 1 {
		t.Errorf("the server received %q, want only /a", got)
	}
}

// TestTransport_PacerUnavailable checks that a request whose Pacer is
// unavailable is paced by the Transport's own pacer, by its rules: the
// first request goes, the next one, whose deadline comes before its turn,
// is refused.
func TestTransport_PacerUnavailable(t *testing.T) {
	const delay = time.Minute
	s := newSite(t, 200, crawlDelayRobots(delay))
	p := &recordingPacer{err: fmt.Errorf("%w: the server is away", ErrPacerUnavailable)}
	tr := &Transport{Client: New(Options{}), Agent: "FooBot", CrawlDelay: true, Pacer: p}
	hc := &http.Client{Transport: tr}
	get(t, hc, s.URL+"/first")
	ctx, cancel := context.WithTimeout(context.Background(), delay/2)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/second", nil)
	_, err := hc.Do(req)
	var cd *CrawlDelayError
	if !errors.As(err, &cd) {
		t.Fatalf("error = %v, want a *CrawlDelayError from the Transport's own pacer", err)
	}
	if st := tr.Stats(); st.PacerFallbacks != 2 || st.TooSoon != 1 || st.PacedHosts != 1 {
		t.Errorf("Stats() = %+v, want 2 fallbacks, 1 refused, 1 paced host", st)
	}
}
