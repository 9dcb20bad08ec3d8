// Package redisstore keeps what a crawler fleet shares about robots.txt in
// Redis: the record of each site's robots.txt, so that the fleet fetches it
// once between its nodes and again after they restart (Store, a
// fetch.Store), and each site's crawl-delay turns, so that the requests of
// every node to a site go at least its crawl-delay apart (Pacer, a
// fetch.Pacer). Three lines turn it on:
//
//	rdb := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"redis:6379"}})
//	client := fetch.New(fetch.Options{Store: redisstore.New(rdb, redisstore.Options{Prefix: "crawl:"})})
//	t := &fetch.Transport{Client: client, Agent: "FooBot", CrawlDelay: true, Pacer: redisstore.NewPacer(rdb, redisstore.Options{Prefix: "crawl:"})}
//
// Any redis.UniversalClient serves: one server, Sentinel (a failover
// client) or Cluster. Redis 5 or later is needed (the pacer's script reads
// the server's clock, which scripts may do since Redis 5).
//
// The keys of an origin O are Prefix+"{"+O+"}:record" (the record, a
// string, expiring when the record is worth nothing: 30 days after the
// site last answered, with the defaults), Prefix+"{"+O+"}:lease" (the
// token of the node that fetches O's robots.txt now, expiring by itself)
// and Prefix+"{"+O+"}:pace" (a hash of the last turn given and its margin,
// expiring once a crawl-delay has passed). An origin's tdmrep.json
// (fetch.TDMReps) has a record and a lease of their own, keyed as those of
// the origin O+"/.well-known/tdmrep.json" would be. The braces make O the
// keys' hash tag: on a Cluster the keys of one origin share a slot, and the
// origins spread over the slots. Each call and script uses one key, so none spans
// slots (the tests run a fleet on a cluster of three masters too).
//
// The algorithm: fetch.Client calls the Store on a miss of its own cache
// only (a fresh entry answers without a round trip), loads the record and
// uses it when fresh; else it takes the lease (SET NX with an expiry),
// fetches, saves and releases, while the nodes that found the lease taken
// wait for the record. The Pacer reserves each request's turn with one
// script, atomically: the next turn is the last one plus the crawl-delay
// plus a margin, on the server's clock, or now; a request whose deadline
// comes before its turn reserves nothing and is refused with a
// *fetch.CrawlDelayError; the node then sleeps until its turn, counting from
// the reply. See Pacer for why no two requests go less than the delay
// apart.
//
// When Redis is down, slow, or restarted empty, each node goes on alone:
// its Client fetches and decides on its own and its Transport paces on its
// own, within their timeouts (fetch.Stats.StoreErrors,
// fetch.TransportStats.PacerFallbacks), and each retries Redis after a
// couple of seconds; go-redis reconnects by itself. A record that is
// corrupt, too large or of another release's format is ignored by the
// Client, never applied.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

// DefaultPrefix begins every key when Options.Prefix is empty.
const DefaultPrefix = "robotstxt:"

// DefaultTimeout bounds each call to Redis (Options.Timeout): a server on
// the crawler's network answers in a millisecond, a record of 500 KiB in a
// few, and a second covers a busy one; a server that does not answer holds
// a lookup or a request that long only, once (then it is left alone for a
// while: see fetch.Store and Pacer).
const DefaultTimeout = time.Second

// Options configure a Store and a Pacer. The zero value is valid.
type Options struct {
	// Prefix begins every key (DefaultPrefix): one per fleet. Nodes with
	// the same prefix share records, leases and crawl-delay turns; nodes
	// with other fetch.Options.Engine settings need a prefix of their own.
	Prefix string
	// Timeout bounds each call to Redis (DefaultTimeout), whatever the
	// client's own timeouts and whether it was made with
	// ContextTimeoutEnabled (without it, go-redis bounds a call by its
	// ReadTimeout only).
	Timeout time.Duration
	// PaceMargin is what a Pacer adds to each crawl-delay between two
	// turns (DefaultPaceMargin): see Pacer. Raise it for a Redis whose
	// round trip is longer.
	PaceMargin time.Duration
}

