package fetch

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// Store keeps the fetched record of each origin for a Client
// (Options.Store), under the Client's own cache, so that the nodes of a
// fleet that share one, and a node that restarts, fetch each robots.txt
// once (and each tdmrep.json, through TDMReps). Package store/redisstore (Redis, for a fleet) and store/boltstore
// (a file, for one node) implement it, each a module of its own.
//
// A record is a byte string that the Client makes and checks; a Store keeps
// it as it is. It holds the robots.txt URL, the final URL after redirects,
// the status and its class, the body (at most the file size limit and one
// byte), when it was fetched and until when it is fresh, when the site last
// answered (while a site is unreachable its last copy is used for 30 days
// from then, Options.MaxStale), the ETag and Last-Modified, and the error
// text, in a versioned format that nodes of two releases both read. Keys
// are origins, scheme://host[:port], for robots.txt records, and origin +
// "/.well-known/tdmrep.json" for a TDMReps' tdmrep.json records (the same
// format, holding that URL; the Client rejects a record whose URL is not
// its key's file, so the two never stand in for each other).
//
// The Client calls its Store on a miss of its own cache only: a fresh entry
// answers without it. On a miss it loads the origin's record, and a fresh
// one answers (Stats.StoreHits). Otherwise it takes the origin's lease,
// fetches (conditionally, when the record has validators), saves the
// record and releases the lease. A node that finds the lease taken waits
// for the holder's record, trying now and then to take the lease (it is
// free once the holder saved), for at most Options.Timeout; then it fetches
// itself (Stats.StoreWaits). A lease lasts Options.Timeout plus two
// StoreTimeouts, so the lease of a node that died frees itself. A
// tdmrep.json record goes the same way, under its own key and lease (see
// TDMReps).
//
// Each call is bounded by its context (Options.StoreTimeout). When a call
// fails (the store is down, slow, or restarted empty of scripts) the lookup
// goes on as without a Store: the Client fetches and decides on its own,
// and leaves the Store alone for two seconds (Stats.StoreErrors). A record
// that fails the Client's checks (corrupt, cut short, too large, of another
// format version, semantics or origin) is ignored and replaced by the next
// fetch (Stats.StoreRejected): it never decides anything. Nodes that share
// a Store should share their Options.Engine too: a record is read only by a
// Client of its semantics, and is too large for one of a smaller file size
// limit.
//
// A Store must be safe for concurrent use.
type Store interface {
	// Load returns the record saved under key; nil and no error when
	// there is none. A record longer than max bytes is not read: Load
	// returns an error that wraps ErrRecordTooLarge. The Client keeps the
	// slice.
	Load(ctx context.Context, key string, max int) ([]byte, error)
	// Save saves record under key, replacing any, for ttl (then the store
	// may drop it). The Store keeps no reference to record.
	Save(ctx context.Context, key string, record []byte, ttl time.Duration) error
	// Lease takes the lease on key for token, for ttl, when no other token
	// holds it; it reports whether it did. A store that only one process
	// uses may always report true: the Client's own single flight covers
	// it.
	Lease(ctx context.Context, key, token string, ttl time.Duration) (bool, error)
	// Release ends the lease on key when token holds it.
	Release(ctx context.Context, key, token string) error
}

// ErrRecordTooLarge is the error, wrapped, that Store.Load returns for a
// record longer than the bound the Client passed.
var ErrRecordTooLarge = errors.New("fetch: the stored record is larger than the Client reads")

// DefaultStoreTimeout bounds each call of a Client to its Store: a store on
// the crawler's network answers in a millisecond (a few for a record of
// 500 KiB), and a second covers a busy one, while a store that does not
// answer delays a miss by that much only (the Client then leaves it alone
// for two seconds).
const DefaultStoreTimeout = time.Second

// storeRetry is how long a Client leaves its Store alone after a call
// failed: its misses fetch on their own meanwhile, without each paying
// StoreTimeout. Two seconds is about what a Redis restart takes, so a
// fleet soon shares its fetches again.
const storeRetry = 2 * time.Second

