package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

// uaSite is a loopback site that records the User-Agent header of every
// request, robots.txt and pages apart.
type uaSite struct {
	*server
	mu     sync.Mutex
	robots []string
	pages  []string
}

func newUASite(t *testing.T, robots string) *uaSite {
	t.Helper()
	s := &uaSite{}
	s.server = newServer(t, func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			s.robots = append(s.robots, r.UserAgent())
			io.WriteString(w, robots)
			return
		}
		s.pages = append(s.pages, r.UserAgent())
		io.WriteString(w, "ok")
	})
	return s
}

func (s *uaSite) seen() (robots, pages []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.robots...), append([]string(nil), s.pages...)
}

const fooRobots = "User-agent: FooBot\nDisallow: /nofoo/\n\nUser-agent: *\nDisallow: /private/\n"

// TestRFC9309_ClientRefusesAgentNotAToken: issue 31's first report.
// Client.Allowed and Decide, with a version or a whole User-Agent header as
// the agent, answered from the "*" groups ("allowed" where FooBot's group
// disallows); they now refuse it, in every semantics, with an
// *engine.AgentError naming the token, and fetch nothing (docs/SEMANTICS.md
// section 2.3).
func TestRFC9309_ClientRefusesAgentNotAToken(t *testing.T) {
	s := newUASite(t, fooRobots)
	for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
		c := New(Options{Engine: engine.Options{Semantics: sem}})
		ctx := context.Background()
		for _, agent := range []string{"FooBot/1.0", "Mozilla/5.0 (compatible; FooBot/1.0; +http://foo.example/bot)"} {
			ok, _, err := c.Allowed(ctx, agent, s.URL+"/nofoo/x")
			var ae *engine.AgentError
			if ok || !errors.As(err, &ae) || len(ae.Tokens) != 1 || ae.Tokens[0] != "FooBot" {
				t.Errorf("%s: Allowed(%q) = %v, %v; want false and an *engine.AgentError naming FooBot", sem, agent, ok, err)
			}
			if _, _, err := c.Decide(ctx, agent, s.URL+"/nofoo/x"); !errors.As(err, &ae) {
				t.Errorf("%s: Decide(%q): error %v", sem, agent, err)
			}
			if _, _, err := c.Matcher(ctx, s.URL+"/", "FooBot", agent); !errors.As(err, &ae) {
				t.Errorf("%s: Matcher(FooBot, %q): error %v", sem, agent, err)
			}
		}
		if n := c.Stats().Fetches; n != 0 {
			t.Errorf("%s: %d fetches for refused agents", sem, n)
		}
		// Tokens, "" and "*" are answered.
		for agent, want := range map[string]bool{"FooBot": false, "foobot": false, "": true, "*": true} {
			if ok, _, err := c.Allowed(ctx, agent, s.URL+"/nofoo/x"); err != nil || ok != want {
				t.Errorf("%s: Allowed(%q, /nofoo/x) = %v, %v; want %v", sem, agent, ok, err, want)
			}
		}
		c.Close()
	}
}

// TestRFC9309_TransportRefusesAgentNotAToken: a Transport whose Agent is not
// a product token sent GET /nofoo/x although FooBot is disallowed there; now
// every request fails with an *engine.AgentError and nothing is sent.
func TestRFC9309_TransportRefusesAgentNotAToken(t *testing.T) {
	s := newUASite(t, fooRobots)
	for _, tr := range []*Transport{
		{Client: New(Options{}), Agent: "FooBot/1.0"},
		{Client: New(Options{}), Tokens: []string{"FooBot", "FooBot/1.0"}},
		{Client: New(Options{}), Agent: "FooBot", Tokens: []string{"FooBot"}},
	} {
		hc := &http.Client{Transport: tr}
		resp, err := hc.Get(s.URL + "/nofoo/x")
		if err == nil {
			resp.Body.Close()
		}
		var ae *engine.AgentError
		if tr.Agent != "" && tr.Tokens != nil {
			if !errors.Is(err, errAgentAndTokens) {
				t.Errorf("Agent and Tokens both set: error %v", err)
			}
		} else if !errors.As(err, &ae) {
			t.Errorf("Agent %q, Tokens %q: error %v, want an *engine.AgentError", tr.Agent, tr.Tokens, err)
		}
		tr.Client.Close()
	}
	if robots, pages := s.seen(); len(robots)+len(pages) != 0 {
		t.Errorf("the server saw robots.txt requests %q and pages %q", robots, pages)
	}
}

