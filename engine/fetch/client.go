// Package fetch is the access method of robots.txt, as RFC 9309 sets it out
// (docs/SEMANTICS.md, "Fetching robots.txt"): a Client finds the robots.txt
// that governs a URL, fetches it over HTTP, compiles it and caches it, so
// that a crawler asks "may I fetch this URL?" in one call:
//
//	client := fetch.New(fetch.Options{UserAgent: "FooBot/1.0 (+https://foo.example/bot)"})
//	defer client.Close()
//	ok, res, err := client.Allowed(ctx, "FooBot", "https://example.com/page")
//
// (Example runs it against a test server.) A fetch follows redirects; a 2xx
// is the file, fresh for 24 hours; a 4xx means no robots.txt, so everything
// is allowed; a 5xx, a 429 or a network error means unreachable, so the last
// copy is used for up to 30 days, and without one everything is
// disallowed. One fetch runs per site however many lookups wait for it, and
// a cache hit takes no lock and allocates nothing. Result says where the
// rules came from (Fetched, Cached, Stale, ...). Options.Agents makes a
// Client for one crawler: each file is compiled for it alone
// (engine.CompileFor), so a cached site costs less memory.
//
// Transport is an http.RoundTripper that obeys robots.txt for any
// http.Client: a disallowed request is never sent (DisallowedError), and
// with CrawlDelay each site's requests are paced by its crawl-delay
// (ExampleTransport_crawler). Transport.Usage and Client.Usage give a
// response's usage preferences (Content-Usage) for AI crawlers.
//
// A fleet shares fetched files and crawl-delay turns through a Store and a
// Pacer (Redis: package store/redisstore); a single node can keep its cache
// in a file (store/boltstore). Every bound (sizes, time-outs, entries,
// bytes) is a named constant or an Options field, listed in LIMITS.md.
//
// How it works (cache keys, freshness, conditional requests, the Store's
// leases, the cache on many cores and its eviction) is in DESIGN.md beside
// this file.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
)

const (
	// DefaultUserAgent is the User-Agent header of a robots.txt request
	// that names no crawler: one made by Lookup, with Options.UserAgent
	// empty. Every other request sends the crawler's own (see
	// Options.UserAgent): some sites serve a different robots.txt per
	// crawler.
	DefaultUserAgent = "robotstxt-go"

	// DefaultTimeout bounds one fetch, from the request to the last body
	// byte, redirects included: 30 seconds is what common crawlers allow a
	// slow server, and a robots.txt of 500 KiB needs less than that at any
	// usable bandwidth.
	DefaultTimeout = 30 * time.Second

	// DefaultMaxRedirects is the number of redirects followed: RFC 9309
	// section 2.3.1.2 asks for at least five, and Google follows five.
	DefaultMaxRedirects = 5

	// DefaultTTL is how long a fetched result stays fresh without a
	// Cache-Control max-age: 24 hours, RFC 9309 section 2.4 and Google.
	DefaultTTL = 24 * time.Hour

	// DefaultKoster1996TTL is DefaultTTL in Koster1996 semantics: the 1996
	// draft suggests a cached copy be used for up to 7 days.
	DefaultKoster1996TTL = 7 * 24 * time.Hour

	// DefaultMinTTL is the shortest freshness a Cache-Control max-age (also
	// max-age=0, no-cache, no-store) can ask for: one minute keeps a site
	// that forbids caching from being asked for its robots.txt before every
	// page, while a change still takes effect at once for a human.
	DefaultMinTTL = time.Minute

	// DefaultMaxTTL is the longest freshness a Cache-Control max-age can
	// ask for: a week, the 1996 draft's suggestion, so that a change of the
	// file is seen within a week whatever the server once said.
	DefaultMaxTTL = 7 * 24 * time.Hour

	// DefaultRetryTTL is how long an unreachable result (stale or default)
	// is kept before the next attempt: a minute, so that a short outage
	// blocks a site for a minute only. Each further failure in a row
	// doubles it, up to DefaultMaxRetryTTL. A Retry-After header of a 429
	// or 5xx is honoured within the same bounds.
	DefaultRetryTTL = time.Minute

	// DefaultMaxRetryTTL is the longest wait between two attempts to fetch
	// an unreachable robots.txt: an hour bounds both the load on a failing
	// server and how long a recovered site stays blocked.
	DefaultMaxRetryTTL = time.Hour

	// DefaultMaxStale is how long the last copy of a robots.txt is used
	// while it is unreachable, counted from when it was fetched, and how
	// long a site that never answered is disallowed: 30 days, as Google
	// does and RFC 9309 section 2.4 allows.
	DefaultMaxStale = 30 * 24 * time.Hour

	// DefaultMaxEntries bounds the number of cached robots.txt results:
	// ten thousand sites covers the working set of a crawler with
	// thousands of hosts in flight.
	DefaultMaxEntries = 10000

	// DefaultMaxBytes bounds the bytes the cache holds, counted as what
	// each compiled file holds (engine.Robots.Bytes: the parsed file and
	// the states its matchers have built so far; with Options.Agents the
	// crawler's engine.Matcher.Bytes) plus EntryOverhead: 64
	// MiB holds 10,000 typical files (a few KiB each) or a hundred of the
	// largest (500 KiB).
	DefaultMaxBytes = 64 << 20

	// EntryOverhead is what an entry costs against MaxBytes besides its
	// compiled file and the bytes it keeps (its robots.txt URL, a
	// FinalURL, an error text, the validators, and with a Store the body):
	// the entry, its Result, its timer and the parts of an error kept for
	// errors.Is and errors.As.
	EntryOverhead = 1 << 9

	// MaxURLLength bounds the URLs an entry or an error keeps of what the
	// server sent: Result.FinalURL, and DisallowedError.URL. 4 KiB holds
	// any URL a site links to (browsers and servers commonly refuse
	// request lines past 8 KiB; the old Internet Explorer's limit was 2083
	// bytes); a server can send megabytes in a Location header. A longer
	// URL is cut and ends in "...".
	MaxURLLength = 4 << 10

	// MaxErrorLength bounds the text of Result.Err: 512 bytes hold the
	// robots.txt URL of any real host and the longest error net/http and
	// crypto/tls write for it, while a server can put megabytes in a reason
	// phrase or a Location that net/http quotes (twice) in its error. A
	// longer text is cut and ends in "...".
	MaxErrorLength = 1 << 9

	// DefaultMaxHeaderBytes bounds the response header (status line
	// included, 1xx replies counted too) that the Client's own transport
	// reads (see NewHTTPTransport): 256 KiB is what Chromium accepts, so
	// no site a browser can load is refused; Go's default is 10 MiB a
	// response. A larger header is a transfer error: unreachable.
	DefaultMaxHeaderBytes = 256 << 10
)

