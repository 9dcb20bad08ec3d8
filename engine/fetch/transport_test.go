package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

// site is a loopback test site: it serves a robots.txt that a test can
// change, redirects /redirect?to=PATH, answers "ok" to every other path, and
// records the page requests (everything but /robots.txt) it receives.
type site struct {
	*server
	mu           sync.Mutex
	robotsStatus int
	robotsBody   string
	pages        []string // "METHOD /path" of each page request
	robots       atomic.Int64
}

func newSite(t *testing.T, status int, robots string) *site {
	t.Helper()
	s := &site{robotsStatus: status, robotsBody: robots}
	s.server = newServer(t, s.serve)
	return s
}

func (s *site) set(status int, robots string) {
	s.mu.Lock()
	s.robotsStatus, s.robotsBody = status, robots
	s.mu.Unlock()
}

func (s *site) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/robots.txt" {
		s.robots.Add(1)
		s.mu.Lock()
		status, body := s.robotsStatus, s.robotsBody
		s.mu.Unlock()
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
		return
	}
	s.mu.Lock()
	s.pages = append(s.pages, r.Method+" "+r.URL.Path)
	s.mu.Unlock()
	if r.URL.Path == "/redirect" {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
		return
	}
	_, _ = io.WriteString(w, "ok")
}

// requested returns the page requests s received.
func (s *site) requested() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.pages...)
}

// wantNoPage fails the test if s received a request for a path with prefix.
func (s *site) wantNoPage(t *testing.T, prefix string) {
	t.Helper()
	for _, p := range s.requested() {
		if _, path, _ := strings.Cut(p, " "); strings.HasPrefix(path, prefix) {
			t.Errorf("the server received %q, which robots.txt disallows", p)
		}
	}
}

// get fetches u with hc and returns the body; it fails the test on an error.
func get(t *testing.T, hc *http.Client, u string) string {
	t.Helper()
	resp, err := hc.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: reading body: %v", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d", u, resp.StatusCode)
	}
	return string(b)
}

// wantDisallowed fails the test unless err is a *DisallowedError, and
// returns it.
func wantDisallowed(t *testing.T, err error) *DisallowedError {
	t.Helper()
	var d *DisallowedError
	if !errors.As(err, &d) {
		t.Fatalf("error = %v, want a *DisallowedError", err)
	}
	return d
}

// closeTracker is a request body that records whether it was closed.
type closeTracker struct {
	io.Reader
	closed atomic.Bool
}

func (c *closeTracker) Close() error { c.closed.Store(true); return nil }

func TestTransport_AllowedAndDisallowed(t *testing.T) {
	s := newSite(t, 200, "User-agent: *\nDisallow: /private\n")
	tr := &Transport{Client: New(Options{}), Agent: "FooBot"}
	hc := &http.Client{Transport: tr}

	if got := get(t, hc, s.URL+"/public"); got != "ok" {
		t.Errorf("body = %q, want ok", got)
	}
	_, err := hc.Get(s.URL + "/private/x")
	d := wantDisallowed(t, err)
	if d.URL != s.URL+"/private/x" || d.Method != "GET" || d.Agent != "FooBot" {
		t.Errorf("DisallowedError = {URL %q, Method %q, Agent %q}", d.URL, d.Method, d.Agent)
	}
	if d.Decision.Allowed || d.Decision.Reason != engine.ReasonRule || d.Decision.Rule.Line != 2 || d.Decision.Rule.Value != "/private" {
		t.Errorf("Decision = %+v, want line 2 disallow /private", d.Decision)
	}
	if d.Result.Source != Cached || d.Result.Status != 200 || d.Result.RobotsURL != s.URL+"/robots.txt" {
		t.Errorf("Result = {Source %v, Status %d, RobotsURL %q}", d.Result.Source, d.Result.Status, d.Result.RobotsURL)
	}
	// The message says the URL once (issue 31: net/http's *url.Error
	// starts with it, and the DisallowedError repeated it).
	want := `Get "` + s.URL + `/private/x": robots.txt disallows it for FooBot: ` + s.URL + "/robots.txt line 2: disallow /private"
	if err.Error() != want {
		t.Errorf("Error() = %q\nwant      %q", err.Error(), want)
	}

	// Every method is checked.
	for _, m := range []string{http.MethodHead, http.MethodPost, http.MethodPut, http.MethodDelete} {
		req, _ := http.NewRequest(m, s.URL+"/private/form", strings.NewReader("a=1"))
		_, err := hc.Do(req)
		if d := wantDisallowed(t, err); d.Method != m {
			t.Errorf("Method = %q, want %q", d.Method, m)
		}
		req, _ = http.NewRequest(m, s.URL+"/form", strings.NewReader("a=1"))
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatalf("%s /form: %v", m, err)
		}
		resp.Body.Close()
	}

	s.wantNoPage(t, "/private")
	if n := len(s.requested()); n != 5 {
		t.Errorf("the server received %d page requests (%q), want 5", n, s.requested())
	}
	if n := s.robots.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times, want 1", n)
	}
	if st := tr.Stats(); st.Disallowed != 5 {
		t.Errorf("Stats().Disallowed = %d, want 5", st.Disallowed)
	}
}

