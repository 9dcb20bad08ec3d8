package fetch

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/engine/page"
)

// tdmRepPath is where an origin keeps its TDM Reservation Protocol file.
const tdmRepPath = "/.well-known/tdmrep.json"

// MaxTDMRepOrigins bounds the origins whose tdmrep.json a TDMReps keeps:
// a file holds at most page.MaxTDMRepRules rules, so the cache holds at
// most that many times this rules (a few hundred bytes each). The origin
// cached first is dropped to make room.
const MaxTDMRepOrigins = 1024

// TDMReps fetches and caches origins' /.well-known/tdmrep.json (the W3C
// TDM Reservation Protocol's file) through a Client: its HTTP client,
// timeout, redirects, size limit, User-Agent and freshness (Cache-Control
// max-age between MinTTL and MaxTTL, else TTL; an unreachable origin is
// asked again after RetryTTL), one fetch at a time per origin however
// many ask (single flight). An origin whose answer is not a 2xx with a JSON
// array does not implement the protocol: it has no rule. The files are
// kept in the process (not in the Client's Store), and their fetches count
// among the Client's Stats fetches. It is safe for
// concurrent use; the zero value is not: use NewTDMReps.
type TDMReps struct {
	c     *Client
	group singleflight.Group

	mu    sync.Mutex
	files map[string]tdmEntry
	order []string // origins in the order they were cached
}

type tdmEntry struct {
	file    *page.TDMRep // nil: the origin has none
	expires time.Time
}

// NewTDMReps returns a cache of tdmrep.json files fetched through c.
func NewTDMReps(c *Client) *TDMReps {
	return &TDMReps{c: c, files: make(map[string]tdmEntry)}
}

// Rule returns the rule of the tdmrep.json of pageURL's origin that
// governs pageURL (page.TDMRep.Rule), fetching the file unless a fresh
// copy is cached; the zero page.TDM when the origin has no file or no
// rule matches. ua is the User-Agent header a fetch sends when the
// Client's Options.UserAgent is empty ("" sends Go's). Its errors are a
// URL that is not http or https, a closed Client, and ctx's.
func (t *TDMReps) Rule(ctx context.Context, pageURL, ua string) (page.TDM, error) {
	if t == nil || t.c == nil {
		return page.TDM{}, errors.New("fetch: TDMReps: not made by NewTDMReps")
	}
	if t.c.closed.Load() {
		return page.TDM{}, ErrClosed
	}
	key, err := origin(pageURL)
	if err != nil {
		return page.TDM{}, err
	}
	if !strings.HasPrefix(key, "http://") && !strings.HasPrefix(key, "https://") {
		return page.TDM{}, errors.New("tdmrep.json of " + pageURL + ": fetching supports http and https only")
	}
	if f, ok := t.cached(key); ok {
		return f.Rule(pageURL), nil
	}
	if ua != "" && ua != "*" && t.c.userAgent == "" {
		ctx = context.WithValue(ctx, crawlerUAKey{}, ua)
	}
	ch := t.group.DoChan(key, func() (any, error) {
		if f, ok := t.cached(key); ok {
			return f, nil
		}
		return t.fetch(ctx, key), nil
	})
	select {
	case r := <-ch:
		return r.Val.(*page.TDMRep).Rule(pageURL), nil
	case <-ctx.Done():
		return page.TDM{}, ctx.Err()
	}
}

// cached returns the fresh file of the origin key, if one is cached (nil:
// the origin has none).
func (t *TDMReps) cached(key string) (*page.TDMRep, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.files[key]
	if !ok || !t.c.now().Before(e.expires) {
		return nil, false
	}
	return e.file, true
}

// fetch gets and parses the file of the origin key and caches it.
func (t *TDMReps) fetch(ctx context.Context, key string) *page.TDMRep {
	r := t.c.get(ctx, key+tdmRepPath, nil)
	var f *page.TDMRep
	ttl := t.c.freshness(&r)
	switch r.outcome {
	case outcomeOK:
		if !r.truncated {
			f, _ = page.ParseTDMRep(r.body)
		}
	case outcomeUnreachable:
		ttl = t.c.retry(1, r.retryAfter)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.files[key]; !ok {
		if len(t.order) >= MaxTDMRepOrigins {
			delete(t.files, t.order[0])
			t.order = t.order[1:]
		}
		t.order = append(t.order, key)
	}
	t.files[key] = tdmEntry{file: f, expires: t.c.now().Add(ttl)}
	return f
}

// PageTDM is Transport.Page with the rule of the origin's tdmrep.json
// from reps, under the header and the meta as the protocol orders them
// (nil reps: none, which is Page).
func (t *Transport) PageTDM(resp *http.Response, body []byte, reps *TDMReps) (page.Answer, error) {
	if resp == nil || resp.Request == nil || resp.Request.URL == nil {
		return page.Answer{}, errNoPageRequest
	}
	if t.Client == nil {
		return page.Answer{}, errNilClient
	}
	cr, err := t.crawler()
	if err != nil {
		return page.Answer{}, err
	}
	req := resp.Request
	c := t.Client
	ua := t.userAgentFor(req, cr)
	st, _, err := c.lookup(req.Context(), req.URL.String(), ua)
	if err != nil {
		return page.Answer{}, err
	}
	in := c.pageInput(st, c.crawlerMatcher(st, cr), req.URL.String(), resp.Header, body)
	if reps != nil && in.Robots.Usage.Applicable() {
		if in.TDMFile, err = reps.Rule(req.Context(), req.URL.String(), ua); err != nil {
			return page.Answer{}, err
		}
	}
	return page.Read(in, cr.tokens...), nil
}

// PageTDM is Client.Page with the rule of the origin's tdmrep.json from
// reps, under the header and the meta as the protocol orders them (nil
// reps: none, which is Page).
func (c *Client) PageTDM(ctx context.Context, agent, pageURL string, header http.Header, body []byte, reps *TDMReps) (page.Answer, Result, error) {
	if err := engine.CheckAgent(agent); err != nil {
		return page.Answer{}, Result{}, err
	}
	st, hit, err := c.lookup(ctx, pageURL, agent)
	if err != nil {
		return page.Answer{}, Result{}, err
	}
	in := c.pageInput(st, c.agentMatcher(st, agent), pageURL, header, body)
	if reps != nil && in.Robots.Usage.Applicable() {
		if in.TDMFile, err = reps.Rule(ctx, pageURL, agent); err != nil {
			return page.Answer{}, Result{}, err
		}
	}
	return page.Read(in, agentTokens(agent)...), st.result(hit), nil
}
