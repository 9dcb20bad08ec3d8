package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
	"github.com/seed-275a9bd5/robotstxt/internal/race"
)

// fileServer serves files[i] as the robots.txt of the host fi.test (i in
// decimal), each its own origin, from one loopback server: the Client's
// transport sends every request to it as to an HTTP proxy, so that the
// origins share its connections (thousands of origins would otherwise
// open a connection each).
func fileServer(t testing.TB, files [][]byte) *http.Client {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var i int
		if _, err := fmt.Sscanf(r.Host, "f%d.test", &i); err != nil || i < 0 || i >= len(files) || r.URL.Path != robotsPath {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(files[i])
	}))
	t.Cleanup(s.Close)
	proxy, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
}

// pathOf returns the path and query of u, an absolute URL of gen.URLs.
func pathOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "/"
	}
	return p.RequestURI()
}

// agentsFiles returns the files TestClient_Agents_SameDecisions compares
// on: generated ones, and up to 40 corpus files when there is a corpus.
func agentsFiles(t *testing.T) [][]byte {
	var files [][]byte
	for seed := int64(1); seed <= 6; seed++ {
		files = append(files, gen.Robots(200, seed, seed%2 == 0))
	}
	dir := corpus.Dir(t)
	if dir == "" {
		t.Log("no corpus: generated files only")
		return files
	}
	fs, err := corpus.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	step := max(1, len(fs)/40)
	for i := 0; i < len(fs); i += step {
		b, err := os.ReadFile(fs[i].Path)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	return files
}

// TestClient_Agents_SameDecisions checks that a Client with Options.Agents
// decides as one without, for its crawler, in each semantics: Decide and
// Usage for one token, Matcher for two, over generated files and corpus
// files.
func TestClient_Agents_SameDecisions(t *testing.T) {
	files := agentsFiles(t)
	t.Logf("%d files", len(files))
	hc := fileServer(t, files)
	ctx := context.Background()
	urlsPer := 40
	if testing.Short() {
		urlsPer = 10
	}
	for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
		eo := engine.Options{Semantics: sem}
		whole := New(Options{Engine: eo, HTTPClient: hc})
		one := New(Options{Engine: eo, HTTPClient: hc, Agents: []string{"Googlebot"}})
		two := New(Options{Engine: eo, HTTPClient: hc, Agents: []string{"Googlebot-Image", "Googlebot"}})
		for i, body := range files {
			host := fmt.Sprintf("http://f%d.test", i)
			for _, u := range gen.URLs(body, urlsPer, int64(i)) {
				pu := host + pathOf(u)
				want, wres, err := whole.Decide(ctx, "Googlebot", pu)
				if err != nil {
					t.Fatal(err)
				}
				got, gres, err := one.Decide(ctx, "Googlebot", pu)
				if err != nil {
					t.Fatal(err)
				}
				if want != got {
					t.Fatalf("%s, file %d, %s: with Agents %+v, without %+v", sem, i, pu, got, want)
				}
				if wres.Source != Cached && wres.Source != Fetched {
					t.Fatalf("%s, file %d: source %v (status %d): the file was not served", sem, i, wres.Source, wres.Status)
				}
				if gres.Robots != nil || gres.Matcher == nil || wres.Matcher != nil || wres.Robots == nil {
					t.Fatalf("%s, file %d: Robots %v and Matcher %v with Agents; %v and %v without", sem, i, gres.Robots, gres.Matcher, wres.Robots, wres.Matcher)
				}
				wu, _, _ := whole.Usage(ctx, "Googlebot", pu, nil)
				gu, _, _ := one.Usage(ctx, "Googlebot", pu, nil)
				if wu != gu {
					t.Fatalf("%s, file %d, %s: usage with Agents %+v, without %+v", sem, i, pu, gu, wu)
				}
				wm, _, err := whole.Matcher(ctx, pu, "Googlebot-Image", "Googlebot")
				if err != nil {
					t.Fatal(err)
				}
				gm, _, err := two.Matcher(ctx, pu, "Googlebot-Image", "Googlebot")
				if err != nil {
					t.Fatal(err)
				}
				if w, g := wm.Decide(pu), gm.Decide(pu); w != g {
					t.Fatalf("%s, file %d, %s: two tokens with Agents %+v, without %+v", sem, i, pu, g, w)
				}
			}
		}
	}
}

