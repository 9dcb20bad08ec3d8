package fetch

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

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
// array does not implement the protocol: it has no rule.
//
// The files are cached in the process, and with the Client's
// Options.Store in the Store too, as robots.txt is (see Store): on a miss
// of its own cache a TDMReps loads the origin's record, under the key
// origin + "/.well-known/tdmrep.json" (a robots.txt record's key is the
// origin alone); a fresh one answers without a fetch, else it takes the
// key's lease, fetches (conditionally, when the record has validators),
// saves the record and releases the lease, while the other nodes wait for
// it. Its fetches count among the Client's Stats fetches, and its Store
// calls in the Client's Store counters (a tdmrep.json answered from the
// Store is a StoreHit, a 304 Revalidated). It is safe for concurrent use;
// the zero value is not: use NewTDMReps.
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

// fetch gets the file of the origin key, from the Client's Store when it
// has a fresh record of it, else over HTTP (and saves it there), and
// caches it.
func (t *TDMReps) fetch(ctx context.Context, key string) *page.TDMRep {
	c := t.c
	fileURL := key + tdmRepPath
	var last *record // the Store's expired record: its validators make the fetch conditional
	var lease string
	if c.store != nil {
		var f *page.TDMRep
		hit := false
		lease = c.claim(ctx, fileURL, fileURL, func(rec *record) bool {
			if !c.now().Before(rec.expires) {
				last = rec
				return false
			}
			f, hit = t.put(key, rec), true
			c.storeStats.hits.Add(1)
			return true
		})
		if hit {
			return f
		}
	}
	rec := c.tdmRecord(ctx, fileURL, last)
	f := t.put(key, rec)
	if c.store != nil {
		c.save(ctx, fileURL, rec, lease)
	}
	return f
}

// put caches the file that rec holds for the origin key until rec
// expires, and returns it (nil: the origin has none).
func (t *TDMReps) put(key string, rec *record) *page.TDMRep {
	var f *page.TDMRep
	if rec.source == Fetched && !rec.truncated {
		f, _ = page.ParseTDMRep(rec.body)
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
	t.files[key] = tdmEntry{file: f, expires: rec.expires}
	return f
}

// tdmRecord fetches the tdmrep.json at fileURL, conditionally on last's
// copy when it has validators, and returns the record of the answer, as a
// Store keeps it: Fetched with the body for a 2xx (or a 304 that renews
// last's copy), fresh as a robots.txt; UnreachableDefault (no file) for an
// unreachable origin, fresh for RetryTTL; UnavailableDefault (no file) for
// any other answer, fresh as a robots.txt.
func (c *Client) tdmRecord(ctx context.Context, fileURL string, last *record) *record {
	var cond *state
	if last != nil && last.hasGood && (last.etag != "" || last.lastModified != "") {
		cond = &state{res: Result{FinalURL: last.goodFinalURL}, etag: last.etag, lastModified: last.lastModified}
	}
	r := c.get(ctx, fileURL, cond)
	now := c.now()
	rec := &record{
		fileURL: fileURL, semantics: c.engineOpts.Semantics, source: UnavailableDefault,
		status: r.status, finalURL: r.finalURL, redirects: r.redirects,
		at: now, expires: now.Add(c.freshness(&r)),
	}
	switch r.outcome {
	case outcomeNotModified: // last's copy is unchanged
		c.revalidated.Add(1)
		r.body, r.truncated = last.body, last.truncated
		r.etag, r.lastModified = r.renewed(last.etag, last.lastModified)
		fallthrough
	case outcomeOK:
		rec.source, rec.hasGood, rec.body, rec.truncated = Fetched, true, r.body, r.truncated
		rec.goodFetched, rec.goodStatus, rec.goodFinalURL, rec.goodRedirect = now, r.status, r.finalURL, r.redirects
		rec.etag, rec.lastModified = r.etag, r.lastModified
	case outcomeUnreachable:
		rec.source, rec.expires = UnreachableDefault, now.Add(c.retry(1, r.retryAfter))
	}
	return rec
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
	if err := c.checkAgent(agent); err != nil {
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