// TestTransport_RoundTripContract checks the http.RoundTripper contract: the
// request is not modified, and its body is closed also when it is not sent.
func TestTransport_RoundTripContract(t *testing.T) {
	s := newSite(t, 200, "User-agent: *\nDisallow: /private\nCrawl-delay: 60\n")
	tr := &Transport{Client: New(Options{}), Agent: "FooBot", CrawlDelay: true}

	snapshot := func(r *http.Request) string {
		return fmt.Sprint(r.Method, " ", r.URL.String(), " ", r.Host, " ", r.Header, " ", r.ContentLength, " ", r.Context())
	}
	for _, path := range []string{"/public", "/private"} {
		body := &closeTracker{Reader: strings.NewReader("a=1")}
		req, _ := http.NewRequest(http.MethodPost, s.URL+path, body)
		req.Header.Set("X-Test", "1")
		before := snapshot(req)
		resp, err := tr.RoundTrip(req)
		if after := snapshot(req); after != before {
			t.Errorf("%s: RoundTrip modified the request:\n%s\n%s", path, before, after)
		}
		if path == "/private" {
			wantDisallowed(t, err)
			if !body.closed.Load() {
				t.Errorf("%s: the body of a refused request was not closed", path)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		resp.Body.Close()
	}

	// A request whose context ends while it waits for its crawl-delay slot.
	body := &closeTracker{Reader: strings.NewReader("a=1")}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/public", body)
	if _, err := tr.RoundTrip(req); !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
	if !body.closed.Load() {
		t.Error("the body of a cancelled request was not closed")
	}
	s.wantNoPage(t, "/private")

	// Without a Client.
	body = &closeTracker{Reader: strings.NewReader("a=1")}
	req, _ = http.NewRequest(http.MethodPost, s.URL+"/public", body)
	if _, err := (&Transport{}).RoundTrip(req); err == nil || !body.closed.Load() {
		t.Errorf("nil Client: error %v, body closed %v; want an error and a closed body", err, body.closed.Load())
	}
}

// TestRFC9309_TransportRobotsTxtPassesThrough checks that /robots.txt itself
// is fetched without being checked (RFC 9309 section 2.2.2: it is always
// allowed), also when robots.txt disallows everything.
func TestRFC9309_TransportRobotsTxtPassesThrough(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /\n"
	s := newSite(t, 200, rules)
	c := New(Options{})
	hc := &http.Client{Transport: &Transport{Client: c, Agent: "FooBot", CrawlDelay: true}}
	if got := get(t, hc, s.URL+"/robots.txt"); got != rules {
		t.Errorf("body = %q, want %q", got, rules)
	}
	if st := c.Stats(); st.Fetches != 0 || st.Misses != 0 {
		t.Errorf("the Client was consulted for /robots.txt: %+v", st)
	}
	_, err := hc.Get(s.URL + "/")
	wantDisallowed(t, err)
	if n := len(s.requested()); n != 0 {
		t.Errorf("the server received %q", s.requested())
	}
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestTransport_OtherSchemesGoToBase(t *testing.T) {
	c := New(Options{})
	var got []*http.Request
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = append(got, r)
		return &http.Response{StatusCode: 200, Body: http.NoBody, Request: r}, nil
	})
	tr := &Transport{Client: c, Agent: "FooBot", Base: base, CrawlDelay: true}
	for _, u := range []string{"ftp://ftp.example/private", "file:///etc/hosts", "gopher://example/1"} {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		if _, err := tr.RoundTrip(req); err != nil {
			t.Errorf("%s: %v", u, err)
		}
		if len(got) == 0 || got[len(got)-1] != req {
			t.Errorf("%s: Base did not receive the request itself", u)
		}
	}
	if st := c.Stats(); st.Misses != 0 {
		t.Errorf("the Client was consulted: %+v", st)
	}
}

// TestTransport_Redirect checks that a redirect the http.Client follows is
// checked like any request.
func TestTransport_Redirect(t *testing.T) {
	s := newSite(t, 200, "User-agent: *\nDisallow: /private\n")
	hc := &http.Client{Transport: &Transport{Client: New(Options{}), Agent: "FooBot"}}

	if got := get(t, hc, s.URL+"/redirect?to=/public"); got != "ok" {
		t.Errorf("allowed redirect: body %q, want ok", got)
	}
	_, err := hc.Get(s.URL + "/redirect?to=/private/secret")
	if d := wantDisallowed(t, err); d.URL != s.URL+"/private/secret" {
		t.Errorf("URL = %q, want the redirect's target", d.URL)
	}
	s.wantNoPage(t, "/private")
	want := []string{"GET /redirect", "GET /public", "GET /redirect"}
	if got := s.requested(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the server received %q, want %q", got, want)
	}
}

// TestRFC9309_Transport5xx checks RFC 9309 section 2.3.1.4: an unreachable
// robots.txt disallows everything, unless a cached copy is used.
func TestRFC9309_Transport5xx(t *testing.T) {
	s := newSite(t, http.StatusServiceUnavailable, "down")
	hc := &http.Client{Transport: &Transport{Client: New(Options{}), Agent: "FooBot"}}
	_, err := hc.Get(s.URL + "/public")
	d := wantDisallowed(t, err)
	if d.Result.Source != UnreachableDefault || d.Result.Status != 503 || d.Decision.Reason != engine.ReasonDisallowAll {
		t.Errorf("Result.Source %v, Status %d, Reason %v; want unreachable-default, 503, disallow-all", d.Result.Source, d.Result.Status, d.Decision.Reason)
	}
	if msg := d.Error(); !strings.Contains(msg, "unreachable-default") || !strings.Contains(msg, "503") {
		t.Errorf("Error() = %q, want it to say the file is unreachable and why", msg)
	}
	if n := len(s.requested()); n != 0 {
		t.Errorf("the server received %q", s.requested())
	}

	// A copy fetched before the failure decides while the file is down.
	clk := newClock()
	s2 := newSite(t, 200, "User-agent: *\nDisallow: /private\n")
	c := New(Options{Now: clk.Now})
	hc = &http.Client{Transport: &Transport{Client: c, Agent: "FooBot"}}
	get(t, hc, s2.URL+"/public")
	clk.Advance(DefaultTTL + time.Hour)
	s2.set(http.StatusInternalServerError, "down")
	get(t, hc, s2.URL+"/public")
	_, err = hc.Get(s2.URL + "/private")
	if d := wantDisallowed(t, err); d.Result.Source != Stale || d.Decision.Rule.Line != 2 {
		t.Errorf("Result.Source %v, rule line %d; want stale, 2", d.Result.Source, d.Decision.Rule.Line)
	}
	s2.wantNoPage(t, "/private")
	if n := s2.robots.Load(); n != 2 {
		t.Errorf("robots.txt fetched %d times, want 2", n)
	}
}

// TestRFC9309_Transport404 checks RFC 9309 section 2.3.1.3: without a
// robots.txt everything is allowed.
func TestRFC9309_Transport404(t *testing.T) {
	s := newSite(t, http.StatusNotFound, "not found")
	hc := &http.Client{Transport: &Transport{Client: New(Options{}), Agent: "FooBot", CrawlDelay: true}}
	for _, p := range []string{"/private/x", "/", "/a?b"} {
		get(t, hc, s.URL+p)
	}
	if n := len(s.requested()); n != 3 {
		t.Errorf("the server received %q, want 3 requests", s.requested())
	}
}

// TestTransport_NoRecursion checks that a Client whose HTTPClient is built on
// the Transport fetches robots.txt through it without being checked, also
// when the robots.txt redirects to another path or host.
func TestTransport_NoRecursion(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /private\n"
	// other's robots.txt disallows everything, /rules.txt included: a
	// redirect to it passes only unchecked.
	other := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /\n")
			return
		}
		_, _ = io.WriteString(w, rules)
	})
	for _, tc := range []struct{ name, target string }{
		{"same-host", "/rules.txt"},
		{"other-host", other.URL + "/rules.txt"},
	} {
		target := tc.target
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/robots.txt":
					http.Redirect(w, r, target, http.StatusMovedPermanently)
				case "/rules.txt":
					_, _ = io.WriteString(w, rules)
				default:
					_, _ = io.WriteString(w, "ok")
				}
			})
			tr := &Transport{Agent: "FooBot", CrawlDelay: true}
			// Short enough that a fetch which waited for itself would
			// fail the test quickly (as an unreachable robots.txt).
			tr.Client = New(Options{HTTPClient: &http.Client{Transport: tr}, Timeout: 5 * time.Second})
			hc := &http.Client{Transport: tr}

			get(t, hc, s.URL+"/public")
			_, err := hc.Get(s.URL + "/private")
			d := wantDisallowed(t, err)
			if d.Result.Source != Cached || d.Result.Redirects != 1 || d.Decision.Rule.Line != 2 {
				t.Errorf("Result.Source %v (err %v), Redirects %d, rule line %d; want cached, 1, 2",
					d.Result.Source, d.Result.Err, d.Result.Redirects, d.Decision.Rule.Line)
			}
			if st := tr.Client.Stats(); st.Fetches != 1 {
				t.Errorf("Fetches = %d, want 1", st.Fetches)
			}
		})
	}
}