// TestClient_Agents_Result checks what a Result of a Client with Agents
// holds (the crawler's matcher, no Robots) for a file and for the
// defaults, and that Result.Allowed fails closed for another crawler.
func TestClient_Agents_Result(t *testing.T) {
	h, s := newSwitchable(t, 200, "User-agent: *\nAllow: /\n")
	for _, tt := range []struct {
		status int
		src    Source
		fixed  engine.Reason
	}{
		{200, Fetched, 0},
		{404, UnavailableDefault, engine.ReasonAllowAll},
		{503, UnreachableDefault, engine.ReasonDisallowAll},
	} {
		h.set(tt.status, "User-agent: *\nAllow: /\n")
		c := New(Options{Agents: []string{"FooBot"}})
		res := lookup(t, c, s.URL+"/")
		wantSource(t, res, tt.src)
		if res.Robots != nil || res.Matcher == nil || !res.Matcher.IsFor("FooBot") {
			t.Fatalf("%d: Robots %v, Matcher %v; want the crawler's matcher only", tt.status, res.Robots, res.Matcher)
		}
		if tt.fixed != 0 && res.Matcher.Decide("/x").Reason != tt.fixed {
			t.Errorf("%d: the matcher decides %+v, want %v", tt.status, res.Matcher.Decide("/x"), tt.fixed)
		}
		allowed := tt.status != 503
		if got := res.Allowed("FooBot", "/x"); got != allowed {
			t.Errorf("%d: Result.Allowed(FooBot) = %v, want %v", tt.status, got, allowed)
		}
		if got := res.Allowed("foobot", "/x"); got != allowed {
			t.Errorf("%d: Result.Allowed(foobot) = %v, want %v", tt.status, got, allowed)
		}
		for _, other := range []string{"BarBot", "", "*", "FooBot-News"} {
			if res.Allowed(other, "/x") {
				t.Errorf("%d: Result.Allowed(%q) = true: a crawler's Result answers for another", tt.status, other)
			}
		}
	}
	// Without Agents, as before.
	plain := New(Options{})
	h.set(200, "User-agent: *\nAllow: /\n")
	res := lookup(t, plain, s.URL+"/")
	if res.Matcher != nil || res.Robots == nil || !res.Allowed("BarBot", "/x") {
		t.Errorf("without Agents: Robots %v, Matcher %v, Allowed(BarBot) %v", res.Robots, res.Matcher, res.Allowed("BarBot", "/x"))
	}
}

// wantOther fails the test unless err wraps ErrOtherCrawler and names
// both crawlers.
func wantOther(t *testing.T, what string, err error, asked string) {
	t.Helper()
	if !errors.Is(err, ErrOtherCrawler) {
		t.Errorf("%s: error %v, want ErrOtherCrawler", what, err)
		return
	}
	if msg := err.Error(); !strings.Contains(msg, "FooBot") || !strings.Contains(msg, asked) {
		t.Errorf("%s: error %q names not both FooBot and %q", what, msg, asked)
	}
}