// leasePollMin and leasePollMax bound the wait between two tries to take a
// lease that another node holds: the first comes soon (a robots.txt fetch
// takes tens of milliseconds), and the waits double, so that waiting out a
// slow fetch costs a few calls a second.
const (
	leasePollMin = 10 * time.Millisecond
	leasePollMax = 250 * time.Millisecond
)

// storeStats are a Client's counters of its Store (see Stats).
type storeStats struct {
	hits, waits, saves, errors, rejected atomic.Int64
}

// detach returns the context of work that other lookups may wait for:
// detached from ctx's cancellation, bounded by d and ended by Close; stop
// releases it.
func (c *Client) detach(ctx context.Context, d time.Duration) (_ context.Context, stop func()) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), d)
	unhook := context.AfterFunc(c.ctx, cancel)
	return ctx, func() {
		unhook()
		cancel()
	}
}

// call runs f with the context of one call to the Store: detached from
// the lookup's cancellation (other lookups wait for the flight), bounded
// by StoreTimeout and ended by Close. A failure counts, and the Store is
// left alone for storeRetry.
func (c *Client) call(ctx context.Context, f func(context.Context) error) error {
	ctx, stop := c.detach(ctx, c.storeTimeout)
	defer stop()
	err := f(ctx)
	if err != nil && !errors.Is(err, ErrRecordTooLarge) && !c.closed.Load() {
		c.storeStats.errors.Add(1)
		c.storeDown.Store(time.Now().Add(storeRetry).UnixNano())
	}
	return err
}

// storeUp reports whether the Store may be called: no call failed within
// storeRetry.
func (c *Client) storeUp() bool {
	until := c.storeDown.Load()
	return until == 0 || time.Now().UnixNano() >= until
}

// shared looks the origin key up in the Store for a lookup that missed the
// cache. It returns the state to answer with when the Store has a fresh
// record (now in the cache), else the token of the lease this node took to
// fetch: "" when it fetches without one (the Store failed, or another node
// held the lease past the wait bound). An expired record it finds becomes
// the entry's last state when it is newer: its copy is then used stale
// when the site is unreachable, and its validators make the fetch
// conditional.
func (c *Client) shared(ctx context.Context, key string) (*state, string) {
	var st *state
	token := c.claim(ctx, key, key+robotsPath, func(rec *record) bool {
		st = c.adopt(key, rec)
		return st != nil
	})
	return st, token
}

// claim looks the Store key, the record of the file at fileURL, up for a
// flight that missed its cache: use is given each checked record found,
// and reports whether it answers the flight (the record is fresh). claim
// returns "" when one did, else the token of the lease this node took to
// fetch the file: "" too when it fetches without one (the Store failed, or
// another node held the lease past the wait bound).
func (c *Client) claim(ctx context.Context, key, fileURL string, use func(*record) bool) string {
	if !c.storeUp() {
		return ""
	}
	rec, ok := c.load(ctx, key, fileURL)
	if !ok || (rec != nil && use(rec)) {
		return ""
	}
	// Take the lease, or wait for the node that holds it: try to take it
	// now and then (it is free once the holder saved, or died and its
	// lease ran out), for at most Timeout.
	token := newToken()
	var end time.Time
	var poll *time.Timer
	for wait := leasePollMin; ; wait = min(2*wait, leasePollMax) {
		took, ok := c.lease(ctx, key, token)
		if !ok {
			if c.closed.Load() { // Close ended the call, which may have taken the lease
				c.releaseClosed(key, token)
			}
			return ""
		}
		if took {
			if !c.hold(key, token) { // Close came first: it did not see this lease
				c.releaseClosed(key, token)
				return ""
			}
			// A holder may have saved and released since the load.
			if rec, ok = c.load(ctx, key, fileURL); !ok {
				c.unhold(key, token)
				return "" // the lease runs out by itself
			}
			if rec != nil && use(rec) {
				c.release(ctx, key, token)
				return ""
			}
			return token
		}
		if poll == nil {
			c.storeStats.waits.Add(1)
			end = time.Now().Add(c.timeout)
			poll = time.NewTimer(time.Hour)
			defer poll.Stop()
		}
		left := time.Until(end)
		if left <= 0 {
			return ""
		}
		poll.Reset(min(wait, left))
		select {
		case <-poll.C:
		case <-c.ctx.Done():
			return ""
		}
	}
}