// paceDelay is the crawl-delay of the pacing tests: a second, or a quarter
// of one with -short.
func paceDelay() time.Duration {
	if testing.Short() {
		return 250 * time.Millisecond
	}
	return time.Second
}

func crawlDelayRobots(d time.Duration) string {
	return "User-agent: *\nDisallow: /private\nCrawl-delay: " + strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "\n"
}

func TestTransport_CrawlDelay(t *testing.T) {
	d := paceDelay()
	s := newSite(t, 200, crawlDelayRobots(d))
	tr := &Transport{Client: New(Options{}), Agent: "FooBot", CrawlDelay: true}
	hc := &http.Client{Transport: tr}
	start := time.Now()
	for i := 0; i < 3; i++ {
		get(t, hc, s.URL+"/page/"+strconv.Itoa(i))
	}
	if el := time.Since(start); el < 2*d {
		t.Errorf("three requests took %v, want at least %v (crawl-delay %v)", el, 2*d, d)
	}
	if st := tr.Stats(); st.Waited != 2 || st.PacedHosts != 1 {
		t.Errorf("Stats() = %+v, want 2 waits on 1 host", st)
	}

	// Without CrawlDelay, the same site is not slowed.
	tr2 := &Transport{Client: tr.Client, Agent: "FooBot"}
	hc = &http.Client{Transport: tr2}
	for i := 0; i < 3; i++ {
		get(t, hc, s.URL+"/page/"+strconv.Itoa(i))
	}
	if st := tr2.Stats(); st.Waited != 0 || st.PacedHosts != 0 {
		t.Errorf("without CrawlDelay: Stats() = %+v, want no waits", st)
	}
}