// TestClient_Agents_ErrOtherCrawler checks that every method of a Client
// with Agents that names an agent refuses another crawler, before any
// fetch, and so do MatcherChain and a Transport for another crawler.
func TestClient_Agents_ErrOtherCrawler(t *testing.T) {
	s := newServer(t, serveRobots(200, "User-agent: FooBot\nDisallow: /private\n"))
	c := New(Options{Agents: []string{"FooBot"}})
	ctx := context.Background()
	u := s.URL + "/private/x"
	_, _, err := c.Allowed(ctx, "BarBot", u)
	wantOther(t, "Allowed", err, "BarBot")
	_, _, err = c.Decide(ctx, "BarBot", u)
	wantOther(t, "Decide", err, "BarBot")
	_, _, err = c.Usage(ctx, "BarBot", u, nil)
	wantOther(t, "Usage", err, "BarBot")
	_, _, err = c.Page(ctx, "*", u, http.Header{}, nil)
	wantOther(t, "Page", err, `"*"`)
	_, _, err = c.PageTDM(ctx, "BarBot", u, http.Header{}, nil, NewTDMReps(c))
	wantOther(t, "PageTDM", err, "BarBot")
	_, _, err = c.Matcher(ctx, u, "FooBot", "BarBot")
	wantOther(t, "Matcher", err, "BarBot")
	_, _, err = c.Matcher(ctx, u)
	wantOther(t, "Matcher()", err, "no crawler")
	_, _, err = c.MatcherChain(ctx, u, "FooBot")
	wantOther(t, "MatcherChain", err, "chain")
	if n := s.requests.Load(); n != 0 {
		t.Fatalf("%d requests for questions refused, want 0", n)
	}
	// The header of a page request, as AgentTokens reads it, names no token
	// of a Transport or Allowed: an *engine.AgentError comes first.
	var ae *engine.AgentError
	if _, _, err := c.Allowed(ctx, "FooBot/1.0", u); !errors.As(err, &ae) {
		t.Errorf("Allowed(FooBot/1.0): %v, want an *engine.AgentError", err)
	}

	// The crawler itself, in any ASCII case.
	for _, agent := range []string{"FooBot", "foobot", "FOOBOT"} {
		if ok, res, err := c.Allowed(ctx, agent, u); err != nil || ok || res.Matcher == nil {
			t.Errorf("Allowed(%s) = %v, %v, %v; want disallowed", agent, ok, res.Matcher, err)
		}
	}
	if m, _, err := c.Matcher(ctx, u, "foobot"); err != nil || m.Allowed(u) {
		t.Errorf("Matcher(foobot) = %v, %v", m, err)
	}

	// Transports.
	for _, tr := range []*Transport{
		{Client: c, Agent: "BarBot"},
		{Client: c},
		{Client: c, Tokens: []string{"FooBot"}, Chain: true},
		{Client: c, Tokens: []string{"FooBot", "BarBot"}},
	} {
		hc := &http.Client{Transport: tr}
		_, err := hc.Get(s.URL + "/public")
		wantOther(t, fmt.Sprintf("Transport{Agent %q, Tokens %q, Chain %v}", tr.Agent, tr.Tokens, tr.Chain), err, "")
		req, _ := http.NewRequest("GET", s.URL+"/public", nil)
		resp := &http.Response{Request: req, Header: http.Header{}}
		_, err = tr.Page(resp, nil)
		wantOther(t, "Transport.Page", err, "")
		_, err = tr.Usage(resp)
		wantOther(t, "Transport.Usage", err, "")
	}
	before := s.requests.Load()
	tr := &Transport{Client: c, Agent: "FooBot"}
	hc := &http.Client{Transport: tr}
	resp, err := hc.Get(s.URL + "/public")
	if err != nil {
		t.Fatalf("Transport for the crawler: %v", err)
	}
	resp.Body.Close()
	var de *DisallowedError
	if _, err := hc.Get(s.URL + "/private/x"); !errors.As(err, &de) {
		t.Errorf("Transport for the crawler, a disallowed URL: %v, want a *DisallowedError", err)
	}
	if n := s.requests.Load() - before; n != 1 {
		t.Errorf("%d requests, want the one allowed page", n)
	}
	tokens := &http.Client{Transport: &Transport{Client: c, Tokens: []string{"foobot"}}}
	if _, err := tokens.Get(s.URL + "/private/x"); !errors.As(err, &de) {
		t.Errorf("Transport with the crawler's Tokens, a disallowed URL: %v, want a *DisallowedError", err)
	}

	// A header in Options.Agents is read as its product tokens (RFC9309).
	ch := New(Options{Agents: []string{"FooBot/1.0 (+https://foo.example/bot)"}})
	if ok, res, err := ch.Allowed(ctx, "FooBot", u); err != nil || ok || res.Matcher == nil {
		t.Errorf("a header in Agents: Allowed(FooBot) = %v, %v", ok, err)
	}
	_, _, err = ch.Allowed(ctx, "BarBot", u)
	if !errors.Is(err, ErrOtherCrawler) {
		t.Errorf("a header in Agents: Allowed(BarBot): %v, want ErrOtherCrawler", err)
	}
}