// newToken returns a lease token: 16 random bytes, in hex.
func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// load returns the checked record of key from the Store, the record of the
// file at fileURL; nil when there is none or it was rejected. ok is false
// when the Store failed.
func (c *Client) load(ctx context.Context, key, fileURL string) (rec *record, ok bool) {
	var b []byte
	err := c.call(ctx, func(ctx context.Context) (err error) {
		b, err = c.store.Load(ctx, key, c.maxRecord)
		return err
	})
	switch {
	case errors.Is(err, ErrRecordTooLarge):
		c.storeStats.rejected.Add(1)
		return nil, true
	case err != nil:
		return nil, false
	case b == nil:
		return nil, true
	case len(b) > c.maxRecord: // a Store that did not check
		c.storeStats.rejected.Add(1)
		return nil, true
	}
	rec, err = decodeRecord(b)
	if err == nil {
		err = c.checkRecord(rec, fileURL)
	}
	if err != nil {
		c.storeStats.rejected.Add(1)
		return nil, true
	}
	return rec, true
}

// lease tries to take the lease on key; ok is false when the Store failed.
func (c *Client) lease(ctx context.Context, key, token string) (took, ok bool) {
	ttl := c.timeout + 2*c.storeTimeout // the holder fetches, then saves
	err := c.call(ctx, func(ctx context.Context) (err error) {
		took, err = c.store.Lease(ctx, key, token, ttl)
		return err
	})
	return took, err == nil
}

// release ends this node's lease on key.
func (c *Client) release(ctx context.Context, key, token string) {
	c.unhold(key, token)
	_ = c.call(ctx, func(ctx context.Context) error { return c.store.Release(ctx, key, token) })
}

// hold records that this node holds the lease of token on key, so that
// Close releases it; it reports false, recording nothing, once Close has
// begun (the caller then releases the lease itself).
func (c *Client) hold(key, token string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed.Load() {
		return false
	}
	c.leases[key] = token
	return true
}

// unhold forgets the lease of token on key: it is released, or left to run
// out.
func (c *Client) unhold(key, token string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.leases[key] == token {
		delete(c.leases, key)
	}
}

// releaseLeases releases the leases this node holds, once Close has begun:
// all at once, each bounded by StoreTimeout, so that the nodes waiting for
// them take them at once instead of waiting for them to run out.
func (c *Client) releaseLeases() {
	c.mu.Lock()
	held := c.leases
	c.leases = nil
	c.mu.Unlock()
	var wg sync.WaitGroup
	for key, token := range held {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.releaseClosed(key, token)
		}()
	}
	wg.Wait()
}

// releaseClosed releases the lease of token on key after Close, whose end
// of c.ctx ends the Client's other calls: bounded by StoreTimeout alone.
func (c *Client) releaseClosed(key, token string) {
	ctx, cancel := context.WithTimeout(context.Background(), c.storeTimeout)
	defer cancel()
	_ = c.store.Release(ctx, key, token)
}

// save saves rec under key, when it is worth keeping, and releases the
// lease of token, if any: also when the save failed, so that the nodes
// waiting for the lease take it at once and fetch themselves. After Close
// it saves nothing (Close releases the lease).
func (c *Client) save(ctx context.Context, key string, rec *record, token string) {
	if c.closed.Load() {
		return
	}
	if ttl := c.keep(rec, c.now()); ttl > 0 && c.storeUp() {
		if b := encodeRecord(rec); len(b) <= c.maxRecord {
			err := c.call(ctx, func(ctx context.Context) error { return c.store.Save(ctx, key, b, ttl) })
			if err == nil {
				c.storeStats.saves.Add(1)
			}
		}
	}
	if token != "" {
		c.release(ctx, key, token)
	}
}