func TestTransport_NoCrawlDelayNotSlowed(t *testing.T) {
	s := newSite(t, 200, "User-agent: *\nDisallow: /private\n\nUser-agent: OtherBot\nCrawl-delay: 60\n")
	tr := &Transport{Client: New(Options{}), Agent: "FooBot", CrawlDelay: true}
	hc := &http.Client{Transport: tr}
	for i := 0; i < 5; i++ {
		get(t, hc, s.URL+"/page/"+strconv.Itoa(i))
	}
	if st := tr.Stats(); st.Waited != 0 || st.PacedHosts != 0 {
		t.Errorf("Stats() = %+v, want no waits and no paced hosts", st)
	}
}

// TestTransport_CrawlDelayHostsInParallel checks that pacing one host does
// not hold up another: hosts requests in parallel, two per host, take about
// one crawl-delay; serialised they would take 2*hosts-1.
func TestTransport_CrawlDelayHostsInParallel(t *testing.T) {
	const hosts = 6
	d := paceDelay()
	s := newSite(t, 200, crawlDelayRobots(d))
	base := routingTransport(s.Listener.Addr().String())
	t.Cleanup(base.CloseIdleConnections)
	tr := &Transport{Client: New(Options{HTTPClient: &http.Client{Transport: base}}), Agent: "FooBot", Base: base, CrawlDelay: true}
	hc := &http.Client{Transport: tr}

	start := time.Now()
	var wg sync.WaitGroup
	for h := 0; h < hosts; h++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2; i++ {
				get(t, hc, fmt.Sprintf("http://h%d.test/page/%d", h, i))
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	if el < d {
		t.Errorf("took %v, want at least one crawl-delay (%v)", el, d)
	}
	// Generous: serialised would take at least 11 delays.
	if el >= 5*d {
		t.Errorf("%d hosts in parallel took %v: pacing serialised them (crawl-delay %v)", hosts, el, d)
	}
	if st := tr.Stats(); st.Waited != hosts || st.PacedHosts != hosts {
		t.Errorf("Stats() = %+v, want %d waits on %d hosts", st, hosts, hosts)
	}
}

func TestTransport_CrawlDelayCancel(t *testing.T) {
	s := newSite(t, 200, crawlDelayRobots(60*time.Second))
	tr := &Transport{Client: New(Options{}), Agent: "FooBot", CrawlDelay: true}
	hc := &http.Client{Transport: tr}
	get(t, hc, s.URL+"/first")

	ctx, cancel := context.WithCancel(context.Background())
	start := time.Now()
	time.AfterFunc(50*time.Millisecond, cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/second", nil)
	_, err := hc.Do(req)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	// Generous: the wait was for 60 s.
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("the cancelled request returned after %v", el)
	}
	if got := s.requested(); len(got) != 1 {
		t.Errorf("the server received %q, want only the first request", got)
	}
}

// TestTransport_Concurrent sends 1,000 requests at once to 50 hosts (names
// routed to one loopback server): one robots.txt fetch per host, and no
// disallowed URL reaches the server.
func TestTransport_Concurrent(t *testing.T) {
	const hosts, requests = 50, 1000
	var (
		mu      sync.Mutex
		fetches = map[string]int{}
		leaked  atomic.Int64
		pages   atomic.Int64
	)
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			mu.Lock()
			fetches[r.Host]++
			mu.Unlock()
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private\n")
		case strings.HasPrefix(r.URL.Path, "/private"):
			leaked.Add(1)
		default:
			pages.Add(1)
			_, _ = io.WriteString(w, "ok")
		}
	})
	base := routingTransport(s.Listener.Addr().String())
	base.MaxConnsPerHost = 4 // 200 connections at most
	t.Cleanup(base.CloseIdleConnections)
	c := New(Options{HTTPClient: &http.Client{Transport: base}})
	tr := &Transport{Client: c, Agent: "FooBot", Base: base, CrawlDelay: true}
	hc := &http.Client{Transport: tr}

	var wg sync.WaitGroup
	var disallowed, allowed atomic.Int64
	start := make(chan struct{})
	for i := 0; i < requests; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			path := "/page/"
			if i%3 == 0 {
				path = "/private/"
			}
			u := fmt.Sprintf("http://h%d.test%s%d", i%hosts, path, i)
			resp, err := hc.Get(u)
			var d *DisallowedError
			switch {
			case errors.As(err, &d):
				disallowed.Add(1)
			case err != nil:
				t.Errorf("GET %s: %v", u, err)
			default:
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				allowed.Add(1)
			}
		}()
	}
	close(start)
	wg.Wait()

	wantDisallowed := int64((requests + 2) / 3)
	if disallowed.Load() != wantDisallowed || allowed.Load() != requests-wantDisallowed {
		t.Errorf("%d disallowed, %d allowed; want %d, %d", disallowed.Load(), allowed.Load(), wantDisallowed, requests-wantDisallowed)
	}
	if n := leaked.Load(); n != 0 {
		t.Errorf("%d disallowed requests reached the server", n)
	}
	if n := pages.Load(); n != allowed.Load() {
		t.Errorf("the server received %d pages, want %d", n, allowed.Load())
	}
	if len(fetches) != hosts {
		t.Errorf("robots.txt fetched for %d hosts, want %d", len(fetches), hosts)
	}
	for h, n := range fetches {
		if n != 1 {
			t.Errorf("robots.txt of %s fetched %d times, want 1", h, n)
		}
	}
	if st := c.Stats(); st.Fetches != hosts {
		t.Errorf("Client.Stats().Fetches = %d, want %d", st.Fetches, hosts)
	}
}