// ErrClosed is the error of a lookup made after Client.Close, or in flight
// when it was called.
var ErrClosed = errors.New("fetch: the Client is closed")

// ErrOtherCrawler is the error, wrapped with both crawlers' names, of a
// question that a Client with Options.Agents cannot answer: about a
// crawler other than the one it serves (its matchers hold that crawler's
// groups only, and would answer another wrongly), and every MatcherChain.
// A Transport on such a Client returns it for every request when its Agent
// or Tokens are another crawler's, or its Chain is set. Nothing is looked
// up or fetched.
var ErrOtherCrawler = errors.New("fetch: not the crawler the Client serves")

// Options configure a Client. The zero value is valid: every zero field
// means its default.
type Options struct {
	// Engine configures the compilation of fetched files: semantics, file
	// size limit (also the number of body bytes read) and state budget.
	Engine engine.Options
	// UserAgent is the User-Agent header of every robots.txt request, the
	// crawler's own ("FooBot/1.0 (+https://foo.example/bot)"). When it is
	// empty, each request sends that of the crawler whose lookup started
	// it: a Transport's UserAgent, else the User-Agent header of the page
	// request the Transport checks, else the product token of the lookup
	// (Allowed's and Decide's agent, the first of Matcher's tokens); a
	// Lookup, which names no crawler, sends DefaultUserAgent.
	UserAgent string
	// HTTPClient makes the requests: its Transport, Jar and Timeout are
	// used. The Client follows redirects itself (HTTPClient.CheckRedirect
	// is not called), and with a nil HTTPClient or Transport it uses a
	// transport of its own (NewHTTPTransport), which it closes on Close.
	HTTPClient *http.Client
	// Timeout bounds each fetch (DefaultTimeout).
	Timeout time.Duration
	// MaxRedirects is the number of redirects followed
	// (DefaultMaxRedirects); a negative value follows none.
	MaxRedirects int
	// TTL is the freshness of a result without Cache-Control max-age
	// (DefaultTTL, or DefaultKoster1996TTL in Koster1996 semantics).
	TTL time.Duration
	// MinTTL and MaxTTL bound the freshness Cache-Control asks for
	// (DefaultMinTTL, DefaultMaxTTL).
	MinTTL, MaxTTL time.Duration
	// RetryTTL and MaxRetryTTL bound the wait before fetching an
	// unreachable robots.txt again (DefaultRetryTTL, DefaultMaxRetryTTL).
	RetryTTL, MaxRetryTTL time.Duration
	// MaxStale is how long a copy is used while unreachable (DefaultMaxStale).
	MaxStale time.Duration
	// MaxEntries and MaxBytes bound the cache (DefaultMaxEntries,
	// DefaultMaxBytes).
	MaxEntries int
	MaxBytes   int64
	// Now is the clock (time.Now); tests inject their own.
	Now func() time.Time
	// Store, when set, keeps the fetched record of each origin beyond this
	// Client's cache: nodes of a fleet that share one, and a node that
	// restarts, fetch each robots.txt once, and each tdmrep.json that a
	// TDMReps of the Client asks for (see Store). Nil: none.
	Store Store
	// StoreTimeout bounds each call to the Store (DefaultStoreTimeout).
	StoreTimeout time.Duration
	// Agents, when set, are the product tokens of the one crawler the
	// Client serves, most specific first, as engine.CompileFor takes them
	// (a string that is not a product token is read as
	// engine.AgentTokens says). Each robots.txt is then compiled for that
	// crawler alone (engine.CompileFor): the groups of other crawlers are
	// neither copied nor kept, so a cached site costs less memory, and
	// Result.Matcher holds the crawler's matcher in place of
	// Result.Robots. The Client then answers for that crawler only: a
	// method given an agent or tokens that stand for others (compared as
	// engine.Matcher.IsFor compares them), every MatcherChain (a chain
	// has no such compiled form), and every request of a Transport whose
	// Agent or Tokens are others or whose Chain is set fail with
	// ErrOtherCrawler before any look-up. Nil or empty: every file is
	// compiled whole, for any crawler.
	Agents []string
}

// Client fetches, compiles and caches robots.txt files. It is safe for
// concurrent use; create one per crawler and share it.
type Client struct {
	engineOpts  engine.Options
	userAgent   string // Options.UserAgent: "" sends the crawler's own (userAgentFor)
	transport   http.RoundTripper
	jar         http.CookieJar
	own         *http.Transport // transport when the Client made it
	timeout     time.Duration
	maxFileSize int
	ttl         time.Duration
	minTTL      time.Duration
	maxTTL      time.Duration
	retryTTL    time.Duration
	maxRetryTTL time.Duration
	maxStale    time.Duration
	maxEntries  int
	maxBytes    int64
	now         func() time.Time
	// realClock is set when Options.Now is nil: freshness is then kept
	// by a timer per entry, so that a cache hit reads no clock (time.Now
	// costs 20 to 100 ns, more than the rest of a hit).
	realClock bool
	// maxRedirects is the number of redirects followed.
	maxRedirects int

	// agents are Options.Agents, nil when it is empty; allowAll and
	// disallowAll are the rules of the defaults, the crawler's matchers
	// of them with agents (see rules and compile).
	agents      []string
	allowAll    rules
	disallowAll rules

	group   singleflight.Group
	fetches atomic.Int64

	store        Store
	storeTimeout time.Duration
	maxRecord    int          // the longest record read from the store
	storeDown    atomic.Int64 // until when (Unix ns) the store is left alone after a failure
	storeStats   storeStats
	revalidated  atomic.Int64

	// ctx ends with Close, and the fetches in flight with it.
	ctx    context.Context
	cancel context.CancelFunc
	closed atomic.Bool

	// index maps each origin of entries to its entry, for the cache hits,
	// which read it without a lock (see Client and entry.used).
	index  sync.Map
	hits   stripes // lookups answered by a fresh entry, counted per P
	misses atomic.Int64

	mu      sync.Mutex // guards what follows; index is written under it too
	entries map[string]*entry
	leases  map[string]string // the Store leases this node holds: origin to token; nil after Close
	// lru is the sentinel of the list of entries in the order they were
	// placed, or given a second chance by evict: lru.next the last.
	lru   entry
	bytes int64
}