// TestClient_SendsTheCrawlersUserAgent: the robots.txt request sends the
// crawler's own User-Agent: Options.UserAgent, else the product token of
// the lookup; only Lookup, which names no crawler, sends DefaultUserAgent.
func TestClient_SendsTheCrawlersUserAgent(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		opts Options
		ask  func(c *Client, url string) error
		want string
	}{
		{Options{}, func(c *Client, url string) error { _, _, err := c.Allowed(ctx, "ExampleBot", url); return err }, "ExampleBot"},
		{Options{}, func(c *Client, url string) error { _, _, err := c.Decide(ctx, "ExampleBot", url); return err }, "ExampleBot"},
		{Options{}, func(c *Client, url string) error {
			_, _, err := c.MatcherChain(ctx, url, engine.FallbackTokens("ExampleBot-Image")...)
			return err
		}, "ExampleBot-Image"},
		{Options{}, func(c *Client, url string) error { _, _, err := c.Allowed(ctx, "*", url); return err }, DefaultUserAgent},
		{Options{}, func(c *Client, url string) error { _, err := c.Lookup(ctx, url); return err }, DefaultUserAgent},
		{Options{UserAgent: "ExampleBot/1.0 (+https://bot.example)"}, func(c *Client, url string) error { _, _, err := c.Allowed(ctx, "ExampleBot", url); return err }, "ExampleBot/1.0 (+https://bot.example)"},
	} {
		s := newUASite(t, fooRobots)
		cl := New(c.opts)
		if err := c.ask(cl, s.URL+"/"); err != nil {
			t.Fatal(err)
		}
		cl.Close()
		if robots, _ := s.seen(); len(robots) != 1 || robots[0] != c.want {
			t.Errorf("robots.txt requests sent %q, want %q", robots, c.want)
		}
	}
}

// TestTransport_SendsTheCrawlersUserAgent: issue 31's second report. With
// README's Transport the server saw "robotstxt-go" for robots.txt and
// "Go-http-client/1.1" for pages; now robots.txt gets the crawler's own, and
// pages get Transport.UserAgent when they have no User-Agent of their own.
func TestTransport_SendsTheCrawlersUserAgent(t *testing.T) {
	const header = "FooBot/1.0 (+https://foo.example/bot)"
	for _, c := range []struct {
		name                string
		tr                  *Transport
		reqUA               string // the page request's own header, if any
		wantRobots, wantPag string
	}{
		{"UserAgent", &Transport{Agent: "FooBot", UserAgent: header}, "", header, header},
		{"UserAgent, the request's own wins for the page", &Transport{Agent: "FooBot", UserAgent: header}, "Custom/2", header, "Custom/2"},
		{"the request's header", &Transport{Agent: "FooBot"}, "FooBot/2.0", "FooBot/2.0", "FooBot/2.0"},
		{"Agent alone", &Transport{Agent: "FooBot"}, "", "FooBot", "Go-http-client/1.1"},
		{"Tokens", &Transport{Tokens: []string{"FooBot-News", "FooBot"}}, "", "FooBot-News", "Go-http-client/1.1"},
	} {
		s := newUASite(t, fooRobots)
		tr := c.tr
		tr.Client = New(Options{})
		req, _ := http.NewRequest("GET", s.URL+"/page", nil)
		if c.reqUA != "" {
			req.Header.Set("User-Agent", c.reqUA)
		}
		resp, err := (&http.Client{Transport: tr}).Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		resp.Body.Close()
		tr.Client.Close()
		robots, pages := s.seen()
		if len(robots) != 1 || robots[0] != c.wantRobots || len(pages) != 1 || pages[0] != c.wantPag {
			t.Errorf("%s: robots.txt sent %q, pages %q; want %q and %q", c.name, robots, pages, c.wantRobots, c.wantPag)
		}
		if got := req.Header.Get("User-Agent"); got != c.reqUA {
			t.Errorf("%s: the request was modified: User-Agent %q", c.name, got)
		}
	}
}

// chainRobots has groups for FooBot and FooBot-Image, and a "*" group that
// disallows everything.
const chainRobots = "User-agent: FooBot\nDisallow: /nofoo/\n\nUser-agent: FooBot-Image\nDisallow: /photos/\n\nUser-agent: *\nDisallow: /\n"