// TestClient_Agents_Bytes checks that a Client with Agents charges a site
// whose file is mostly other crawlers' groups much less than one without.
func TestClient_Agents_Bytes(t *testing.T) {
	var b strings.Builder
	for g := 0; g < 40; g++ {
		fmt.Fprintf(&b, "User-agent: Other%cBot\n", 'A'+g%26)
		for r := 0; r < 30; r++ {
			fmt.Fprintf(&b, "Disallow: /group%d/rule%d/*.pdf$\n", g, r)
		}
		b.WriteString("\n")
	}
	b.WriteString("User-agent: FooBot\nDisallow: /private\n")
	s := newServer(t, serveRobots(200, b.String()))
	ctx := context.Background()
	bytesOf := func(opts Options) int64 {
		c := New(opts)
		for _, p := range []string{"/private/x", "/public", "/group1/rule1/a.pdf"} {
			if _, _, err := c.Allowed(ctx, "FooBot", s.URL+p); err != nil {
				t.Fatal(err)
			}
		}
		return c.Stats().Bytes
	}
	whole, crawler := bytesOf(Options{}), bytesOf(Options{Agents: []string{"FooBot"}})
	t.Logf("a %d-byte file: the cache charges %d bytes, %d with Agents", b.Len(), whole, crawler)
	if crawler*2 >= whole {
		t.Errorf("with Agents the cache charges %d bytes, without %d: want less than half", crawler, whole)
	}
}

// TestClient_Agents_Store checks that a second Client with Agents answers
// from the first's record in a shared Store, compiled for its crawler.
func TestClient_Agents_Store(t *testing.T) {
	s := newServer(t, serveRobots(200, "User-agent: BarBot\nDisallow: /\n\nUser-agent: FooBot\nDisallow: /private\n"))
	store := newMemStore()
	ctx := context.Background()
	a := New(Options{Store: store, Agents: []string{"FooBot"}})
	if ok, _, err := a.Allowed(ctx, "FooBot", s.URL+"/private/x"); ok || err != nil {
		t.Fatalf("first node: Allowed = %v, %v", ok, err)
	}
	b := New(Options{Store: store, Agents: []string{"FooBot"}})
	ok, res, err := b.Allowed(ctx, "FooBot", s.URL+"/public")
	if !ok || err != nil {
		t.Fatalf("second node: Allowed = %v, %v", ok, err)
	}
	wantSource(t, res, Cached)
	if res.Robots != nil || res.Matcher == nil || !res.Matcher.IsFor("FooBot") {
		t.Errorf("second node: Robots %v, Matcher %v; want the crawler's matcher", res.Robots, res.Matcher)
	}
	if res.Matcher.Allowed(s.URL+"/private/x") || res.Allowed("BarBot", s.URL+"/public") {
		t.Errorf("second node: the stored file decides wrongly")
	}
	if st := b.Stats(); st.StoreHits != 1 || st.Fetches != 0 {
		t.Errorf("second node's Stats = %+v, want one store hit and no fetch", st)
	}
	if n := s.requests.Load(); n != 1 {
		t.Errorf("the server saw %d requests, want 1", n)
	}
}