// New returns a Client configured by opts.
func New(opts Options) *Client {
	c := &Client{
		engineOpts:   opts.Engine,
		userAgent:    opts.UserAgent,
		timeout:      or(opts.Timeout, DefaultTimeout),
		maxRedirects: or(opts.MaxRedirects, DefaultMaxRedirects),
		maxFileSize:  compile.Options{MaxFileSize: opts.Engine.MaxFileSize}.EffectiveMaxFileSize(),
		ttl:          opts.TTL,
		minTTL:       or(opts.MinTTL, DefaultMinTTL),
		maxTTL:       or(opts.MaxTTL, DefaultMaxTTL),
		retryTTL:     or(opts.RetryTTL, DefaultRetryTTL),
		maxRetryTTL:  or(opts.MaxRetryTTL, DefaultMaxRetryTTL),
		maxStale:     or(opts.MaxStale, DefaultMaxStale),
		maxEntries:   or(opts.MaxEntries, DefaultMaxEntries),
		maxBytes:     or(opts.MaxBytes, DefaultMaxBytes),
		now:          opts.Now,
		entries:      make(map[string]*entry),
		leases:       make(map[string]string),
		hits:         newStripes(),
		store:        opts.Store,
		storeTimeout: or(opts.StoreTimeout, DefaultStoreTimeout),
	}
	c.maxRecord = c.maxFileSize + 1 + recordOverhead
	if opts.MaxRedirects < 0 {
		c.maxRedirects = 0
	}
	if c.ttl <= 0 {
		c.ttl = DefaultTTL
		if opts.Engine.Semantics == engine.Koster1996 {
			c.ttl = DefaultKoster1996TTL
		}
	}
	c.maxTTL = max(c.maxTTL, c.minTTL)
	c.maxRetryTTL = max(c.maxRetryTTL, c.retryTTL)
	if c.now == nil {
		c.now, c.realClock = time.Now, true
	}
	if hc := opts.HTTPClient; hc != nil {
		c.transport, c.jar = hc.Transport, hc.Jar
		if hc.Timeout > 0 {
			c.timeout = min(c.timeout, hc.Timeout)
		}
	}
	if c.transport == nil {
		c.own = NewHTTPTransport()
		c.transport = c.own
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.allowAll = rules{robots: engine.AllowAll(opts.Engine)}
	c.disallowAll = rules{robots: engine.DisallowAll(opts.Engine)}
	if len(opts.Agents) > 0 {
		c.agents = slices.Clone(opts.Agents)
		c.allowAll = rules{matcher: c.allowAll.robots.Matcher(c.agents...)}
		c.disallowAll = rules{matcher: c.disallowAll.robots.Matcher(c.agents...)}
	}
	c.lru.next, c.lru.prev = &c.lru, &c.lru
	return c
}

// rules are what a state decides with: the compiled file (robots), or with
// Options.Agents the crawler's matcher of it (matcher); the other is nil.
type rules struct {
	robots  *engine.Robots
	matcher *engine.Matcher
}

// compile compiles body, a fetched or stored robots.txt, as the Client
// keeps it: the whole file, or with Options.Agents the crawler's part
// (engine.CompileFor). It is the one place that decides which.
func (c *Client) compile(body []byte) rules {
	if c.agents != nil {
		return rules{matcher: engine.CompileFor(body, c.engineOpts, c.agents...)}
	}
	return rules{robots: engine.Compile(body, c.engineOpts)}
}

// bytes returns the memory the rules hold (engine.Robots.Bytes or
// engine.Matcher.Bytes).
func (r rules) bytes() int {
	if r.matcher != nil {
		return r.matcher.Bytes()
	}
	return r.robots.Bytes()
}

// warnings returns the file's warnings: none for a crawler's matcher
// (engine.CompileFor reads none).
func (r rules) warnings() []engine.Warning {
	if r.robots == nil {
		return nil
	}
	return r.robots.Warnings()
}

// rules returns the rules res holds.
func (res *Result) rules() rules { return rules{robots: res.Robots, matcher: res.Matcher} }

// setRules makes r the rules of res.
func (res *Result) setRules(r rules) { res.Robots, res.Matcher = r.robots, r.matcher }

// other returns ErrOtherCrawler, wrapped with both names, when the Client
// serves one crawler (Options.Agents) and agents stand for another; nil
// otherwise. It allocates nothing when it returns nil and agents are
// product tokens.
func (c *Client) other(agents ...string) error {
	if c.agents == nil || c.allowAll.matcher.IsFor(agents...) {
		return nil
	}
	return otherCrawler(strings.Join(agents, ", "), c.agents)
}

// otherCrawler returns ErrOtherCrawler wrapped with the names of the
// crawler asked about (asked) and of the one served.
func otherCrawler(asked string, served []string) error {
	if asked == "" {
		asked = "no crawler"
	}
	return fmt.Errorf("%w: asked for %q, the Client serves %q (Options.Agents)",
		ErrOtherCrawler, cutText(asked, maxNameQuoted), cutText(strings.Join(served, ", "), maxNameQuoted))
}

// chainRefused returns ErrOtherCrawler wrapped with the tokens of a chain
// asked for and the crawler served: a Client with Options.Agents compiles
// no chain form of its crawler's groups.
func chainRefused(tokens, served []string) error {
	return fmt.Errorf("%w: asked for the chain %q, and a Client with Options.Agents (%q) compiles no chain",
		ErrOtherCrawler, cutText(strings.Join(tokens, ", "), maxNameQuoted), cutText(strings.Join(served, ", "), maxNameQuoted))
}

// maxNameQuoted bounds the names ErrOtherCrawler's text quotes: a
// crawler's tokens are a few dozen bytes, a header passed by mistake a few
// hundred, a hostile one megabytes.
const maxNameQuoted = 256

// or returns v, or def when v is the zero value or negative.
func or[T int | int64 | time.Duration](v, def T) T {
	var zero T
	if v <= zero {
		return def
	}
	return v
}

// NewHTTPTransport returns the transport a Client makes for itself when
// Options.HTTPClient has none: http.DefaultTransport's settings, with
// response headers bounded by DefaultMaxHeaderBytes. A crawler that brings
// its own http.Client can start from it.
func NewHTTPTransport() *http.Transport {
	var t *http.Transport
	if d, ok := http.DefaultTransport.(*http.Transport); ok {
		t = d.Clone()
	} else {
		t = &http.Transport{Proxy: http.ProxyFromEnvironment, ForceAttemptHTTP2: true}
	}
	t.MaxResponseHeaderBytes = DefaultMaxHeaderBytes
	return t
}

// entry is the cache's record of one origin.
type entry struct {
	key       string // origin: scheme://host[:port]
	robotsURL string // key + robotsPath, which key is the start of
	// st is the current result, fresh until its Expires: written under
	// Client.mu, read by the cache hits without it.
	st atomic.Pointer[state]
	// used is set by a cache hit when it is not set already, so that the
	// hits on an entry that is in use write nothing; evict clears it when
	// it gives the entry a second chance.
	used atomic.Bool
	// good is the result of the last 2xx fetch, kept while the file is
	// unreachable for Stale results; nil after a 4xx or past MaxStale.
	good *state
	// reached is when the server last answered (2xx, 4xx, Koster 401/403);
	// downSince is when the current run of failed fetches began.
	reached, downSince time.Time
	failures           int    // failed fetches in a row
	cost               int64  // against Client.maxBytes
	prev, next         *entry // in Client.lru
}

// state is one immutable Result plus the matcher of the last agent that
// asked, so that the hit path needs no lookup in the engine.
type state struct {
	res  Result
	e    *entry // the entry it was made for, charged for its growth
	memo atomic.Pointer[memoMatcher]
	// With the real clock, timer sets expired at res.Expires. The timer's
	// function holds expired alone, not the state: a pending timer keeps
	// nothing else reachable.
	expired *atomic.Bool
	timer   *time.Timer
	// at is when the fetch that made the state was made.
	at time.Time
	// Of a fetched copy (the entry's good state): its validators, for a
	// conditional fetch when it expires, each at most maxValidatorLength;
	// and, with a Store, the body it was compiled from, for the records.
	etag, lastModified string
	body               []byte
}

// fresh reports whether st is still fresh. With the real clock it reads no
// clock: the state's timer marks it expired (a timer fires at most a few
// milliseconds late, and uses the monotonic clock, so a change of the wall
// clock does not expire or revive entries). Reading the clock instead cost
// a cache hit about 40 ns on this project's VM (2026-12-07,
// BenchmarkClient_CachedAllowed, 8 runs each in turn: lookup-only 34-35 ns
// with the timer, 73-81 ns with time.Now; canonical 180-214 against
// 221-243 ns).
func (c *Client) fresh(st *state) bool {
	if st.expired != nil {
		return !st.expired.Load()
	}
	return c.now().Before(st.res.Expires)
}

// arm starts the timer that expires st, with the real clock; now is the
// time st.res.Expires was computed from.
func (c *Client) arm(st *state, now time.Time) {
	if !c.realClock {
		return
	}
	expired := new(atomic.Bool)
	st.expired = expired
	d := st.res.Expires.Sub(now)
	if d <= 0 {
		expired.Store(true)
		return
	}
	st.timer = time.AfterFunc(d, func() { expired.Store(true) })
}

// disarm stops st's timer, once st is no longer in the cache.
func disarm(st *state) {
	if st != nil && st.timer != nil {
		st.timer.Stop()
	}
}

type memoMatcher struct {
	agent string
	m     *engine.Matcher
}

// agentMatcher returns the matcher of st's Robots for agent, memoised in
// st; with Options.Agents, the crawler's matcher st holds (agent is the
// crawler: the caller checked).
func (c *Client) agentMatcher(st *state, agent string) *engine.Matcher {
	if m := st.res.Matcher; m != nil {
		return m
	}
	if p := st.memo.Load(); p != nil && p.agent == agent {
		return p.m
	}
	m := c.bound(st, func(r *engine.Robots) *engine.Matcher { return r.Matcher(agent) })
	st.memo.Store(&memoMatcher{agent: strings.Clone(agent), m: m})
	return m
}

// crawlerMatcher returns the matcher of st's Robots for a Transport's
// crawler, memoised as agentMatcher memoises an agent's (cr.key is the
// crawler's own); with Options.Agents, the crawler's matcher st holds
// (Transport.crawler checked that it is the Transport's).
func (c *Client) crawlerMatcher(st *state, cr *crawler) *engine.Matcher {
	if m := st.res.Matcher; m != nil {
		return m
	}
	if p := st.memo.Load(); p != nil && p.agent == cr.key {
		return p.m
	}
	m := c.bound(st, func(r *engine.Robots) *engine.Matcher { return tokensMatcher(r, cr.tokens, cr.chain) })
	st.memo.Store(&memoMatcher{agent: cr.key, m: m})
	return m
}

// bound returns the matcher get takes from st's Robots, and charges st's
// entry for the memory binding it added, if any: a matcher that decides
// its URLs in its warm-up builds no state (which decideWith charges), but
// its binding holds memory all the same. With Options.Agents it returns
// the crawler's matcher st holds, which its entry is charged for already.
func (c *Client) bound(st *state, get func(*engine.Robots) *engine.Matcher) *engine.Matcher {
	if m := st.res.Matcher; m != nil {
		return m
	}
	r := st.res.Robots
	before := r.Bytes()
	m := get(r)
	if r.Bytes() != before {
		c.recharge(st)
	}
	return m
}

// result returns the Result a lookup reports; hit says it was answered from
// the cache.
func (s *state) result(hit bool) Result {
	r := s.res
	if hit {
		r.Hit = true
		if r.Source == Fetched {
			r.Source = Cached
		}
	}
	return r
}

// Lookup returns the rules that govern pageURL: from the cache when fresh,
// else fetched (one fetch per robots.txt URL however many lookups wait for
// it). A failed fetch is no error: Result.Source and Result.Err report it and
// Result.Robots (Result.Matcher with Options.Agents) holds the rules to
// apply. The error is non-nil only when
// pageURL has no robots.txt (see RobotsURL; Client fetches http and https
// only), ctx ends before the result is known, or the Client is closed
// (ErrClosed); Result.Source is then NoSource.
//
// A fetch is not cancelled when ctx is (other lookups may wait for it); it is
// bounded by Options.Timeout, and its result is cached.
func (c *Client) Lookup(ctx context.Context, pageURL string) (Result, error) {
	st, hit, err := c.lookup(ctx, pageURL, "")
	if err != nil {
		return Result{}, err
	}
	return st.result(hit), nil
}

// Allowed reports whether the crawler with product token agent may fetch
// pageURL, with the Result it decided by (see Lookup). When the error is
// non-nil, allowed is false. A cache hit allocates nothing when pageURL is
// canonical (lower-case http(s) scheme and ASCII host, no default port, no
// userinfo) and agent asked last for that site.
//
// agent must be a product token (letters, '-' and '_'), or "" or "*" for no
// crawler in particular (the "*" groups apply): anything else, such as a
// User-Agent header or "FooBot/1.0", is refused with an *engine.AgentError
// naming the tokens it holds, before any fetch: a crawler configured with
// its header should be told at once, not have it read one way or another.
// A crawler with several tokens uses Matcher or MatcherChain. With
// Options.Agents, agent must be the Client's crawler (its one token,
// ignoring ASCII case), else the error wraps ErrOtherCrawler, before any
// fetch; so for Decide, Usage, Page and PageTDM.
func (c *Client) Allowed(ctx context.Context, agent, pageURL string) (bool, Result, error) {
	if err := c.checkAgent(agent); err != nil {
		return false, Result{}, err
	}
	st, hit, err := c.lookup(ctx, pageURL, agent)
	if err != nil {
		return false, Result{}, err
	}
	d := c.decide(st, agent, pageURL)
	return d.Allowed, st.result(hit), nil
}

// decide decides pageURL with st's rules for agent; see decideWith.
func (c *Client) decide(st *state, agent, pageURL string) engine.Decision {
	return c.decideWith(st, c.agentMatcher(st, agent), pageURL)
}

// decideWith decides pageURL with m, a matcher of st's rules, and charges
// st's entry for the states the decision built, if any (two atomic loads
// when it built none).
func (c *Client) decideWith(st *state, m *engine.Matcher, pageURL string) engine.Decision {
	before := m.Bytes()
	d := m.Decide(pageURL)
	if m.Bytes() != before {
		c.recharge(st)
	}
	return d
}

// usageWith returns the usage preferences of pageURL with m, a matcher of
// st's rules, combined with a response's Content-Usage field lines, and
// charges st's entry for the states it built, as decideWith does.
func (c *Client) usageWith(st *state, m *engine.Matcher, pageURL string, header []string) engine.Usage {
	before := m.Bytes()
	u := m.Usage(pageURL).WithHeader(header...)
	if m.Bytes() != before {
		c.recharge(st)
	}
	return u
}

// Usage returns the usage preferences (IETF AI Preferences: Content-Usage)
// of pageURL's content for agent: robots.txt's
// content-usage lines for the URL (engine.Matcher.Usage) combined with the
// page's Content-Usage response header when header holds one, the most
// restrictive per category (draft-ietf-aipref-vocab section 5.1). header
// is the page's response header, or nil when the page was not fetched
// yet. A URL that robots.txt disallows has no preferences
// (engine.UsageNotApplicable). agent must be a product token, "" or "*",
// as for Allowed. A crawler that fetches through a Transport asks
// Transport.Usage.
func (c *Client) Usage(ctx context.Context, agent, pageURL string, header http.Header) (engine.Usage, Result, error) {
	if err := c.checkAgent(agent); err != nil {
		return engine.Usage{}, Result{}, err
	}
	st, hit, err := c.lookup(ctx, pageURL, agent)
	if err != nil {
		return engine.Usage{}, Result{}, err
	}
	return c.usageWith(st, c.agentMatcher(st, agent), pageURL, header.Values(usageHeader)), st.result(hit), nil
}

// usageHeader is the HTTP field of usage preferences
// (draft-ietf-aipref-attach section 2).
const usageHeader = "Content-Usage"

// crawler is who a Transport decides for: one agent, or several tokens,
// merged or chained (checked by the Transport). key names its matcher in a
// state's memo: the agent itself, or for several tokens, or a chain, a
// string no agent can be and no other crawler's key is: the tokens each
// after a NUL, behind a \x01 for a chain (product tokens hold neither).
type crawler struct {
	tokens []string
	chain  bool
	key    string
}

func newCrawler(tokens []string, chain bool) *crawler {
	cr := &crawler{tokens: tokens, chain: chain, key: tokens[0]}
	if len(tokens) > 1 || chain {
		cr.key = "\x00" + strings.Join(tokens, "\x00")
		if chain {
			cr.key = "\x01" + cr.key
		}
	}
	return cr
}

// decideFor is Decide for a Transport's crawler: ua is the User-Agent
// header a fetch it starts sends. It also returns the matcher.
func (c *Client) decideFor(ctx context.Context, cr *crawler, pageURL, ua string) (engine.Decision, *engine.Matcher, Result, error) {
	st, hit, err := c.lookup(ctx, pageURL, ua)
	if err != nil {
		return engine.Decision{}, nil, Result{}, err
	}
	m := c.crawlerMatcher(st, cr)
	return c.decideWith(st, m, pageURL), m, st.result(hit), nil
}

// recharge counts again what st's entry holds, and evicts if the cache is
// now over its bounds.
func (c *Client) recharge(st *state) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := st.e; e != nil && c.entries[e.key] == e {
		c.bytes -= e.cost
		e.cost = c.cost(e)
		c.bytes += e.cost
		c.evict(e)
	}
}