// TestPacer_Turns checks the pacer's turns: the first request to an origin
// goes at once, the next is refused when its deadline comes before its
// turn, and another origin is not held up.
func TestPacer_Turns(t *testing.T) {
	p := &pacer{max: 10, hosts: map[string]*paceSlot{}}
	const d = time.Hour
	bg := context.Background()
	if err := p.wait(bg, "a", d); err != nil {
		t.Fatalf("first request: %v", err)
	}
	ctx, cancel := context.WithTimeout(bg, time.Minute)
	defer cancel()
	for i := 0; i < 3; i++ {
		var cd *CrawlDelayError
		if err := p.wait(ctx, "a", d); !errors.As(err, &cd) || cd.Wait <= d-time.Minute || cd.Wait > d {
			t.Fatalf("second request: %v, want a *CrawlDelayError with a wait of about %v", err, d)
		}
	}
	if err := p.wait(ctx, "b", d); err != nil {
		t.Errorf("another origin: %v", err)
	}
	if len(p.hosts) != 2 || p.waited != 0 || len(p.idle) != 2 {
		t.Errorf("%d hosts, %d waited, %d idle; want 2, 0, 2", len(p.hosts), p.waited, len(p.idle))
	}
}

func TestPacer_Bounded(t *testing.T) {
	const maxHosts = 100
	p := &pacer{max: maxHosts, hosts: map[string]*paceSlot{}}
	bg := context.Background()

	// A crawl over many hosts with a second's delay: every host is
	// remembered for a second, far more than the bound.
	for i := 0; i < 20000; i++ {
		if err := p.wait(bg, "http://h"+strconv.Itoa(i)+".test", time.Second); err != nil {
			t.Fatal(err)
		}
		if len(p.hosts) > maxHosts || len(p.idle) != len(p.hosts) {
			t.Fatalf("after %d hosts: %d hosts, %d idle, want at most %d", i+1, len(p.hosts), len(p.idle), maxHosts)
		}
	}
	if p.forgotten == 0 {
		t.Error("no host was forgotten early, want the excess counted")
	}

	// Hosts whose delay has passed are forgotten first, and not counted.
	p = &pacer{max: maxHosts, hosts: map[string]*paceSlot{}}
	for i := 0; i < 10*maxHosts; i++ {
		if err := p.wait(bg, "http://h"+strconv.Itoa(i)+".test", time.Nanosecond); err != nil {
			t.Fatal(err)
		}
	}
	if p.forgotten != 0 || len(p.hosts) > 2 {
		t.Errorf("forgotten %d, %d hosts kept; want 0 and at most 2", p.forgotten, len(p.hosts))
	}
}