// adopt makes rec, a record of the origin key from the Store, the entry's
// state, and returns it when it is fresh; nil when rec is expired (it is
// then the entry's last state only if the entry had none as new).
func (c *Client) adopt(key string, rec *record) *state {
	now := c.now()
	fresh := now.Before(rec.expires)
	// What the entry knows, read under the lock (states are immutable):
	// an expired record older than the entry's state is of no use, and a
	// copy the entry has compiled already is not compiled again. Bodies are
	// compared and compiled outside the lock: both take linear time.
	var known *state
	c.mu.Lock()
	if e := c.entries[key]; e != nil {
		if st := e.st.Load(); !fresh && st != nil && !st.at.Before(rec.at) {
			c.mu.Unlock()
			return nil // the entry knows as much
		}
		known = e.good
	}
	c.mu.Unlock()
	var compiled rules
	if rec.hasGood {
		if known != nil && known.body != nil && bytes.Equal(known.body, rec.body) {
			compiled = known.res.rules() // the same copy
		} else {
			compiled = c.compile(rec.body)
		}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[key]
	if e == nil {
		robotsURL := key + robotsPath
		e = &entry{key: robotsURL[:len(key)], robotsURL: robotsURL}
		if c.closed.Load() {
			if !fresh {
				return nil
			}
			cur, _ := c.states(e, rec, compiled)
			return cur
		}
		c.insert(e)
	} else if st := e.st.Load(); !fresh && st != nil && !st.at.Before(rec.at) {
		return nil // the entry knows as much
	}
	cur, good := c.states(e, rec, compiled)
	e.good, e.reached, e.downSince, e.failures = good, rec.reached, rec.downSince, rec.failures
	c.set(e, cur, now)
	if !fresh {
		return nil
	}
	c.storeStats.hits.Add(1)
	return cur
}

// states returns the states rec describes for the entry e: the current one
// and the fetched copy (nil when none), whose compiled file is compiled.
func (c *Client) states(e *entry, rec *record, compiled rules) (cur, good *state) {
	if rec.hasGood {
		good = &state{res: Result{
			Robots:    compiled.robots,
			Matcher:   compiled.matcher,
			Warnings:  compiled.warnings(),
			Source:    Fetched,
			RobotsURL: e.robotsURL,
			FinalURL:  rec.goodFinalURL,
			Redirects: rec.goodRedirect,
			Status:    rec.goodStatus,
			Size:      min(len(rec.body), c.maxFileSize),
			Truncated: rec.truncated,
			Fetched:   rec.goodFetched,
			Expires:   rec.goodFetched,
		}, e: e, at: rec.goodFetched, etag: rec.etag, lastModified: rec.lastModified, body: rec.body}
	}
	if rec.source == Fetched {
		good.res.Expires, good.at = rec.expires, rec.at
		return good, good
	}
	cur = &state{res: Result{
		Source:    rec.source,
		RobotsURL: e.robotsURL,
		FinalURL:  rec.finalURL,
		Redirects: rec.redirects,
		Status:    rec.status,
		Fetched:   rec.at,
		Expires:   rec.expires,
		Err:       recordError(rec.err, rec.errKinds),
	}, e: e, at: rec.at}
	switch rec.source {
	case Stale:
		cur.res.setRules(compiled)
		cur.res.Fetched, cur.res.Size, cur.res.Truncated, cur.res.Warnings = good.res.Fetched, good.res.Size, good.res.Truncated, good.res.Warnings
	case UnavailableDefault:
		cur.res.setRules(c.allowAll)
	default: // UnreachableDefault, ForbiddenDefault (checkRecord allows no other)
		cur.res.setRules(c.disallowAll)
	}
	return cur, good
}

// conditional returns the copy that a fetch of the origin key is
// conditional on: the entry's last fetched copy, when it has a validator;
// nil otherwise.
func (c *Client) conditional(key string) *state {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[key]; e != nil && e.good != nil && (e.good.etag != "" || e.good.lastModified != "") {
		return e.good
	}
	return nil
}