// cost is what e counts against MaxBytes: its overhead and robots.txt URL
// (the key is its start), the strings its results keep, and the compiled
// file of its last 2xx fetch (with Options.Agents the crawler's matcher of
// it), the only one it keeps (apply: every other result uses that file,
// stale, or the shared allow-all and disallow-all answers, which cost
// nothing more).
func (c *Client) cost(e *entry) int64 {
	st := e.st.Load()
	n := int64(EntryOverhead+len(e.robotsURL)) + st.kept()
	if g := e.good; g != nil {
		n += int64(g.res.rules().bytes())
		if g != st {
			n += g.kept()
		}
	}
	return n
}

// kept returns the bytes of the strings st's Result keeps besides its
// robots.txt URL: FinalURL and the error text, each bounded by its limit;
// and of a fetched copy, its validators and body.
func (st *state) kept() int64 {
	n := int64(len(st.res.FinalURL) + len(st.etag) + len(st.lastModified) + len(st.body))
	if err := st.res.Err; err != nil {
		n += int64(len(err.Error())) // a *fetchError: no allocation
	}
	return n
}

// Decide is Allowed with the whole engine.Decision (which rule decided).
// agent must be a product token, "" or "*", as for Allowed.
func (c *Client) Decide(ctx context.Context, agent, pageURL string) (engine.Decision, Result, error) {
	if err := c.checkAgent(agent); err != nil {
		return engine.Decision{}, Result{}, err
	}
	st, hit, err := c.lookup(ctx, pageURL, agent)
	if err != nil {
		return engine.Decision{}, Result{}, err
	}
	return c.decide(st, agent, pageURL), st.result(hit), nil
}