// TestTransport_PaceGaps checks that no two requests to an origin go to
// Base less than the crawl-delay apart, however many workers ask at once:
// the time a request goes is read under the pacer's lock, when it wakes.
func TestTransport_PaceGaps(t *testing.T) {
	d, n := 50*time.Millisecond, 40
	if testing.Short() {
		d, n = 20*time.Millisecond, 40
	}
	var mu sync.Mutex
	var went, sent []time.Time
	s := newSite(t, 200, crawlDelayRobots(d))
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		sent = append(sent, time.Now())
		mu.Unlock()
		return &http.Response{StatusCode: 200, Body: http.NoBody, Request: r}, nil
	})
	c := New(Options{})
	tr := &Transport{Client: c, Agent: "FooBot", Base: base, CrawlDelay: true}
	// The pacer's own times, read under its lock: what the turns are
	// counted from. The Base sees them later, by however long the
	// goroutine takes to be scheduled.
	p := tr.pacerInit()
	p.went = func(at time.Time) { went = append(went, at) }
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				req, _ := http.NewRequest(http.MethodGet, s.URL+"/page", nil)
				if _, err := tr.RoundTrip(req); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	gaps := func(ts []time.Time) (short int, shortest time.Duration) {
		shortest = time.Hour
		for i := 1; i < len(ts); i++ {
			g := ts[i].Sub(ts[i-1])
			shortest = min(shortest, g)
			if g < d {
				short++
			}
		}
		return short, shortest
	}
	if len(went) != n {
		t.Fatalf("the pacer let %d requests go, want %d", len(went), n)
	}
	if short, shortest := gaps(went); short > 0 {
		t.Errorf("%d of %d gaps shorter than the crawl-delay %v (shortest %v)", short, n-1, d, shortest)
	}
	_, atBase := gaps(sent)
	t.Logf("shortest gap %v as the Base saw the requests (scheduling adds its jitter)", atBase)
}

