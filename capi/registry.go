package main

import (
	"sync"
	"time"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
)

// matcherFor is the one place the C ABI asks the library for a matcher: a
// robots.txt compiled with opts for a crawler's product tokens
// (engine.CompileFor: only the groups that may apply to them are kept).
func matcherFor(body []byte, opts engine.Options, tokens ...string) *engine.Matcher {
	return engine.CompileFor(body, opts, tokens...)
}

// entry is what a handle stands for: a matcher, and the crawl-delay of its
// groups read once (Extensions allocates; a crawler asks for it per site).
type entry struct {
	m        *engine.Matcher
	delay    time.Duration
	hasDelay bool
}

func newEntry(m *engine.Matcher) *entry {
	d, ok := m.Extensions().CrawlDelay()
	return &entry{m: m, delay: d, hasDelay: ok}
}

// registry maps the integer handles C holds to the entries Go holds, so
// that no Go pointer is ever kept by C. Handles count up from 1 and are
// never reused: a handle used after it was freed finds nothing (an error),
// never another caller's matcher. Lookups take the read lock only; the
// entries are immutable and safe for concurrent use, as Matchers are.
type registry struct {
	mu   sync.RWMutex
	next uint64
	m    map[uint64]*entry
}

var handles = registry{m: map[uint64]*entry{}}

func (r *registry) add(e *entry) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	r.m[r.next] = e
	return r.next
}

func (r *registry) get(h uint64) *entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.m[h]
}

// remove forgets h and reports whether it was there.
func (r *registry) remove(h uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.m[h]
	delete(r.m, h)
	return ok
}

// len returns the number of live handles (tests check that frees free).
func (r *registry) len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.m)
}

// bodyLimit is the number of bytes of a body that are copied from C: the
// bytes the parser reads, and one more so that it still knows that the file
// was cut. A body of a gigabyte costs no gigabyte copy.
func bodyLimit(opts engine.Options) int {
	return compile.Options{MaxFileSize: opts.MaxFileSize}.EffectiveMaxFileSize() + 1
}