// Matcher returns the matcher of the rules that govern pageURL for a
// crawler with several product tokens, as engine.Robots.Matcher(tokens...)
// makes it: every group naming any of the tokens applies, merged ("*" when
// none does). MatcherChain instead obeys only the groups of the first token
// that some group names. Decide with the matcher's Decide or Allowed; the
// Result says where the rules came from (see Lookup).
//
// Each token must be a product token, "" or "*", as for Allowed, else the
// error is an *engine.AgentError and nothing is fetched. With
// Options.Agents, tokens must stand for the Client's crawler (its tokens,
// in order, ignoring ASCII case), else the error wraps ErrOtherCrawler and
// nothing is fetched; the matcher is then Result.Matcher. The matcher
// counts against Options.MaxBytes at once; the states that decisions on it
// build, from the next time the entry is counted (a Client decision that
// builds states, a refresh); Allowed and Decide count them at once.
func (c *Client) Matcher(ctx context.Context, pageURL string, tokens ...string) (*engine.Matcher, Result, error) {
	return c.matcherFor(ctx, pageURL, false, tokens)
}

// MatcherChain is Matcher for a fallback chain, as
// engine.Robots.MatcherChain(tokens...) makes it: only the groups naming
// the first token that some group names apply, the precedence Google
// documents for its crawlers (tokens: engine.FallbackTokens("Googlebot-Image")).
// A Client with Options.Agents has no chain form of its crawler's groups
// (engine.CompileFor merges them): its MatcherChain always returns an
// error that wraps ErrOtherCrawler, and fetches nothing.
func (c *Client) MatcherChain(ctx context.Context, pageURL string, tokens ...string) (*engine.Matcher, Result, error) {
	return c.matcherFor(ctx, pageURL, true, tokens)
}