// idleCloser is a Base that counts CloseIdleConnections calls.
type idleCloser struct {
	roundTripFunc
	closes atomic.Int64
}

func (c *idleCloser) CloseIdleConnections() { c.closes.Add(1) }

func TestTransport_CloseIdleConnections(t *testing.T) {
	base := &idleCloser{}
	hc := &http.Client{Transport: &Transport{Client: New(Options{}), Base: base}}
	hc.CloseIdleConnections()
	if n := base.closes.Load(); n != 1 {
		t.Errorf("Base.CloseIdleConnections called %d times, want 1", n)
	}
	(&Transport{}).CloseIdleConnections() // http.DefaultTransport: no panic
}

// queuedWaiters waits, within ctx, until tr counts n requests that waited
// for their crawl-delay slot.
func queuedWaiters(ctx context.Context, t *testing.T, tr *Transport, n int64) {
	t.Helper()
	for tr.Stats().Waited < n {
		select {
		case <-ctx.Done():
			t.Fatalf("%d waiters, want %d", tr.Stats().Waited, n)
		case <-time.After(time.Millisecond):
		}
	}
}

// TestTransport_PaceDeadlineBeforeSlot checks that a request whose
// deadline comes before its crawl-delay slot fails at once with a
// *CrawlDelayError, which is a deadline error, without taking the slot: the
// next request is offered the same one.
func TestTransport_PaceDeadlineBeforeSlot(t *testing.T) {
	const delay = 60 * time.Second
	s := newSite(t, 200, crawlDelayRobots(delay))
	tr := &Transport{Client: New(Options{}), Agent: "FooBot", CrawlDelay: true}
	hc := &http.Client{Transport: tr}
	get(t, hc, s.URL+"/first")

	var waits []time.Duration
	for i := 0; i < 3; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), delay/2)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/soon", nil)
		_, err := hc.Do(req)
		cancel()
		var cd *CrawlDelayError
		if !errors.As(err, &cd) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("error = %v, want a *CrawlDelayError that is a deadline error", err)
		}
		if cd.Origin != s.URL || cd.Delay != delay || cd.Wait <= delay/2 || cd.Wait > delay {
			t.Errorf("CrawlDelayError = %+v, want origin %s, delay %v, a wait past the deadline", cd, s.URL, delay)
		}
		waits = append(waits, cd.Wait)
	}
	// Nothing was reserved: each was offered the slot after /first.
	if !(waits[2] <= waits[1] && waits[1] <= waits[0]) {
		t.Errorf("waits offered %v: the refused requests took slots", waits)
	}
	if st := tr.Stats(); st.Waited != 0 || st.TooSoon != 3 {
		t.Errorf("Stats() = %+v, want no waits and 3 refused", st)
	}
	if got := s.requested(); len(got) != 1 {
		t.Errorf("the server received %q, want only the first request", got)
	}
}

