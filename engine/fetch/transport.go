package fetch

import (
	"container/heap"
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

// DefaultMaxPacedHosts bounds the hosts a Transport remembers for pacing
// (Transport.MaxPacedHosts). Only hosts with a crawl-delay whose next slot
// is still ahead are kept (about 100 bytes each), so 10,000 hosts cost about
// a megabyte and are exceeded only by a crawler that requests more than
// 10,000 different crawl-delayed hosts within one crawl-delay: at the usual
// delays of 1 to 10 seconds that is over 1,000 such hosts a second. It
// matches DefaultMaxEntries, the robots.txt results the Client caches.
const DefaultMaxPacedHosts = 10000

// Transport is an http.RoundTripper that obeys robots.txt: it sends a
// request through Base only when the Client's rules for the request's URL
// allow the crawler (Agent, or Tokens) to fetch it, and otherwise returns a
// *DisallowedError without sending anything. With CrawlDelay set it also
// spaces the requests to each host by the host's crawl-delay. Put it in an
// http.Client:
//
//	t := &fetch.Transport{
//		Client:     fetch.New(fetch.Options{}),
//		Agent:      "FooBot",                                // the product token robots.txt files name
//		UserAgent:  "FooBot/1.0 (+https://foo.example/bot)", // the header sent, for robots.txt and pages
//		CrawlDelay: true,
//	}
//	hc := &http.Client{Transport: t}
//
// Which User-Agent header the server sees: with UserAgent set, every request
// that has no User-Agent header of its own gets it (a copy of the request is
// sent; req is not modified), and so do the robots.txt fetches its requests
// start (unless the Client's Options.UserAgent says otherwise). Without it,
// pages go as they were built (net/http sends "Go-http-client/1.1" when the
// request has no User-Agent header), and a robots.txt fetch sends the page
// request's User-Agent header, else Agent (the first of Tokens). Sites serve
// different robots.txt files to different crawlers: set UserAgent.
//
// What RoundTrip checks:
//
//   - http and https requests of every method (GET, HEAD, POST, ...) are
//     decided by the Client on req.URL (req.Host is not consulted), for
//     Agent as Client.Decide decides, or for Tokens as Client.Matcher (or,
//     with Chain, Client.MatcherChain) selects their groups. An Agent or a
//     token that is no product token fails every request at once. The
//     first request to a site fetches its robots.txt (one fetch however many
//     requests wait for it); the others are answered from the Client's cache.
//     An unreachable robots.txt disallows everything, or a copy fetched
//     within Options.MaxStale decides (Result.Source says which).
//   - A redirect that an http.Client follows is a new request through the
//     Transport, so it is checked as well.
//   - Requests for /robots.txt itself, and requests of other schemes, go to
//     Base untouched: neither checked nor paced.
//   - The Client's own robots.txt fetches, and the redirects they follow, go
//     to Base untouched too, so a Client whose Options.HTTPClient is built on
//     this very Transport works and never recurses: every fetch made by a
//     Client carries a marker in its request context, and RoundTrip sends
//     any request that carries it straight to Base.
//
// Pacing (CrawlDelay): the requests to one origin (scheme://host[:port]) go
// to Base at least the crawl-delay of the crawler's groups (Agent's, or
// those Tokens select) apart
// (engine.Extensions.CrawlDelay, at most engine.MaxCrawlDelay), counted from
// when one request goes to when the next goes, each read under the pacer's
// lock, so no gap is ever shorter (the server sees each request later by
// however long Base and the network take, which varies by a millisecond or
// so). Origins without a crawl-delay are not
// slowed and cost no memory. What a crawler sees when it asks faster than a
// site allows:
//
//   - Requests to the origin wait their turn, first come first served: the
//     n-th one waiting goes about n crawl-delays after the last one went.
//   - A request whose context has a deadline before its turn fails at once
//     with a *CrawlDelayError (a deadline error, saying how long the wait
//     would have been), sends nothing and takes no turn: the requests after
//     it are not held up by it. A crawler can put the URL back in its queue
//     for that long, or wait for the turn with Wait before it starts the
//     request's clock.
//   - A request whose context ends while it waits returns the context's
//     error and gives its turn back: the ones behind it move up.
//   - Requests without a deadline wait as long as the queue takes.
//
// At most MaxPacedHosts origins that no request waits for are remembered:
// one is forgotten once a crawl-delay has passed since its last request,
// and when more are remembered than that, the one whose delay ends first is
// forgotten early (Stats counts these; the next request to it is not held).
//
// A fleet of crawler processes paces together through a shared Pacer
// (Transport.Pacer; store/redisstore's NewPacer keeps the turns in Redis),
// by the same rules; while it is unavailable each process paces on its own.
//
// A Transport is safe for concurrent use. Set its fields before its first
// use and do not change them afterwards.
type Transport struct {
	// Client looks up and caches the robots.txt rules; it must not be nil.
	// Share one per crawler.
	Client *Client
	// Agent is the crawler's product token ("FooBot"), whose groups apply;
	// not its User-Agent header (that is UserAgent). It must be a product
	// token (letters, '-' and '_'), or "" or "*" for no crawler in
	// particular (the "*" groups apply): anything else ("FooBot/1.0", a
	// whole header) fails every request with an *engine.AgentError naming
	// the tokens it holds, and nothing is fetched. A crawler with several
	// tokens sets Tokens instead. When Client has Options.Agents, Agent
	// (or Tokens) must stand for that crawler, and Chain must be false:
	// otherwise every request fails with ErrOtherCrawler.
	Agent string
	// Tokens are the product tokens of a crawler that has several, most
	// specific first, in place of Agent (setting both is an error, as is a
	// token that is no product token): every group naming any of them
	// applies, merged, as engine.Robots.Matcher(Tokens...) merges them.
	Tokens []string
	// Chain makes only the groups of the first of Tokens that some group
	// names apply, as engine.Robots.MatcherChain(Tokens...) does: the
	// precedence Google documents for its crawlers, with Tokens:
	// engine.FallbackTokens("Googlebot-Image").
	Chain bool
	// UserAgent is the crawler's User-Agent header ("FooBot/1.0
	// (+https://foo.example/bot)"): requests without one get it, and so do
	// the robots.txt fetches they start. See Transport.
	UserAgent string
	// Base sends the allowed requests; nil means http.DefaultTransport.
	Base http.RoundTripper
	// CrawlDelay turns on pacing by crawl-delay.
	CrawlDelay bool
	// MaxPacedHosts bounds the origins remembered for pacing
	// (DefaultMaxPacedHosts when zero or negative).
	MaxPacedHosts int
	// Pacer keeps the crawl-delay turns; nil means the Transport's own,
	// in-process pacer. A shared one (store/redisstore's NewPacer) paces a
	// fleet of processes; when it is unavailable the Transport's own
	// paces instead (see Pacer).
	Pacer Pacer

	pacer atomic.Pointer[pacer]        // made by the first paced request
	who   atomic.Pointer[crawlerOrErr] // made by the first request (crawler)

	disallowed atomic.Int64
	tooSoon    atomic.Int64
	fallbacks  atomic.Int64
}

// DisallowedError is the error of a request that robots.txt disallows. No
// part of the request was sent. An http.Client returns it wrapped in a
// *url.Error: use errors.As. Its Error text stays short whatever the
// server sent: it is made of bounded parts.
type DisallowedError struct {
	// URL is the request's URL, without a password, cut to MaxURLLength
	// (a redirect the http.Client follows can be megabytes long).
	URL string
	// Method is the request's method.
	Method string
	// Agent is the product token that was checked (the Transport's
	// Tokens, joined by ", ", when it has several).
	Agent string
	// Decision says which rule decided (Rule.Line is 0 when the whole site
	// is disallowed because its robots.txt is unreachable).
	Decision engine.Decision
	// Result says where the rules came from (Source, Status, Err).
	Result Result
}

// Error says for which agent the request was disallowed and why. It does
// not repeat the request's method and URL: the *url.Error that an
// http.Client wraps it in starts with them ("Get \"https://x/a\": robots.txt
// disallows it for FooBot: ..."); they are the URL and Method fields.
func (e *DisallowedError) Error() string {
	var b strings.Builder
	b.WriteString("robots.txt disallows it")
	if e.Agent != "" {
		b.WriteString(" for ")
		b.WriteString(e.Agent)
	}
	b.WriteString(": ")
	switch d := e.Decision; d.Reason {
	case engine.ReasonRule, engine.ReasonIndexHTM:
		b.WriteString(e.Result.RobotsURL)
		b.WriteString(" line ")
		b.WriteString(strconv.Itoa(d.Rule.Line))
		b.WriteString(": ")
		b.WriteString(d.Rule.Kind.String())
		b.WriteByte(' ')
		b.WriteString(cutText(d.Rule.Value, MaxErrorLength))
		if e.Result.Source == Stale {
			b.WriteString(" (a stale copy: the file is unreachable now)")
		}
	default:
		b.WriteString(e.Result.RobotsURL)
		b.WriteByte(' ')
		b.WriteString(e.Result.Source.String())
		// Result.Err of a Client is bounded by MaxErrorLength; one a
		// caller made up may not be.
		if e.Result.Err != nil {
			b.WriteString(" (")
			b.WriteString(cutText(e.Result.Err.Error(), MaxErrorLength))
			b.WriteByte(')')
		}
		b.WriteString(": everything is disallowed")
	}
	return b.String()
}

// CrawlDelayError is the error of a request that a Transport refused at
// once, without sending it, because its context's deadline comes before
// its turn at the origin (see Transport, Pacing). It is a deadline error:
// errors.Is(err, context.DeadlineExceeded) reports true. An http.Client
// returns it wrapped in a *url.Error: use errors.As.
type CrawlDelayError struct {
	// Origin is scheme://host[:port] of the request.
	Origin string
	// Delay is the origin's crawl-delay.
	Delay time.Duration
	// Wait is how long the request would have waited for its turn, from
	// when it was refused.
	Wait time.Duration
}

// Error says which origin's crawl-delay refused the request and how long
// its wait would have been.
func (e *CrawlDelayError) Error() string {
	return "fetch.Transport: the turn of this request to " + e.Origin + " comes in " + e.Wait.String() +
		", after its deadline (crawl-delay " + e.Delay.String() + ")"
}

// Unwrap returns context.DeadlineExceeded.
func (e *CrawlDelayError) Unwrap() error { return context.DeadlineExceeded }

// TransportStats are a Transport's counters.
type TransportStats struct {
	Disallowed int64 // requests refused with a *DisallowedError
	Waited     int64 // requests that waited for their crawl-delay turn
	TooSoon    int64 // requests refused with a *CrawlDelayError
	PacedHosts int   // origins remembered for pacing now
	// Forgotten counts origins forgotten before their next slot because
	// more than MaxPacedHosts origins were waiting: their next request was
	// not paced.
	Forgotten int64
	// PacerFallbacks counts the requests that the Transport's own pacer
	// paced because Pacer was unavailable. Waited, PacedHosts and
	// Forgotten count the Transport's own pacer only.
	PacerFallbacks int64
}

// Stats returns t's counters.
func (t *Transport) Stats() TransportStats {
	s := TransportStats{Disallowed: t.disallowed.Load(), TooSoon: t.tooSoon.Load(), PacerFallbacks: t.fallbacks.Load()}
	if p := t.pacer.Load(); p != nil {
		p.mu.Lock()
		s.PacedHosts, s.Forgotten, s.Waited = len(p.hosts), p.forgotten, p.waited
		p.mu.Unlock()
	}
	return s
}

// errNilClient is returned by RoundTrip when Transport.Client is nil.
var errNilClient = errors.New("fetch.Transport: Client is nil (set it to a fetch.New client)")

// errAgentAndTokens is returned by RoundTrip when Transport.Agent and
// Transport.Tokens are both set.
var errAgentAndTokens = errors.New("fetch.Transport: Agent and Tokens are both set (set Agent for one product token, Tokens for several)")

// crawlerOrErr is what a Transport's fields say of its crawler: who it is,
// or why the fields are wrong.
type crawlerOrErr struct {
	cr  *crawler
	err error
}

// crawler returns the Transport's crawler (Agent, or Tokens and Chain), or
// an error when they are not product tokens, or both Agent and Tokens are
// set, or the Client serves another crawler (Options.Agents) or Chain is
// set with it (ErrOtherCrawler). The fields are fixed after the first use,
// so it is worked out once.
func (t *Transport) crawler() (*crawler, error) {
	if w := t.who.Load(); w != nil {
		return w.cr, w.err
	}
	var w crawlerOrErr
	switch {
	case len(t.Tokens) == 0:
		if w.err = engine.CheckAgent(t.Agent); w.err == nil {
			w.cr = newCrawler([]string{t.Agent}, false)
		}
	case t.Agent != "":
		w.err = errAgentAndTokens
	default:
		if w.err = checkTokens(t.Tokens); w.err == nil {
			w.cr = newCrawler(slices.Clone(t.Tokens), t.Chain)
		}
	}
	if c := t.Client; w.err == nil && c != nil && c.agents != nil {
		if w.cr.chain {
			w.cr, w.err = nil, chainRefused(t.Tokens, c.agents)
		} else if w.err = c.other(w.cr.tokens...); w.err != nil {
			w.cr = nil
		}
	}
	t.who.Store(&w)
	return w.cr, w.err
}

// RoundTrip sends req through Base when robots.txt allows it (see
// Transport), after its crawl-delay turn when CrawlDelay is set. It returns
// a *DisallowedError, without sending anything, when robots.txt disallows
// it; a *CrawlDelayError when the context's deadline comes before its turn;
// the context's error when the context ends during the robots.txt look-up
// or the wait; an *engine.AgentError, before any look-up, when Agent or a
// token of Tokens is no product token (and an error when both are set);
// ErrOtherCrawler, wrapped, before any look-up, when the Client has
// Options.Agents and Agent or Tokens stand for another crawler, or Chain
// is set; and
// an error when the URL has no robots.txt or the Client is closed. It does
// not modify req (with UserAgent set it sends a copy), and closes req.Body
// on every path that does not reach Base.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	if exempt(req) {
		return base.RoundTrip(req)
	}
	m, res, err := t.check(req)
	if err == nil && t.CrawlDelay {
		err = t.pace(req.Context(), &res, m)
	}
	if err != nil {
		closeBody(req)
		return nil, err
	}
	if _, hasUA := req.Header["User-Agent"]; t.UserAgent != "" && !hasUA {
		req = req.Clone(req.Context())
		req.Header.Set("User-Agent", t.UserAgent)
	}
	return base.RoundTrip(req)
}