func (c *Client) matcherFor(ctx context.Context, pageURL string, chain bool, tokens []string) (*engine.Matcher, Result, error) {
	if err := checkTokens(tokens); err != nil {
		return nil, Result{}, err
	}
	if c.agents != nil && chain {
		return nil, Result{}, chainRefused(tokens, c.agents)
	}
	if err := c.other(tokens...); err != nil {
		return nil, Result{}, err
	}
	ua := ""
	if len(tokens) > 0 {
		ua = tokens[0]
	}
	st, hit, err := c.lookup(ctx, pageURL, ua)
	if err != nil {
		return nil, Result{}, err
	}
	m := c.bound(st, func(r *engine.Robots) *engine.Matcher { return tokensMatcher(r, tokens, chain) })
	return m, st.result(hit), nil
}

// checkAgent returns the error of an agent that Allowed, Decide, Usage and
// Page refuse before any look-up: no product token, "" or "*"
// (engine.CheckAgent), or, with Options.Agents, another crawler than the
// Client's (ErrOtherCrawler). It allocates nothing when agent is accepted.
func (c *Client) checkAgent(agent string) error {
	if err := engine.CheckAgent(agent); err != nil {
		return err
	}
	if c.agents != nil && !(len(c.agents) == 1 && agent == c.agents[0]) {
		return c.other(agent)
	}
	return nil
}

// checkTokens returns the error of the first of tokens that is no product
// token, "" or "*" (engine.CheckAgent).
func checkTokens(tokens []string) error {
	for _, t := range tokens {
		if err := engine.CheckAgent(t); err != nil {
			return err
		}
	}
	return nil
}

// tokensMatcher returns r's matcher for tokens: merged, or chained.
func tokensMatcher(r *engine.Robots, tokens []string, chain bool) *engine.Matcher {
	if chain {
		return r.MatcherChain(tokens...)
	}
	return r.Matcher(tokens...)
}

// crawlerUAKey is the context key of the User-Agent header that a robots.txt
// fetch started by a lookup sends when Options.UserAgent is empty: the
// crawler's own (see Options.UserAgent).
type crawlerUAKey struct{}

// userAgentFor returns the User-Agent header of the robots.txt request made
// with ctx: Options.UserAgent, else the crawler's that the lookup put in
// ctx, else DefaultUserAgent.
func (c *Client) userAgentFor(ctx context.Context) string {
	if c.userAgent != "" {
		return c.userAgent
	}
	if ua, _ := ctx.Value(crawlerUAKey{}).(string); ua != "" {
		return ua
	}
	return DefaultUserAgent
}

// flight is what one single-flight fetch hands to the lookups waiting for it.
type flight struct {
	st  *state
	hit bool
}