// TestGoogle_TransportAndClientTokens: a crawler with several tokens gets,
// in fetch.Client and fetch.Transport, what engine.Robots gives it: merged
// (Matcher, Transport.Tokens) or the fallback chain (MatcherChain,
// Transport.Chain), Google's documented precedence.
func TestGoogle_TransportAndClientTokens(t *testing.T) {
	s := newUASite(t, chainRobots)
	ctx := context.Background()
	c := New(Options{Engine: engine.Options{Semantics: engine.Google}})
	defer c.Close()
	chain := engine.FallbackTokens("FooBot-Image")
	merged := map[string]bool{"/nofoo/a": false, "/photos/a": false, "/other": true}
	chained := map[string]bool{"/nofoo/a": true, "/photos/a": false, "/other": true}
	m, res, err := c.Matcher(ctx, s.URL+"/", chain...)
	if err != nil || res.Source != Fetched {
		t.Fatalf("Matcher: %v, %v", err, res.Source)
	}
	mc, _, _ := c.MatcherChain(ctx, s.URL+"/", chain...)
	for path, want := range merged {
		if got := m.Allowed(s.URL + path); got != want {
			t.Errorf("Matcher%q: %s allowed %v, want %v", chain, path, got, want)
		}
		if got := mc.Allowed(s.URL + path); got != chained[path] {
			t.Errorf("MatcherChain%q: %s allowed %v, want %v", chain, path, got, chained[path])
		}
	}
	for _, tc := range []struct {
		chain bool
		want  map[string]bool
	}{{false, merged}, {true, chained}} {
		hc := &http.Client{Transport: &Transport{Client: c, Tokens: chain, Chain: tc.chain}}
		for path, want := range tc.want {
			resp, err := hc.Get(s.URL + path)
			var d *DisallowedError
			switch {
			case want && err != nil, !want && !errors.As(err, &d):
				t.Errorf("Transport{Tokens: %q, Chain: %v}: %s: %v, want allowed %v", chain, tc.chain, path, err, want)
			case !want && d.Agent != "FooBot-Image, FooBot":
				t.Errorf("DisallowedError.Agent = %q", d.Agent)
			}
			if err == nil {
				resp.Body.Close()
			}
		}
	}
}

// TestResult_Warnings: a Result carries the file's warnings (issue 31: only
// the command line had them), also when it is a cached or a stale copy.
func TestResult_Warnings(t *testing.T) {
	s := newSite(t, 200, "<!DOCTYPE html>\n<html><body>Welcome</body></html>\n")
	clk := newClock()
	store := newMemStore()
	c := New(Options{Now: clk.Now, Store: store})
	defer c.Close()
	for _, want := range []Source{Fetched, Cached} {
		res := lookup(t, c, s.URL+"/")
		wantSource(t, res, want)
		if len(res.Warnings) != 1 || res.Warnings[0].Kind != engine.WarnHTML {
			t.Errorf("%v: warnings %q, want one html-page", want, res.Warnings)
		}
	}
	// A second node reads the copy from the Store: the same warnings.
	other := New(Options{Now: clk.Now, Store: store})
	defer other.Close()
	if res := lookup(t, other, s.URL+"/"); len(res.Warnings) != 1 || res.Warnings[0].Kind != engine.WarnHTML {
		t.Errorf("from the Store (%v): warnings %q, want one html-page", res.Source, res.Warnings)
	}
	clk.Advance(DefaultTTL + time.Second)
	s.set(503, "")
	res := lookup(t, c, s.URL+"/")
	wantSource(t, res, Stale)
	if len(res.Warnings) != 1 {
		t.Errorf("stale: warnings %q, want the copy's", res.Warnings)
	}
	res = lookup(t, other, s.URL+"/")
	wantSource(t, res, Stale)
	if len(res.Warnings) != 1 {
		t.Errorf("stale, from the Store: warnings %q, want the copy's", res.Warnings)
	}
	s.set(404, "")
	clk.Advance(time.Hour)
	if res := lookup(t, c, s.URL+"/"); res.Warnings != nil {
		t.Errorf("%v: warnings %q, want none", res.Source, res.Warnings)
	}
}

// TestTransport_CrawlersOnOneClient: Transports of different crawlers that
// share a Client each decide by their own groups, also when one's tokens
// merged read as another's chain would ("chain", "FooBot" against a chain
// of "FooBot"): the matcher a state memoises is named per crawler.
func TestTransport_CrawlersOnOneClient(t *testing.T) {
	s := newSite(t, 200, "User-agent: chain\nDisallow: /c\n\nUser-agent: FooBot\nDisallow: /f\n")
	c := New(Options{})
	defer c.Close()
	base := roundTripFunc(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody}, nil
	})
	crawlers := []struct {
		tr   *Transport
		want map[string]bool
	}{
		{&Transport{Client: c, Tokens: []string{"chain", "FooBot"}, Base: base}, map[string]bool{"/c": false, "/f": false, "/o": true}},
		{&Transport{Client: c, Tokens: []string{"FooBot"}, Chain: true, Base: base}, map[string]bool{"/c": true, "/f": false, "/o": true}},
		{&Transport{Client: c, Agent: "chain", Base: base}, map[string]bool{"/c": false, "/f": true, "/o": true}},
	}
	for round := 0; round < 2; round++ {
		for _, cr := range crawlers {
			for path, want := range cr.want {
				req, _ := http.NewRequest(http.MethodGet, s.URL+path, nil)
				_, err := cr.tr.RoundTrip(req)
				if got := err == nil; got != want {
					t.Errorf("round %d: Tokens %q Chain %v Agent %q: %s allowed %v (%v), want %v", round, cr.tr.Tokens, cr.tr.Chain, cr.tr.Agent, path, got, err, want)
				}
			}
		}
	}
}
