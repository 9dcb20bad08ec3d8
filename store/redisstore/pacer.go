package redisstore

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

// DefaultPaceMargin is what a Pacer adds to each crawl-delay between two
// turns (Options.PaceMargin): a round trip to a Redis on the crawler's
// network takes well under a millisecond, and ten leave room for a busy
// node's scheduler and garbage collector. At a crawl-delay of a second it
// slows a site's crawl by 1%.
const DefaultPaceMargin = 10 * time.Millisecond

// maxReserveTries bounds the reservations one request makes when Redis
// answers, or the node wakes up, later than the margin allows. Each try at
// least doubles the margin it asks for (to twice the lateness, when more),
// so eight take it from 10 ms to over a second: a reply or a wake-up
// later than that eight times in a row means a Redis or a node too slow
// to pace by, and the request goes to the Transport's own pacer.
const maxReserveTries = 8

// pacerDownFor is how long a Pacer leaves Redis alone after a call failed
// or stayed slower than the margin: the Transport paces by itself
// meanwhile, without each request paying Timeout. Two seconds is about
// what a Redis restart takes.
const pacerDownFor = 2 * time.Second

// Pacer is a fetch.Pacer on Redis: the requests of every node that shares
// its prefix go to each origin at least the origin's crawl-delay apart,
// first come first served, by the rules of fetch.Transport's own pacer.
// It is safe for concurrent use; make one per fleet prefix and share it.
//
// Each request reserves its turn with one script, atomically, on the
// server's clock: the origin's next turn is the last one given plus the
// crawl-delay plus the margin of the request that took it, or now when
// that has passed. The node then sleeps until its turn, counted from the
// reply; so it goes no earlier than its turn on the server's clock, and no
// later than the round trip plus however late the node woke up after it.
// When that is more than its margin (a slow reply, a stalled node), the
// request does not go: it gives its turn back and asks again, with twice
// the margin, or twice that lateness when more. So the request after it, which goes no
// earlier than this one's turn plus the delay plus the margin, never goes
// less than the delay after it. What is left is the node's own time
// between the pacer's answer and the request leaving (the Transport, Base,
// the network), as with the in-process pacer. (This assumes the clocks of
// the server and the nodes run at one rate, as NTP keeps them within
// 0.05%.)
//
// As with the in-process pacer, a request whose context's deadline comes
// before its turn reserves nothing and fails at once with a
// *fetch.CrawlDelayError (here its deadline must leave the margin too); a
// request whose context ends while it waits returns the context's error
// and gives its turn back, which the next request then gets when none was
// reserved after it (a turn that others already followed stays a gap:
// the nodes that hold the turns after it are asleep elsewhere). When Redis
// fails, is later than the margin eight times in a row, or failed within
// two seconds, Wait returns an error that wraps fetch.ErrPacerUnavailable
// (at once in the last case; Redis that does not answer takes
// Options.Timeout first), and the Transport paces the request on its own.
type Pacer struct {
	rdb     redis.UniversalClient
	prefix  string
	timeout time.Duration
	margin  time.Duration
	down    atomic.Int64 // until when (Unix ns) Redis is left alone
	// went, when set (by tests), is called with each turn a request
	// takes, in microseconds of the server's clock.
	went func(turn int64)

	reserved, waited, tooSoon, retried, givenBack, unavailable atomic.Int64
}

var _ fetch.Pacer = (*Pacer)(nil)

// NewPacer returns a Pacer that keeps the turns in rdb under opts.Prefix.
func NewPacer(rdb redis.UniversalClient, opts Options) *Pacer {
	p := &Pacer{rdb: rdb, prefix: opts.prefix(), timeout: opts.timeout(), margin: opts.PaceMargin}
	if p.margin <= 0 {
		p.margin = DefaultPaceMargin
	}
	return p
}