func (o Options) prefix() string {
	if o.Prefix == "" {
		return DefaultPrefix
	}
	return o.Prefix
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

// key returns the key of origin's record, lease or turns ("record",
// "lease", "pace"), with origin as its hash tag.
func key(prefix, origin, what string) string {
	return prefix + "{" + origin + "}:" + what
}

// Store is a fetch.Store on Redis. It is safe for concurrent use; make one
// per fleet prefix and share it.
type Store struct {
	rdb     redis.UniversalClient
	prefix  string
	timeout time.Duration
}

var _ fetch.Store = (*Store)(nil)

// New returns a Store that keeps its records in rdb under opts.Prefix.
func New(rdb redis.UniversalClient, opts Options) *Store {
	return &Store{rdb: rdb, prefix: opts.prefix(), timeout: opts.timeout()}
}

// loadScript returns the record of KEYS[1]: nil when there is none, its
// length (a number) when it is longer than ARGV[1] bytes, so that a record
// that is too large never crosses the network, and an empty string when
// the key holds something other than a string (the Client rejects it; the
// next save replaces it).
var loadScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1])['ok']
if t == 'none' then return false end
if t ~= 'string' then return '' end
local n = redis.call('STRLEN', KEYS[1])
if n > tonumber(ARGV[1]) then return n end
return redis.call('GET', KEYS[1])
`)

// releaseScript deletes the lease KEYS[1] when it holds the token ARGV[1].
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`)

// Load returns the record saved for origin, nil when there is none. A
// record longer than max bytes is not read: the error wraps
// fetch.ErrRecordTooLarge.
func (s *Store) Load(ctx context.Context, origin string, max int) ([]byte, error) {
	v, err := bounded(ctx, s.timeout, func(ctx context.Context) (any, error) {
		return loadScript.Run(ctx, s.rdb, []string{key(s.prefix, origin, "record")}, max).Result()
	})
	switch v := v.(type) {
	case nil:
		if errors.Is(err, redis.Nil) {
			return nil, nil
		}
		return nil, err
	case string:
		return []byte(v), nil
	case int64:
		return nil, fmt.Errorf("%w: %d bytes at %s, more than %d", fetch.ErrRecordTooLarge, v, key(s.prefix, origin, "record"), max)
	}
	return nil, fmt.Errorf("redisstore: unexpected reply %T to the load script", v)
}

// Save saves record for origin, for ttl (at least a millisecond).
func (s *Store) Save(ctx context.Context, origin string, record []byte, ttl time.Duration) error {
	_, err := bounded(ctx, s.timeout, func(ctx context.Context) (any, error) {
		return nil, s.rdb.Set(ctx, key(s.prefix, origin, "record"), record, max(ttl, time.Millisecond)).Err()
	})
	return err
}

// Lease takes origin's lease for token, for ttl, when no other token holds
// it (SET NX with an expiry); it reports whether it did.
func (s *Store) Lease(ctx context.Context, origin, token string, ttl time.Duration) (bool, error) {
	v, err := bounded(ctx, s.timeout, func(ctx context.Context) (any, error) {
		return s.rdb.SetNX(ctx, key(s.prefix, origin, "lease"), token, max(ttl, time.Millisecond)).Result()
	})
	took, _ := v.(bool)
	return took && err == nil, err
}

// Release ends origin's lease when token holds it.
func (s *Store) Release(ctx context.Context, origin, token string) error {
	_, err := bounded(ctx, s.timeout, func(ctx context.Context) (any, error) {
		return nil, releaseScript.Run(ctx, s.rdb, []string{key(s.prefix, origin, "lease")}, token).Err()
	})
	return err
}

// bounded runs f, a call to Redis, and returns when it does or when ctx
// ends or timeout passes, whichever comes first: a client made without
// ContextTimeoutEnabled does not stop a call when its context ends. The
// call then finishes by the client's own timeouts, on its goroutine.
func bounded(ctx context.Context, timeout time.Duration, f func(context.Context) (any, error)) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		v   any
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f(ctx)
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("redisstore: %w", ctx.Err())
	}
}
