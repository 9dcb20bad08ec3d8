// Package robotscolly makes a colly collector (github.com/gocolly/colly/v2)
// obey robots.txt through a fetch.Transport: the Transport's rules decide
// every request, its crawl-delay turns space the requests to each site, and
// its Client fetches each site's robots.txt once, however many requests
// wait for it.
//
//	client := fetch.New(fetch.Options{Agents: []string{"FooBot"}}) // FooBot's groups of each robots.txt
//	t := &fetch.Transport{Client: client, Agent: "FooBot", CrawlDelay: true}
//	c := colly.NewCollector(colly.UserAgent("FooBot/1.0 (+https://foo.example/bot)"), colly.Async(true))
//	c.SetRequestTimeout(10 * time.Second)
//	robotscolly.Obey(c, t)
//
// Why not c.WithTransport(t) alone: colly bounds each request by its
// request timeout (an http.Client's Timeout), and a request that waits for
// its crawl-delay turn inside the Transport waits within it. When more
// requests to a site are in flight than turns fit in the timeout, the ones
// whose turn comes after it fail at once with a *fetch.CrawlDelayError,
// and colly does not try them again: pages are lost. Obey waits for each
// request's turn before colly starts the request's clock, so none is.
//
// How: Obey puts a transport of its own in front of t (WithTransport) and
// registers an OnRequestHeaders callback, which colly runs for each
// request after its own limits (LimitRule's parallelism and delay) and
// just before it sends the request, outside its timeout. The callback
// decides the request and waits for its turn (fetch.Transport.Wait); the
// request then goes at once. A request that robots.txt disallows is not
// sent: colly reports it as a failed request, to OnError callbacks (and
// Visit's error, when not Async), with an error that wraps a
// *fetch.DisallowedError; a request whose turn comes after the deadline of
// the collector's Context, with a *fetch.CrawlDelayError. A redirect is a
// new request: t checks and paces it within the timeout, as without Obey.
// A page that colly answers from its cache (CacheDir) takes no turn. A
// request that waits for its turn holds its place in its LimitRule's
// Parallelism, as a request being sent does: with one rule for every
// domain ("*"), a crawl-delayed site can hold all of it; a rule per domain
// keeps the others going.
//
// Obey turns colly's own robots.txt handling off (IgnoreRobotsTxt): t
// decides instead, by the semantics of its Client. Set t.Base to send
// requests through a transport of your own, not WithTransport, which would
// replace Obey's. A clone of the collector (Clone) shares its transport but
// not its callbacks: call Obey on it too, with the same Transport. Register
// OnRequestHeaders callbacks that abort requests before calling Obey, so
// that an aborted request takes no turn.
//
// Once a page is fetched, Page says what it says to the crawler (may it be
// indexed, its links followed, its content used to train AI: X-Robots-Tag,
// robots meta tags, TDMRep, Content-Usage and robots.txt's Content-Signal)
// and Usage gives its Content-Usage preferences, from the *colly.Response
// and the same Transport, with a context of the caller's.
package robotscolly

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

// Obey makes c obey t: see the package documentation. t must not be nil,
// and its fields must be set before.
func Obey(c *colly.Collector, t *fetch.Transport) {
	o := &obeyer{c: c, t: t, waited: make(map[*url.URL]waited)}
	c.IgnoreRobotsTxt = true
	c.WithTransport(o)
	c.OnRequestHeaders(o.wait)
}

// forgetAfter is how long a request's waited turn or error is kept for it
// when the request does not reach the transport (an OnRequestHeaders
// callback after Obey's aborted it): such a request is never sent, and
// one that is sent later than this after its turn is paced again, so it
// goes no sooner than the site asks either way.
const forgetAfter = time.Minute

// obeyer is Obey's transport and callback, for one collector.
type obeyer struct {
	c *colly.Collector
	t *fetch.Transport

	mu sync.Mutex
	// waited holds what wait found for each request on its way to the
	// transport, by its URL: colly's Request and the http.Request it
	// sends share one *url.URL (a redirect's request has its own).
	waited map[*url.URL]waited
	sweep  int // the size of waited that makes the next insert forget the old entries
}

// waited is what wait found for a request: its turn (nil when it takes
// none), or the error that refuses it.
type waited struct {
	turn *fetch.Turn
	err  error
	at   time.Time
}

// wait is Obey's OnRequestHeaders callback: it decides r and waits for its
// turn, outside colly's timeout, bounded by the collector's Context.
func (o *obeyer) wait(r *colly.Request) {
	ctx := o.c.Context
	if ctx == nil {
		ctx = context.Background()
	}
	req := (&http.Request{Method: r.Method, URL: r.URL, Host: r.Host, Header: http.Header{}}).WithContext(ctx)
	if r.Headers != nil {
		req.Header = *r.Headers
	}
	turn, err := o.t.Wait(req)
	if turn == nil && err == nil {
		return // nothing to hand on: the transport decides it again, from the cache
	}
	now := time.Now()
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.waited) >= o.sweep {
		for u, w := range o.waited {
			if now.Sub(w.at) > forgetAfter {
				delete(o.waited, u)
			}
		}
		o.sweep = 2*len(o.waited) + 64
	}
	o.waited[r.URL] = waited{turn: turn, err: err, at: now}
}

// RoundTrip sends req through t, with the turn wait took for it, or
// returns the error that refused it there, sending nothing.
func (o *obeyer) RoundTrip(req *http.Request) (*http.Response, error) {
	o.mu.Lock()
	w, ok := o.waited[req.URL]
	delete(o.waited, req.URL)
	o.mu.Unlock()
	if ok && w.err != nil {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, w.err
	}
	if ok {
		req = req.WithContext(w.turn.Context(req.Context()))
	}
	return o.t.RoundTrip(req)
}

// CloseIdleConnections closes t's idle connections.
func (o *obeyer) CloseIdleConnections() { o.t.CloseIdleConnections() }