// PacerStats are a Pacer's counters.
type PacerStats struct {
	Reserved  int64 // turns taken in Redis: the requests let go
	Waited    int64 // of those, the ones that slept for their turn
	TooSoon   int64 // requests refused with a *fetch.CrawlDelayError
	Retried   int64 // turns given back and asked for again: the reply or the node's wake-up came later than the margin allows
	GivenBack int64 // turns given back by requests whose context ended while they waited
	// Unavailable counts the requests left to the Transport's own pacer:
	// Redis failed, stayed slower than the margin, or had failed within
	// two seconds.
	Unavailable int64
}

// Stats returns p's counters.
func (p *Pacer) Stats() PacerStats {
	return PacerStats{
		Reserved: p.reserved.Load(), Waited: p.waited.Load(), TooSoon: p.tooSoon.Load(),
		Retried: p.retried.Load(), GivenBack: p.givenBack.Load(), Unavailable: p.unavailable.Load(),
	}
}

// reserveScript reserves the next turn at an origin.
//
//	KEYS[1]  the origin's turns: a hash of last (the last turn given, in
//	         microseconds of the server's clock) and margin (its request's
//	         margin, in microseconds)
//	ARGV[1]  the crawl-delay, in microseconds
//	ARGV[2]  this request's margin, in microseconds
//	ARGV[3]  the microseconds left before this request's deadline, less
//	         its margin; "" when it has none
//
// It returns {0, wait} when the turn comes after the deadline (nothing is
// reserved), else {1, wait, turn, the last turn and margin before it ("" when
// none)}, wait in microseconds from now. Numbers are kept as integer strings:
// microseconds since 1970 need 51 bits, which a Lua number holds exactly,
// but Lua would print them with 14 digits.
var reserveScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind ~= 'hash' and kind ~= 'none' then redis.call('DEL', KEYS[1]) end
local delay, margin = tonumber(ARGV[1]), tonumber(ARGV[2])
local v = redis.call('HMGET', KEYS[1], 'last', 'margin')
local last, lastMargin = tonumber(v[1]), tonumber(v[2])
local turn = now
if last and lastMargin and last + delay + lastMargin > turn then
	turn = last + delay + lastMargin
end
if ARGV[3] ~= '' and turn - now > tonumber(ARGV[3]) then
	return {0, turn - now}
end
local s = string.format('%.0f', turn)
redis.call('HSET', KEYS[1], 'last', s, 'margin', ARGV[2])
redis.call('PEXPIRE', KEYS[1], math.floor((turn - now + delay + margin) / 1000) + 1)
return {1, turn - now, s, v[1] or '', v[2] or ''}
`)

// giveBackScript gives the turn ARGV[1] at KEYS[1] back when it is still
// the last one given: the last turn and margin before it (ARGV[2] and
// ARGV[3], "" for none) are the last again.
var giveBackScript = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'last') ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1])
else redis.call('HSET', KEYS[1], 'last', ARGV[2], 'margin', ARGV[3]) end
return 1
`)

// turn is a reservation: the script's reply.
type turn struct {
	ok                   bool
	wait                 time.Duration
	at, before, beforeMg string
}