// TestTransport_PaceCancelGivesBack checks that a waiter whose context ends
// gives its slot back, wherever it is in the queue: the requests behind it
// move up.
func TestTransport_PaceCancelGivesBack(t *testing.T) {
	const delay = 60 * time.Second
	s := newSite(t, 200, crawlDelayRobots(delay))
	tr := &Transport{Client: New(Options{}), Agent: "FooBot", CrawlDelay: true}
	hc := &http.Client{Transport: tr}
	get(t, hc, s.URL+"/first")

	ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
	defer cancel()
	// Three waiters, queued in turn; the first two are then cancelled.
	var cancels []context.CancelFunc
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := 0; i < 3; i++ {
		wctx, wcancel := context.WithCancel(context.Background())
		cancels = append(cancels, wcancel)
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(wctx, http.MethodGet, s.URL+"/waiter/"+strconv.Itoa(i), nil)
			_, errs[i] = hc.Do(req)
		}()
		queuedWaiters(ctx, t, tr, int64(i+1))
	}
	cancels[0]()
	cancels[1]()
	// A probe with a short deadline is refused; the wait it is offered
	// says where the queue ends: after the third waiter, two delays after
	// /first, not four.
	probe, pcancel := context.WithTimeout(context.Background(), time.Second)
	defer pcancel()
	var cd *CrawlDelayError
	for {
		req, _ := http.NewRequestWithContext(probe, http.MethodGet, s.URL+"/probe", nil)
		_, err := hc.Do(req)
		if !errors.As(err, &cd) {
			t.Fatalf("probe: %v, want a *CrawlDelayError", err)
		}
		if cd.Wait <= 2*delay || ctx.Err() != nil {
			break
		}
		// The cancelled waiters may not have left yet.
		select {
		case <-ctx.Done():
		case <-time.After(time.Millisecond):
		}
	}
	if cd.Wait > 2*delay {
		t.Errorf("the probe is offered a slot in %v, want at most %v: the cancelled waiters kept theirs", cd.Wait, 2*delay)
	}
	cancels[2]()
	wg.Wait()
	for i, err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("waiter %d: %v, want context.Canceled", i, err)
		}
	}
	if got := s.requested(); len(got) != 1 {
		t.Errorf("the server received %q, want only the first request", got)
	}
}

// TestTransport_PaceNoStarvation runs eight workers against one host with a
// crawl-delay, each request with a deadline of one and a half delays, and
// checks that the host keeps being served: requests that cannot have a slot
// in time are refused at once instead of reserving slots nobody uses.
func TestTransport_PaceNoStarvation(t *testing.T) {
	d := 200 * time.Millisecond
	slots := 15
	if testing.Short() {
		d, slots = 100*time.Millisecond, 10
	}
	s := newSite(t, 200, crawlDelayRobots(d))
	tr := &Transport{Client: New(Options{}), Agent: "FooBot", CrawlDelay: true}
	hc := &http.Client{Transport: tr}
	get(t, hc, s.URL+"/first")

	run, cancel := context.WithTimeout(context.Background(), time.Duration(slots)*d)
	defer cancel()
	var ok atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; run.Err() == nil; i++ {
				ctx, cancel := context.WithTimeout(run, d*3/2)
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/w%d/%d", s.URL, w, i), nil)
				resp, err := hc.Do(req)
				cancel()
				var cd *CrawlDelayError
				switch {
				case err == nil:
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					ok.Add(1)
				case errors.As(err, &cd):
					// Refused at once: ask again a little later, as a
					// crawler would, rather than spin.
					select {
					case <-run.Done():
					case <-time.After(min(cd.Wait, d/4)):
					}
				}
			}
		}()
	}
	wg.Wait()
	// About one request a delay succeeds; a third is plenty of slack for
	// a loaded machine, and starvation gives 2 or 3.
	if got := ok.Load(); got < int64(slots/3) {
		t.Errorf("%d requests succeeded in %d crawl-delays, want at least %d: the host starved (stats %+v)", got, slots, slots/3, tr.Stats())
	}
}
