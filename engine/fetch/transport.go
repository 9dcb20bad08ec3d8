package fetch

import (
	"container/heap"
	"context"
	"errors"
	"net/http"
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
// allow Agent to fetch it, and otherwise returns a *DisallowedError without
// sending anything. With CrawlDelay set it also spaces the requests to each
// host by the host's crawl-delay. Put it in an http.Client:
//
//	t := &fetch.Transport{Client: fetch.New(fetch.Options{}), Agent: "FooBot", CrawlDelay: true}
//	hc := &http.Client{Transport: t}
//
// What RoundTrip checks:
//
//   - http and https requests of every method (GET, HEAD, POST, ...) are
//     decided by Client.Decide on req.URL (req.Host is not consulted). The
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
// Pacing (CrawlDelay): the requests to one origin (scheme://host[:port]) are
// started at least the crawl-delay of Agent's groups apart
// (engine.Extensions.CrawlDelay, at most engine.MaxCrawlDelay), counted from
// the start of one request to the start of the next; concurrent requests to
// the origin take successive slots. Origins without a crawl-delay are not
// slowed and cost no memory. A request waiting for its slot returns at once
// with the context's error when its context ends (its slot is given back
// unless a later request has already taken the one after it). At most
// MaxPacedHosts origins are remembered: an origin is forgotten once its next
// slot has passed, and when more origins than that are waiting, the one whose
// slot comes first is forgotten early (Stats counts these).
//
// A Transport is safe for concurrent use. Set its fields before its first
// use and do not change them afterwards.
type Transport struct {
	// Client looks up and caches the robots.txt rules; it must not be nil.
	// Share one per crawler.
	Client *Client
	// Agent is the product token whose groups apply ("FooBot"), not the
	// User-Agent header (see engine.ProductTokens).
	Agent string
	// Base sends the allowed requests; nil means http.DefaultTransport.
	Base http.RoundTripper
	// CrawlDelay turns on pacing by crawl-delay.
	CrawlDelay bool
	// MaxPacedHosts bounds the origins remembered for pacing
	// (DefaultMaxPacedHosts when zero or negative).
	MaxPacedHosts int

	pacer atomic.Pointer[pacer] // made by the first paced request

	disallowed atomic.Int64
	waited     atomic.Int64
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
	// Agent is the product token that was checked.
	Agent string
	// Decision says which rule decided (Rule.Line is 0 when the whole site
	// is disallowed because its robots.txt is unreachable).
	Decision engine.Decision
	// Result says where the rules came from (Source, Status, Err).
	Result Result
}

// Error says which URL was disallowed for which agent and why.
func (e *DisallowedError) Error() string {
	var b strings.Builder
	b.WriteString("robots.txt disallows ")
	b.WriteString(e.Method)
	b.WriteByte(' ')
	b.WriteString(e.URL)
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

// TransportStats are a Transport's counters.
type TransportStats struct {
	Disallowed int64 // requests refused with a *DisallowedError
	Waited     int64 // requests that waited for their crawl-delay slot
	PacedHosts int   // origins remembered for pacing now
	// Forgotten counts origins forgotten before their next slot because
	// more than MaxPacedHosts origins were waiting: their next request was
	// not paced.
	Forgotten int64
}

// Stats returns t's counters.
func (t *Transport) Stats() TransportStats {
	s := TransportStats{Disallowed: t.disallowed.Load(), Waited: t.waited.Load()}
	if p := t.pacer.Load(); p != nil {
		p.mu.Lock()
		s.PacedHosts, s.Forgotten = len(p.hosts), p.forgotten
		p.mu.Unlock()
	}
	return s
}

// errNilClient is returned by RoundTrip when Transport.Client is nil.
var errNilClient = errors.New("fetch.Transport: Client is nil (set it to a fetch.New client)")

// RoundTrip sends req through Base when robots.txt allows it (see
// Transport), after its crawl-delay slot when CrawlDelay is set. It returns
// a *DisallowedError, without sending anything, when robots.txt disallows
// it; the context's error when the context ends during the robots.txt
// look-up or the wait; and an error when the URL has no robots.txt. It does
// not modify req, and closes req.Body on every path that does not reach Base.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	if req.URL == nil || (req.URL.Scheme != "http" && req.URL.Scheme != "https") ||
		req.URL.Path == robotsPath || isClientFetch(req.Context()) {
		return base.RoundTrip(req)
	}
	if t.Client == nil {
		closeBody(req)
		return nil, errNilClient
	}
	ctx := req.Context()
	d, res, err := t.Client.Decide(ctx, t.Agent, req.URL.String())
	if err != nil {
		closeBody(req)
		return nil, err
	}
	if !d.Allowed {
		closeBody(req)
		t.disallowed.Add(1)
		return nil, &DisallowedError{URL: cutText(req.URL.Redacted(), MaxURLLength), Method: method(req), Agent: t.Agent, Decision: d, Result: res}
	}
	if t.CrawlDelay {
		if err := t.pace(ctx, &res); err != nil {
			closeBody(req)
			return nil, err
		}
	}
	return base.RoundTrip(req)
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

// pace waits for the request's slot at its origin, when Agent's groups in
// res have a crawl-delay.
func (t *Transport) pace(ctx context.Context, res *Result) error {
	delay := crawlDelay(res.Robots.Matcher(t.Agent))
	if delay <= 0 {
		return nil
	}
	p := t.pacerInit()
	origin := strings.TrimSuffix(res.RobotsURL, robotsPath)
	now := time.Now()
	r := p.reserve(origin, delay, now)
	wait := r.start.Sub(now)
	if wait <= 0 {
		return nil
	}
	t.waited.Add(1)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		p.giveBack(r)
		return ctx.Err()
	}
}

// crawlDelay returns the crawl-delay of m's groups, 0 when there is none. A
// file without crawl-delay lines costs a scan of the selected extension
// lines and no allocation.
func crawlDelay(m *engine.Matcher) time.Duration {
	for _, x := range m.Selection().Extensions {
		if x.Key == "crawl-delay" {
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

// pacer hands out request slots per origin. Only origins whose next slot may
// still be ahead are kept, in a min-heap by next slot, so that the origins
// whose slot has passed (and can be forgotten without loss) are at the top.
type pacer struct {
	mu        sync.Mutex
	max       int
	hosts     map[string]*paceSlot
	heap      paceHeap
	forgotten int64
}

// paceSlot is the pacing state of one origin.
type paceSlot struct {
	origin string
	next   time.Time // the earliest start of the origin's next request
	index  int       // in pacer.heap
}

// reservation is one request's slot, to give back if it is not used.
type reservation struct {
	slot        *paceSlot
	start       time.Time // when the request may start
	prev, taken time.Time // slot.next before and after the reservation
}

// reserve takes the origin's next slot for a request made at now, and moves
// the slot after it delay later.
func (p *pacer) reserve(origin string, delay time.Duration, now time.Time) reservation {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.hosts[origin]
	if s == nil {
		// Forget the origins whose slot has passed, then, past the bound,
		// the ones whose slot comes first.
		for len(p.heap) > 0 && (!p.heap[0].next.After(now) || len(p.heap) >= p.max) {
			old := heap.Pop(&p.heap).(*paceSlot)
			delete(p.hosts, old.origin)
			if old.next.After(now) {
				p.forgotten++
			}
		}
		s = &paceSlot{origin: origin}
		p.hosts[origin] = s
		heap.Push(&p.heap, s)
	}
	r := reservation{slot: s, start: now, prev: s.next}
	if s.next.After(now) {
		r.start = s.next
	}
	s.next = r.start.Add(delay)
	r.taken = s.next
	heap.Fix(&p.heap, s.index)
	return r
}

// giveBack returns r's slot to its origin, unless a later reservation has
// taken the slot after it (then r's slot stays unused: the origin is paced
// more slowly, never faster).
func (p *pacer) giveBack(r reservation) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := r.slot
	if p.hosts[s.origin] != s || !s.next.Equal(r.taken) {
		return
	}
	s.next = r.prev
	heap.Fix(&p.heap, s.index)
}

// paceHeap is a min-heap of slots by next (container/heap).
type paceHeap []*paceSlot

func (h paceHeap) Len() int           { return len(h) }
func (h paceHeap) Less(i, j int) bool { return h[i].next.Before(h[j].next) }
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