// lookup returns the state for pageURL's origin and whether it was a cache
// hit. ua is the crawler's User-Agent header (or product token) that a
// fetch it starts sends when Options.UserAgent is empty; "" names no
// crawler.
func (c *Client) lookup(ctx context.Context, pageURL, ua string) (*state, bool, error) {
	if c.closed.Load() {
		return nil, false, ErrClosed
	}
	key, fast := fastOrigin(pageURL)
	if !fast {
		o, err := origin(pageURL)
		if err != nil {
			return nil, false, err
		}
		if !strings.HasPrefix(o, "http://") && !strings.HasPrefix(o, "https://") {
			return nil, false, errors.New("robots.txt of " + pageURL + ": fetching supports http and https only")
		}
		key = o
	}
	if v, ok := c.index.Load(key); ok {
		e := v.(*entry)
		if st := e.st.Load(); st != nil && c.fresh(st) {
			c.touch(e)
			c.hits.add()
			return st, true, nil
		}
	}
	c.misses.Add(1)

	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	if fast {
		key = strings.Clone(key) // do not keep the page URL alive
	}
	if ua != "" && ua != "*" && c.userAgent == "" {
		ctx = context.WithValue(ctx, crawlerUAKey{}, ua)
	}
	ch := c.group.DoChan(key, func() (any, error) {
		return c.refresh(ctx, key), nil
	})
	select {
	case r := <-ch:
		if c.closed.Load() {
			return nil, false, ErrClosed
		}
		f := r.Val.(flight)
		return f.st, f.hit, nil
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
}

// refresh fetches the robots.txt of the origin key, unless a flight that
// just ended left a fresh entry or the Store has a fresh record, and stores
// the result.
func (c *Client) refresh(ctx context.Context, key string) flight {
	if v, ok := c.index.Load(key); ok {
		e := v.(*entry)
		if st := e.st.Load(); st != nil && c.fresh(st) {
			c.touch(e)
			return flight{st: st, hit: true}
		}
	}

	var lease string
	if c.store != nil {
		st, token := c.shared(ctx, key)
		if st != nil {
			return flight{st: st, hit: true}
		}
		lease = token
	}
	cond := c.conditional(key)
	r := c.get(ctx, key+robotsPath, cond)
	var compiled rules
	switch r.outcome {
	case outcomeOK:
		compiled = c.compile(r.body) // outside the lock: it takes linear time
	case outcomeNotModified:
		compiled = cond.res.rules()
		c.revalidated.Add(1)
	}
	now := c.now()

	c.mu.Lock()
	e := c.entries[key]
	if e == nil {
		robotsURL := key + robotsPath
		e = &entry{key: robotsURL[:len(key)], robotsURL: robotsURL}
		if c.closed.Load() { // the answer goes to the lookups waiting, not into the cache
			st := c.apply(e, &r, compiled, cond, now)
			c.mu.Unlock()
			return flight{st: st}
		}
		c.insert(e)
	}
	st := c.apply(e, &r, compiled, cond, now)
	snap := c.set(e, st, now)
	c.mu.Unlock()
	if c.store != nil {
		c.save(ctx, key, snap.record(c.engineOpts.Semantics), lease)
	}
	return flight{st: st}
}

// set makes st the current state of e, which is in the cache, and returns
// what a record of e is made of. c.mu is held.
func (c *Client) set(e *entry, st *state, now time.Time) snapshot {
	c.arm(st, now)
	disarm(e.st.Load()) // st is new: apply and adopt make a state for each call
	e.st.Store(st)
	c.bytes -= e.cost
	e.cost = c.cost(e)
	c.bytes += e.cost
	c.place(e)
	c.evict(e)
	return snapshot{fileURL: e.robotsURL, st: st, good: e.good, reached: e.reached, downSince: e.downSince, failures: e.failures}
}

// apply turns the response r into the entry's new state (docs/SEMANTICS.md
// sections 5.2 and 5.3), updating what e remembers across fetches. compiled
// is r's compiled body for outcomeOK, cond's for outcomeNotModified; cond is
// the copy the fetch was conditional on, nil when it was not.
func (c *Client) apply(e *entry, r *response, compiled rules, cond *state, now time.Time) *state {
	st := &state{res: Result{
		RobotsURL: e.robotsURL,
		FinalURL:  r.finalURL,
		Redirects: r.redirects,
		Status:    r.status,
		Size:      min(len(r.body), c.maxFileSize),
		Truncated: r.truncated,
		Fetched:   now,
		Err:       r.err,
	}, e: e, at: now}
	res := &st.res
	switch r.outcome {
	case outcomeOK, outcomeUnavailable, outcomeForbidden, outcomeNotModified:
		res.Expires = now.Add(c.freshness(r))
		e.reached, e.failures, e.good = now, 0, nil
		switch r.outcome {
		case outcomeOK:
			res.setRules(compiled)
			res.Source, res.Warnings = Fetched, compiled.warnings()
			st.etag, st.lastModified = r.etag, r.lastModified
			if c.store != nil {
				st.body = r.body
			}
			e.good = st
		case outcomeNotModified: // the copy is unchanged: renewed, not downloaded
			res.setRules(compiled)
			res.Source, res.Warnings = Fetched, compiled.warnings()
			res.Size, res.Truncated = cond.res.Size, cond.res.Truncated
			st.etag, st.lastModified = r.renewed(cond.etag, cond.lastModified)
			st.body = cond.body
			e.good = st
		case outcomeUnavailable:
			res.setRules(c.allowAll)
			res.Source = UnavailableDefault
		default:
			res.setRules(c.disallowAll)
			res.Source = ForbiddenDefault
		}
		return st
	}

	// Unreachable.
	e.failures++
	if e.failures == 1 {
		e.downSince = now
	}
	retry := c.retry(e.failures, r.retryAfter)
	res.Expires = now.Add(retry)
	if g := e.good; g != nil && now.Sub(g.res.Fetched) < c.maxStale {
		res.setRules(g.res.rules())
		res.Source = Stale
		res.Fetched, res.Size, res.Truncated, res.Warnings = g.res.Fetched, g.res.Size, g.res.Truncated, g.res.Warnings
		if end := g.res.Fetched.Add(c.maxStale); end.Before(res.Expires) {
			res.Expires = end // try again (or allow all) when the copy runs out
		}
		return st
	}
	e.good = nil
	since := e.reached
	if since.IsZero() {
		since = e.downSince
	}
	if end := since.Add(c.maxStale); now.Before(end) {
		res.setRules(c.disallowAll)
		res.Source = UnreachableDefault
		if end.Before(res.Expires) {
			res.Expires = end
		}
	} else {
		res.setRules(c.allowAll)
		res.Source = UnavailableDefault
	}
	return st
}

// freshness returns how long a result that the server answered stays fresh:
// Cache-Control max-age bounded by MinTTL and MaxTTL, else the TTL.
func (c *Client) freshness(r *response) time.Duration {
	if !r.hasMaxAge {
		return c.ttl
	}
	return min(max(r.maxAge, c.minTTL), c.maxTTL)
}

// retry returns how long an unreachable result is kept after the given
// number of failures in a row: RetryTTL doubled per failure, or the server's
// Retry-After, bounded by RetryTTL and MaxRetryTTL.
func (c *Client) retry(failures int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return min(max(retryAfter, c.retryTTL), c.maxRetryTTL)
	}
	d := c.retryTTL
	for i := 1; i < failures && d < c.maxRetryTTL; i++ {
		d *= 2
	}
	return min(d, c.maxRetryTTL)
}