// TestClient_Agents_RevalidatedAndStale checks that a copy renewed by a
// 304, and a copy used while the file is unreachable, keep the crawler's
// matcher.
func TestClient_Agents_RevalidatedAndStale(t *testing.T) {
	const body = "User-agent: BarBot\nDisallow: /\n\nUser-agent: FooBot\nDisallow: /private\n"
	var mu sync.Mutex
	status := 200
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		st := status
		mu.Unlock()
		switch {
		case st != 200:
			w.WriteHeader(st)
		case r.Header.Get("If-None-Match") == `"v1"`:
			w.WriteHeader(http.StatusNotModified)
		default:
			w.Header().Set("ETag", `"v1"`)
			_, _ = w.Write([]byte(body))
		}
	})
	clk := newClock()
	c := New(Options{Now: clk.Now, Agents: []string{"FooBot"}})
	first := lookup(t, c, s.URL+"/")
	wantSource(t, first, Fetched)
	check := func(what string, res Result) {
		t.Helper()
		if res.Robots != nil || res.Matcher != first.Matcher {
			t.Errorf("%s: Robots %v, Matcher %p; want the first fetch's matcher %p", what, res.Robots, res.Matcher, first.Matcher)
		}
		wantAllowedFor(t, res, "FooBot", map[string]bool{"/private/x": false, "/public": true})
	}
	clk.Advance(DefaultTTL)
	res := lookup(t, c, s.URL+"/")
	wantSource(t, res, Fetched)
	if res.Status != http.StatusNotModified || c.Stats().Revalidated != 1 {
		t.Fatalf("status %d, Stats %+v: want a revalidation", res.Status, c.Stats())
	}
	check("revalidated", res)
	mu.Lock()
	status = 503
	mu.Unlock()
	clk.Advance(DefaultTTL)
	res = lookup(t, c, s.URL+"/")
	wantSource(t, res, Stale)
	check("stale", res)
	if ok, _, err := c.Allowed(context.Background(), "FooBot", s.URL+"/public"); !ok || err != nil {
		t.Errorf("stale: Allowed = %v, %v", ok, err)
	}
}

// wantAllowedFor fails the test unless res decides paths for agent as want
// says.
func wantAllowedFor(t *testing.T, res Result, agent string, want map[string]bool) {
	t.Helper()
	for path, allowed := range want {
		if got := res.Allowed(agent, path); got != allowed {
			t.Errorf("Allowed(%s, %q) = %v, want %v (source %v)", agent, path, got, allowed, res.Source)
		}
	}
}

// TestClient_Agents_NoAlloc checks that a cache hit with Agents allocates
// nothing, for the agent as configured and in another case.
func TestClient_Agents_NoAlloc(t *testing.T) {
	if race.Enabled {
		t.Skip("allocations are counted without -race")
	}
	s := newServer(t, serveRobots(200, "User-agent: FooBot\nDisallow: /private\n"))
	c := New(Options{Agents: []string{"FooBot"}})
	ctx := context.Background()
	u := s.URL + "/private/page?q=1"
	if ok, _, err := c.Allowed(ctx, "FooBot", u); ok || err != nil {
		t.Fatalf("Allowed = %v, %v", ok, err)
	}
	for _, agent := range []string{"FooBot", "foobot"} {
		allocs := testing.AllocsPerRun(100, func() {
			_, _, _ = c.Allowed(ctx, agent, u)
		})
		if allocs != 0 {
			t.Errorf("Allowed(%s) on a cache hit with Agents: %v allocations, want 0", agent, allocs)
		}
	}
}

// TestClient_Agents_Concurrent asks one Client with Agents from many
// goroutines, for several sites, the crawler and others (run it with
// -race).
func TestClient_Agents_Concurrent(t *testing.T) {
	files := make([][]byte, 8)
	for i := range files {
		files[i] = gen.Robots(100, int64(i), true)
	}
	hc := fileServer(t, files)
	c := New(Options{HTTPClient: hc, Agents: []string{"Googlebot"}})
	ref := New(Options{HTTPClient: hc})
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				f := (g + i) % len(files)
				pu := fmt.Sprintf("http://f%d.test/%s/%d", f, []string{"api", "search", "images"}[i%3], i)
				switch i % 4 {
				case 0, 1:
					want, _, err1 := ref.Decide(ctx, "Googlebot", pu)
					got, _, err2 := c.Decide(ctx, "Googlebot", pu)
					if err1 != nil || err2 != nil || want != got {
						t.Errorf("%s: %+v (%v), want %+v (%v)", pu, got, err2, want, err1)
						return
					}
				case 2:
					if _, _, err := c.Allowed(ctx, "bingbot", pu); !errors.Is(err, ErrOtherCrawler) {
						t.Errorf("Allowed(bingbot): %v", err)
						return
					}
				default:
					m, _, err := c.Matcher(ctx, pu, "googlebot")
					want, _, _ := ref.Allowed(ctx, "Googlebot", pu)
					if err != nil || m.Allowed(pu) != want {
						t.Errorf("Matcher(googlebot) on %s: %v", pu, err)
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
}