// check decides req for the Transport's crawler: it returns the crawler's
// matcher of the site's rules and their Result when robots.txt allows req,
// and otherwise the error RoundTrip returns (see RoundTrip).
func (t *Transport) check(req *http.Request) (*engine.Matcher, Result, error) {
	if t.Client == nil {
		return nil, Result{}, errNilClient
	}
	cr, err := t.crawler()
	if err != nil {
		return nil, Result{}, err
	}
	ua := t.userAgentFor(req, cr)
	d, m, res, err := t.Client.decideFor(req.Context(), cr, req.URL.String(), ua)
	if err != nil {
		return nil, Result{}, err
	}
	if !d.Allowed {
		t.disallowed.Add(1)
		return nil, Result{}, &DisallowedError{URL: cutText(req.URL.Redacted(), MaxURLLength), Method: method(req), Agent: strings.Join(cr.tokens, ", "), Decision: d, Result: res}
	}
	return m, res, nil
}

// Usage returns the usage preferences (IETF AI Preferences: Content-Usage)
// of a response's content for the Transport's
// crawler: the robots.txt content-usage lines for resp.Request.URL combined
// with resp's Content-Usage header, the most restrictive per category
// (draft-ietf-aipref-vocab section 5.1). resp is a response that came
// through t: the site's rules are then in the Client's cache, and nothing is
// fetched unless they expired meanwhile (the context is resp.Request's).
// Its errors are RoundTrip's look-up errors; a request that robots.txt now
// disallows has engine.UsageNotApplicable preferences, and no error.
func (t *Transport) Usage(resp *http.Response) (engine.Usage, error) {
	if resp == nil || resp.Request == nil || resp.Request.URL == nil {
		return engine.Usage{}, errNoRequest
	}
	if t.Client == nil {
		return engine.Usage{}, errNilClient
	}
	cr, err := t.crawler()
	if err != nil {
		return engine.Usage{}, err
	}
	req := resp.Request
	ua := t.userAgentFor(req, cr)
	c := t.Client
	st, _, err := c.lookup(req.Context(), req.URL.String(), ua)
	if err != nil {
		return engine.Usage{}, err
	}
	return c.usageWith(st, c.crawlerMatcher(st, cr), req.URL.String(), resp.Header.Values(usageHeader)), nil
}