// Wait waits for the request's turn at origin, delay after the turn before
// it, by the rules of fetch.Pacer (see Pacer).
func (p *Pacer) Wait(ctx context.Context, origin string, delay time.Duration) error {
	if delay <= 0 {
		return nil
	}
	if until := p.down.Load(); until != 0 && time.Now().UnixNano() < until {
		p.unavailable.Add(1)
		return fmt.Errorf("%w: Redis failed less than %v ago", fetch.ErrPacerUnavailable, pacerDownFor)
	}
	k := key(p.prefix, origin, "pace")
	margin := p.margin
	waited := false
	for try := 0; try < maxReserveTries; try++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		left := ""
		if d, ok := ctx.Deadline(); ok {
			left = strconv.FormatInt(max(time.Until(d)-margin, 0).Microseconds(), 10)
		}
		sent := time.Now()
		t, err := p.reserve(ctx, k, delay, margin, left)
		switch {
		case err != nil && ctx.Err() != nil:
			return ctx.Err() // a turn it may have reserved stays a gap
		case err != nil:
			return p.fail(err)
		case !t.ok:
			p.tooSoon.Add(1)
			return &fetch.CrawlDelayError{Origin: origin, Delay: delay, Wait: t.wait}
		}
		// The request goes no earlier than its turn on the server's
		// clock: it sleeps the wait from the reply. It must go no later
		// than its margin after the turn, so that the next turn, the
		// delay and this margin after it, is not less than the delay
		// after it. The time since the script was sent, less the wait,
		// bounds how late it is: the round trip, and how late this node
		// woke up.
		late := time.Since(sent) // the round trip, so far
		if late <= margin {
			if t.wait > 0 {
				if !waited {
					p.waited.Add(1)
					waited = true
				}
				if err := p.sleep(ctx, k, t, sent.Add(late+t.wait)); err != nil {
					return err
				}
			}
			if late = time.Since(sent) - t.wait; late <= margin {
				p.reserved.Add(1)
				if p.went != nil {
					at, _ := strconv.ParseInt(t.at, 10, 64)
					p.went(at)
				}
				return nil
			}
		}
		p.giveBack(ctx, k, t)
		p.retried.Add(1)
		margin = 2 * max(late, margin)
	}
	return p.fail(fmt.Errorf("the replies of Redis or the wake-ups of this node came later than the pace margin %d times in a row (the last margin %v)", maxReserveTries, margin))
}

// sleep sleeps until at, the turn t at k by this node's clock. When ctx
// ends first it gives the turn back and returns ctx's error.
func (p *Pacer) sleep(ctx context.Context, k string, t turn, at time.Time) error {
	timer := time.NewTimer(time.Until(at))
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		if p.giveBack(ctx, k, t) {
			p.givenBack.Add(1)
		}
		return ctx.Err()
	}
}

// fail leaves Redis alone for pacerDownFor and returns the error that
// sends the request to the Transport's own pacer.
func (p *Pacer) fail(err error) error {
	p.unavailable.Add(1)
	p.down.Store(time.Now().Add(pacerDownFor).UnixNano())
	return fmt.Errorf("%w: %v", fetch.ErrPacerUnavailable, err)
}

// reserve runs reserveScript.
func (p *Pacer) reserve(ctx context.Context, k string, delay, margin time.Duration, left string) (turn, error) {
	v, err := bounded(ctx, p.timeout, func(ctx context.Context) (any, error) {
		return reserveScript.Run(ctx, p.rdb, []string{k}, delay.Microseconds(), margin.Microseconds(), left).Slice()
	})
	if err != nil {
		return turn{}, err
	}
	r, _ := v.([]any)
	var t turn
	if len(r) < 2 {
		return t, fmt.Errorf("redisstore: unexpected reply %v to the pace script", v)
	}
	ok, _ := r[0].(int64)
	wait, _ := r[1].(int64)
	t.ok, t.wait = ok == 1, time.Duration(wait)*time.Microsecond
	if t.ok {
		if len(r) != 5 {
			return t, fmt.Errorf("redisstore: unexpected reply %v to the pace script", v)
		}
		t.at, _ = r[2].(string)
		t.before, _ = r[3].(string)
		t.beforeMg, _ = r[4].(string)
	}
	return t, nil
}

// giveBack gives the turn t at k back, and reports whether it was still the
// last one given. It runs after ctx has ended too.
func (p *Pacer) giveBack(ctx context.Context, k string, t turn) bool {
	v, err := bounded(context.WithoutCancel(ctx), p.timeout, func(ctx context.Context) (any, error) {
		return giveBackScript.Run(ctx, p.rdb, []string{k}, t.at, t.before, t.beforeMg).Int64()
	})
	n, _ := v.(int64)
	return err == nil && n == 1
}