// insert puts e, new, in the cache, last placed. c.mu is held.
func (c *Client) insert(e *entry) {
	c.entries[e.key] = e
	c.index.Store(e.key, e)
	c.link(e)
}

// link inserts e at the front of the list. c.mu is held.
func (c *Client) link(e *entry) {
	e.prev, e.next = &c.lru, c.lru.next
	c.lru.next.prev = e
	c.lru.next = e
}

// place moves e to the front of the list: it has just been placed (a
// new result), or given a second chance. c.mu is held.
func (c *Client) place(e *entry) {
	if c.lru.next == e {
		return
	}
	e.prev.next, e.next.prev = e.next, e.prev
	c.link(e)
}

// touch marks e used, by a cache hit: it writes only when e is not marked
// already, so that the hits on an entry in use, from any number of
// goroutines, share no write. It takes no lock.
func (c *Client) touch(e *entry) {
	if !e.used.Load() {
		e.used.Store(true)
	}
}

// evict removes entries until the cache is within its bounds, the least
// recently used first, as a clock (second chance) finds them: from the
// end of the list, an entry that a hit marked used since it was placed is
// unmarked and moved to the front instead, at most as many times as there
// are entries (hits that mark the entries as fast as evict unmarks them do
// not keep it going), and the next one is removed. keep, the entry just
// charged, is kept unless it alone is over the bounds. c.mu is held.
func (c *Client) evict(keep *entry) {
	spared := 0
	for len(c.entries) > c.maxEntries || c.bytes > c.maxBytes {
		e := c.lru.prev
		if e == keep && len(c.entries) == 1 { // keep is alone and still too large: drop it too
			c.remove(e)
			return
		}
		if e == keep || (spared < len(c.entries) && e.used.Swap(false)) {
			if e != keep {
				spared++
			}
			c.place(e)
			continue
		}
		c.remove(e)
	}
}

// remove deletes e from the cache. c.mu is held.
func (c *Client) remove(e *entry) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
	delete(c.entries, e.key)
	c.index.Delete(e.key)
	c.bytes -= e.cost
	disarm(e.st.Load())
}

// Close empties the cache, ends the fetches in flight (their lookups return
// ErrClosed) and the calls to the Store, releases the Store leases this
// Client holds, so that the other nodes of a fleet that wait for them go on
// at once (each release bounded by Options.StoreTimeout), and closes the
// idle connections of the Client's own transport (not those of an
// Options.HTTPClient). Lookups after Close return ErrClosed. A Client need not be closed to be garbage collected once it is
// dropped; Close frees what it holds at once. Close is safe to call more
// than once and concurrently with lookups; it returns nil.
func (c *Client) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	c.cancel()
	c.mu.Lock()
	for _, e := range c.entries {
		disarm(e.st.Load())
		c.index.Delete(e.key)
	}
	c.entries = make(map[string]*entry)
	c.lru.next, c.lru.prev = &c.lru, &c.lru
	c.bytes = 0
	c.mu.Unlock()
	if c.store != nil {
		c.releaseLeases()
	}
	if c.own != nil {
		c.own.CloseIdleConnections()
	}
	return nil
}

// Stats describes the cache.
type Stats struct {
	Entries int   // robots.txt results cached
	Bytes   int64 // their cost against Options.MaxBytes
	Hits    int64 // lookups answered by a fresh entry
	Misses  int64 // lookups that needed a fetch (or waited for one)
	Fetches int64 // requests made (redirects not counted), by TDMReps too
	// Revalidated counts the conditional fetches answered 304 Not
	// Modified (by TDMReps too): the copy was renewed, not downloaded.
	Revalidated int64

	// With Options.Store (see Store), robots.txt and the tdmrep.json of
	// the Client's TDMReps alike:
	StoreHits  int64 // flights answered by a fresh record of the Store, without a fetch
	StoreWaits int64 // flights that waited for another node's fetch (it held the origin's lease)
	StoreSaves int64 // records saved
	// StoreErrors counts the calls to the Store that failed or timed out;
	// the Client fetched on its own instead.
	StoreErrors int64
	// StoreRejected counts the records ignored because they failed the
	// Client's checks: corrupt, too large, or of another format version,
	// semantics or origin.
	StoreRejected int64
}

// Stats returns the cache's counters.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Stats{
		Entries: len(c.entries), Bytes: c.bytes, Hits: c.hits.sum(), Misses: c.misses.Load(), Fetches: c.fetches.Load(),
		Revalidated: c.revalidated.Load(),
		StoreHits:   c.storeStats.hits.Load(), StoreWaits: c.storeStats.waits.Load(), StoreSaves: c.storeStats.saves.Load(),
		StoreErrors: c.storeStats.errors.Load(), StoreRejected: c.storeStats.rejected.Load(),
	}
}