// errNoRequest is Transport.Usage's error for a response without its
// request.
var errNoRequest = errors.New("fetch: Transport.Usage: the response has no request")

// userAgentFor returns the User-Agent header a robots.txt fetch that req
// starts sends: UserAgent, else req's, else the crawler's first token.
func (t *Transport) userAgentFor(req *http.Request, cr *crawler) string {
	if t.UserAgent != "" {
		return t.UserAgent
	}
	if ua := req.Header.Get("User-Agent"); ua != "" {
		return ua
	}
	return cr.tokens[0]
}

// exempt reports whether RoundTrip sends req to Base untouched: not http
// or https, a request for /robots.txt, or a Client's own fetch.
func exempt(req *http.Request) bool {
	return req.URL == nil || (req.URL.Scheme != "http" && req.URL.Scheme != "https") ||
		req.URL.Path == robotsPath || isClientFetch(req.Context())
}

// Wait does for req what RoundTrip does before it sends a request, without
// sending it: it decides req by robots.txt, and with CrawlDelay it waits
// for req's crawl-delay turn at its origin, bounded by req's context. It
// returns the turn, which the request then carries in its context
// (Turn.Context), so that RoundTrip sends it without waiting for another.
// So a crawler can wait for a request's turn before it starts the
// request's clock (an http.Client's Timeout, a context's deadline): a
// request that waits in RoundTrip waits within its own time-out, and
// fails with a *CrawlDelayError when its turn comes after it (see
// Transport, Pacing).
//
//	turn, err := t.Wait(req) // req's context: the crawl's, without a deadline
//	if err != nil {
//		return err // a *DisallowedError, or the context's error
//	}
//	ctx, cancel := context.WithTimeout(turn.Context(req.Context()), 10*time.Second)
//	defer cancel()
//	resp, err := hc.Do(req.WithContext(ctx)) // goes at once
//
// Its errors are RoundTrip's, and so are its counters (TransportStats): a
// request it refuses counts as refused. The turn is nil when req takes
// none (CrawlDelay is off, the site has no crawl-delay for the crawler, or
// RoundTrip sends req untouched: see Transport); nil's Context returns the
// context as it is. A turn taken and never used is a gap in the site's
// requests, as a turn given back is. Wait does not close req.Body.
func (t *Transport) Wait(req *http.Request) (*Turn, error) {
	if exempt(req) {
		return nil, nil
	}
	m, res, err := t.check(req)
	if err != nil || !t.CrawlDelay || crawlDelay(m) <= 0 {
		return nil, err
	}
	if err := t.pace(req.Context(), &res, m); err != nil {
		return nil, err
	}
	return &Turn{t: t, origin: paceOrigin(&res)}, nil
}

// Turn is a crawl-delay turn that Transport.Wait took for a request. A
// request whose context carries it (Context) is sent by that Transport's
// RoundTrip, to that origin, without waiting for another turn, once: a
// redirect, or a second request with the same context, waits for its own.
type Turn struct {
	t      *Transport
	origin string
	used   atomic.Bool
}

// turnKey is the context key of a Turn.
type turnKey struct{}

// Context returns a context of ctx that carries the turn; ctx itself when
// the turn is nil.
func (tn *Turn) Context(ctx context.Context) context.Context {
	if tn == nil {
		return ctx
	}
	return context.WithValue(ctx, turnKey{}, tn)
}

// takeTurn reports whether ctx carries an unused turn that Wait took with
// t at origin, and uses it.
func (t *Transport) takeTurn(ctx context.Context, origin string) bool {
	tn, _ := ctx.Value(turnKey{}).(*Turn)
	return tn != nil && tn.t == t && tn.origin == origin && tn.used.CompareAndSwap(false, true)
}

// CloseIdleConnections closes the idle connections of Base (as
// http.Client.CloseIdleConnections asks), when Base can.
func (t *Transport) CloseIdleConnections() {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	if c, ok := base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// isClientFetch reports whether ctx is the context of a Client's own
// robots.txt fetch: Client.get marks it.
func isClientFetch(ctx context.Context) bool {
	return ctx.Value(clientFetchKey{}) != nil
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

// method returns req's method, "GET" when empty (as net/http reads it).
func method(req *http.Request) string {
	if req.Method == "" {
		return http.MethodGet
	}
	return req.Method
}

// pace waits for the request's turn at its origin, when the crawler's
// groups (m, of res) have a crawl-delay and ctx carries no turn that Wait
// took for it: by Pacer, or by the Transport's own pacer when Pacer is nil
// or unavailable.
func (t *Transport) pace(ctx context.Context, res *Result, m *engine.Matcher) error {
	delay := crawlDelay(m)
	if delay <= 0 {
		return nil
	}
	origin := paceOrigin(res)
	if t.takeTurn(ctx, origin) {
		return nil
	}
	var err error
	if t.Pacer != nil {
		if err = t.Pacer.Wait(ctx, origin, delay); errors.Is(err, ErrPacerUnavailable) {
			t.fallbacks.Add(1)
			err = t.pacerInit().wait(ctx, origin, delay)
		}
	} else {
		err = t.pacerInit().wait(ctx, origin, delay)
	}
	var cd *CrawlDelayError
	if errors.As(err, &cd) {
		t.tooSoon.Add(1)
	}
	return err
}

// paceOrigin returns the origin whose turns a request decided by res takes.
func paceOrigin(res *Result) string {
	return strings.TrimSuffix(res.RobotsURL, robotsPath)
}

// crawlDelay returns the crawl-delay of m's groups, 0 when there is none. A
// file without crawl-delay lines costs a scan of the selected extension
// lines and no allocation.
func crawlDelay(m *engine.Matcher) time.Duration {
	exts := m.Selection().Extensions
	for i := range exts.Len() {
		if exts.At(i).Key == "crawl-delay" {
			d, _ := m.Extensions().CrawlDelay()
			return d
		}
	}
	return 0
}

// pacerInit returns t's pacer, making it on first use.
func (t *Transport) pacerInit() *pacer {
	if p := t.pacer.Load(); p != nil {
		return p
	}
	n := t.MaxPacedHosts
	if n <= 0 {
		n = DefaultMaxPacedHosts
	}
	t.pacer.CompareAndSwap(nil, &pacer{max: n, hosts: make(map[string]*paceSlot)})
	return t.pacer.Load()
}

// pacer hands out turns per origin, as golang.org/x/time/rate's
// Limiter.Wait hands out tokens, with a burst of one: a request goes at once
// when the origin's delay has passed since the last one went and nobody
// waits; otherwise it queues. The head of the queue is let go by a timer
// when the delay has passed, and records when it went (under the lock, on
// waking), so the next delay is counted from when it really went. A request
// that cannot have its turn before its deadline is refused before it
// queues; one that gives up leaves the queue. Origins that nobody waits for
// are kept in a min-heap by when their delay ends, so that the ones that
// can be forgotten without loss are at the top.
type pacer struct {
	mu        sync.Mutex
	max       int
	hosts     map[string]*paceSlot
	idle      paceHeap // the origins of hosts that nobody waits for
	forgotten int64
	waited    int64
	// went, when set (by tests), is told when each request goes, under
	// the lock: the times the turns are counted from.
	went func(time.Time)
}

// paceSlot is the pacing state of one origin.
type paceSlot struct {
	origin  string
	delay   time.Duration // the origin's crawl-delay, as last looked up
	last    time.Time     // when the last request to the origin went
	queue   []*paceWaiter // the requests waiting, first come first
	letting bool          // the head was let go and has not gone yet
	timer   *time.Timer   // lets the head go
	index   int           // in pacer.idle; -1 while requests wait
}

// paceWaiter is one request in a queue.
type paceWaiter struct {
	ready chan struct{} // closed when it is let go
	let   bool          // it was let go (set with ready, under the lock)
}

// wait waits for a request's turn at origin: delay after the last request
// there went. It returns at once with a *CrawlDelayError, taking no turn,
// when ctx's deadline comes before the turn; and with ctx's error when ctx
// ends while it waits, giving its turn back.
func (p *pacer) wait(ctx context.Context, origin string, delay time.Duration) error {
	p.mu.Lock()
	now := time.Now()
	s := p.slot(origin, now)
	s.delay = delay
	if len(s.queue) == 0 && !s.letting && !now.Before(s.last.Add(delay)) {
		s.last = now
		if p.went != nil {
			p.went(now)
		}
		p.settle(s)
		p.mu.Unlock()
		return nil
	}
	turn := s.turn(now, len(s.queue))
	if deadline, ok := ctx.Deadline(); ok && deadline.Before(turn) {
		p.settle(s) // its delay may have changed
		p.mu.Unlock()
		return &CrawlDelayError{Origin: origin, Delay: delay, Wait: turn.Sub(now)}
	}
	w := &paceWaiter{ready: make(chan struct{})}
	s.queue = append(s.queue, w)
	p.waited++
	p.settle(s)
	if len(s.queue) == 1 && !s.letting {
		p.schedule(s, now)
	}
	p.mu.Unlock()

	select {
	case <-w.ready:
	case <-ctx.Done():
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	err := ctx.Err()
	if w.let {
		s.letting = false
		if err == nil {
			s.last = time.Now() // it goes now; else its turn is given back
			if p.went != nil {
				p.went(s.last)
			}
		}
	} else if i := slices.Index(s.queue, w); i >= 0 {
		s.queue = slices.Delete(s.queue, i, i+1)
	}
	if len(s.queue) > 0 && !s.letting {
		p.schedule(s, time.Now())
	}
	p.settle(s)
	return err
}

// turn returns when the request after the k requests waiting at s would
// go, at now.
func (s *paceSlot) turn(now time.Time, k int) time.Time {
	t := s.last.Add(s.delay)
	if s.letting { // the head was let go and is about to go
		t = now.Add(s.delay)
	}
	if t.Before(now) {
		t = now
	}
	return t.Add(time.Duration(k) * s.delay)
}

// schedule lets the head of s's queue go now, if its turn has come, or
// when it comes. p.mu is held.
func (p *pacer) schedule(s *paceSlot, now time.Time) {
	at := s.last.Add(s.delay)
	if at.After(now) {
		if s.timer == nil {
			s.timer = time.AfterFunc(at.Sub(now), func() { p.fire(s) })
		} else {
			s.timer.Reset(at.Sub(now))
		}
		return
	}
	w := s.queue[0]
	s.queue = slices.Delete(s.queue, 0, 1)
	w.let, s.letting = true, true
	close(w.ready)
}

// fire is s's timer: it lets the head of the queue go, unless that has
// been done or nobody waits any more.
func (p *pacer) fire(s *paceSlot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(s.queue) > 0 && !s.letting {
		p.schedule(s, time.Now())
	}
}

// slot returns origin's pacing state, making it if needed: then it first
// forgets the idle origins whose delay has passed and, past MaxPacedHosts,
// the ones whose delay ends first. p.mu is held.
func (p *pacer) slot(origin string, now time.Time) *paceSlot {
	if s := p.hosts[origin]; s != nil {
		return s
	}
	for len(p.idle) > 0 {
		top := p.idle[0]
		passed := !top.last.Add(top.delay).After(now)
		if !passed && len(p.hosts) < p.max {
			break
		}
		heap.Pop(&p.idle)
		delete(p.hosts, top.origin)
		if !passed {
			p.forgotten++
		}
	}
	s := &paceSlot{origin: origin, index: -1}
	p.hosts[origin] = s
	return s
}

// settle puts s in the idle heap, at its place, when nobody waits at it,
// and takes it out when somebody does. p.mu is held.
func (p *pacer) settle(s *paceSlot) {
	idle := len(s.queue) == 0 && !s.letting
	switch {
	case idle && s.index < 0:
		heap.Push(&p.idle, s)
	case idle:
		heap.Fix(&p.idle, s.index)
	case s.index >= 0:
		heap.Remove(&p.idle, s.index)
	}
}

// paceHeap is a min-heap of idle origins by when their delay ends
// (container/heap).
type paceHeap []*paceSlot

func (h paceHeap) Len() int { return len(h) }
func (h paceHeap) Less(i, j int) bool {
	return h[i].last.Add(h[i].delay).Before(h[j].last.Add(h[j].delay))
}
func (h paceHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *paceHeap) Push(x any) {
	s := x.(*paceSlot)
	s.index = len(*h)
	*h = append(*h, s)
}
func (h *paceHeap) Pop() any {
	old := *h
	s := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	s.index = -1
	return s
}
