// Package engine is the public API of robotstxt: compile a robots.txt once,
// then decide URLs for one or several crawlers, each URL in time linear in
// its bytes, without allocating once the automaton has the states it
// visits.
//
// CompileFor is a crawler's first contact: its product tokens known, one
// pass over the bytes keeps only the groups that may apply to them and
// returns its Matcher, whose first decision tries those rules in turn.
// Compile parses the whole file (package compile) into plain data.
// Matcher selects the groups that apply to a crawler's product tokens,
// merges their rules, gives each rule its priority (longest pattern, allow
// on ties, or file order for Koster1996) and, at its second decision,
// compiles the patterns into one automaton (package automaton), whose
// states are built as URLs first reach them: compiling costs about what
// parsing does, and a site's URLs build only the few states they visit.
// Google's index.htm rule is compiled as one more pattern of its allow
// rule. Decide extracts the URL's path, runs the automaton over it (over
// its canonical form when the semantics rewrites some of its bytes), and
// maps the winning pattern back to its rule; RFC 9309's always-allowed
// /robots.txt is decided here, beside the automaton.
// The automaton bounds the work of every URL, whatever the site wrote and
// linked: a URL whose states would cost too much to build is decided by its
// linear fallback (package automaton). Usage reads a URL's usage
// preferences (Content-Usage, the IETF AI Preferences drafts) from the
// same groups, by an automaton of their content-usage paths per category.
//
// A Robots and its Matchers behave as immutable and are safe for concurrent
// use; matchers are built on first use and cached, and their automata grow
// behind that face, within Options.CacheBytes each (Robots.Bytes reports
// what a compiled file holds).
package engine

import (
	"encoding/binary"
	"math"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/seed-275a9bd5/robotstxt/automaton"
	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/internal/plural"
)

// DefaultCacheBytes bounds the memory of the states one matcher's automaton
// builds as URLs reach them; see automaton.DefaultCacheBytes.
const DefaultCacheBytes = automaton.DefaultCacheBytes

// MaxCachedMatchers is the number of distinct agent selections a Robots
// caches. Crawlers ask for one or a few; a caller that passes many distinct
// (for example attacker-chosen) agent strings gets correct matchers beyond
// this number, built anew each time instead of growing memory without bound.
const MaxCachedMatchers = 64

// Options configure Compile. The zero value is valid: RFC9309 semantics,
// compile.DefaultMaxFileSize, DefaultCacheBytes.
type Options struct {
	Semantics Semantics
	// MaxFileSize is the number of bytes of the body that are read; 0 or any
	// value below compile.DefaultMaxFileSize means that default.
	MaxFileSize int
	// CacheBytes bounds the memory of the states each matcher's automaton
	// builds; 0 means DefaultCacheBytes. When a cache is full it is cleared
	// and deciding goes on: a small value costs time, never correctness. A
	// negative value builds no states: the automaton's linear fallback
	// decides every URL (see package automaton), slower per URL than a warm
	// cache and holding none. A matcher whose groups have content-usage
	// lines has an automaton for each usage category asked too (Usage,
	// UsageOf), each within CacheBytes.
	CacheBytes int
	// WarmUp is about the number of URLs each matcher decides by trying
	// its rules, before its automaton's DFA starts building states; 0
	// means automaton.DefaultWarmUp, and a negative value starts the DFA
	// at the first URL. A crawler decides fewer URLs than that on most
	// files, and so keeps no states for them (see package automaton).
	WarmUp int
}

// Robots is a compiled robots.txt. It is immutable and safe for concurrent
// use; its matchers are built on first use and cached.
type Robots struct {
	file compile.File // parsed in place (compile.ParseInto); its Semantics are Options'
	// auto holds the Options its matchers' automata are built with: the
	// few fields they read, not all of Options.
	auto      automatonOptions
	fixed     Reason // ReasonAllowAll or ReasonDisallowAll for the fixed answers, else 0
	fileBytes int    // what the parsed file holds (Bytes)

	mu sync.Mutex // serialises cache writes
	// matchers is the cache, copied on write: a slice, not a map, since a
	// crawler asks for one or two selections and a map of one costs
	// hundreds of bytes in every cached file.
	matchers atomic.Pointer[[]cachedMatcher]
	// last is the cache entry most recently built for one token, looked
	// at before the cache: a crawler asks for its own agent again and
	// again, and a string comparison is cheaper than a map lookup.
	last atomic.Pointer[matcherOnce]
}

// automatonOptions are the Options a matcher's automaton is built with,
// in 32 bits: the automaton holds each to less (automaton.MaxCacheBytes,
// and a warm-up of fewer than 1<<31 inputs), so clamping them changes
// nothing it does.
type automatonOptions struct{ cacheBytes, warmUp int32 }

func automatonOptionsOf(o Options) automatonOptions {
	return automatonOptions{cacheBytes: clamp32(o.CacheBytes), warmUp: clamp32(o.WarmUp)}
}

// options returns the automaton's options.
func (a automatonOptions) options() automaton.Options {
	return automaton.Options{CacheBytes: int(a.cacheBytes), WarmUp: int(a.warmUp)}
}

func clamp32(n int) int32 { return int32(min(max(n, math.MinInt32), math.MaxInt32)) }

type cachedMatcher struct {
	key string
	e   *matcherOnce
}

// find returns the cache entry for key, or nil. The key of one token is the
// token itself, of any other number of tokens their length-prefixed
// encoding (matcherKey); one says which, since a token may hold any
// bytes, also those of another list's encoding.
func find(c *[]cachedMatcher, key string, one bool) *matcherOnce {
	if c != nil {
		for _, x := range *c {
			if x.key == key && (len(x.e.toks) == 1) == one {
				return x.e
			}
		}
	}
	return nil
}

// matcherKey appends the cache key of tokens, when there are not exactly
// one, to buf: each token's length (binary.AppendUvarint) and bytes, so that
// no two lists share a key whatever bytes their tokens hold.
func matcherKey(buf []byte, tokens []string) []byte {
	for _, t := range tokens {
		buf = binary.AppendUvarint(buf, uint64(len(t)))
		buf = append(buf, t...)
	}
	return buf
}

// matcherOnce is a cache entry. Its fields are what a matcher's
// construction would otherwise allocate, and no more: a crawler keeps one
// in each of millions of files.
type matcherOnce struct {
	once sync.Once
	done atomic.Bool // set once mv is built
	// mv is the matcher, here to save its construction an allocation.
	mv Matcher
	// toks are the tokens mv is built for, in tok1 when there is one,
	// here to save its construction an allocation.
	toks []string
	tok1 [1]string
	// first is the cache when this is its first entry: most files are
	// asked for one crawler's matcher, and it then costs one allocation.
	first     []cachedMatcher
	firstItem [1]cachedMatcher
}

// Compile parses body and prepares it for decisions. It never fails: a line
// the parser does not understand is skipped (package lint, or compile.Parse
// with compile.Options.Diagnostics, says why). It keeps nothing
// of body (the caller may reuse it once Compile returns), and body must not
// change while it runs.
func Compile(body []byte, opts Options) *Robots {
	r := &Robots{auto: automatonOptionsOf(opts)}
	compile.ParseInto(&r.file, body, compile.Options{Semantics: opts.Semantics, MaxFileSize: opts.MaxFileSize})
	r.fileBytes = r.file.Bytes()
	return r
}

// CompileFor compiles body for one crawler, whose product tokens are
// known before the bytes (for example "Googlebot-Image", "Googlebot"), and
// returns its matcher: the answers of Compile(body, opts).Matcher(agents...)
// for every URL, agents read as AgentTokens says. It is the crawler's
// shape: one pass over the bytes follows the grouping and keeps only the
// groups that may apply to those tokens (compile.ParseFor), so the groups
// of other crawlers are neither copied nor normalised, and the matcher
// holds no more than it decides with. A caller that asks for several
// crawlers, explains, or lints compiles with Compile.
//
// Like Compile it never fails, keeps nothing of body, and body must not
// change while it runs. The matcher is safe for concurrent use.
func CompileFor(body []byte, opts Options, agents ...string) *Matcher {
	c := new(crawlerMatcher)
	given := append(c.tok1[:0], agents...) // the variadic slice must not escape
	tokens := readAgents(opts.Semantics, given)
	origin := compile.ParseFor(&c.file, body, compile.Options{Semantics: opts.Semantics, MaxFileSize: opts.MaxFileSize}, tokens)
	buildMatcher(&c.m, &c.file, 0, automatonOptionsOf(opts), given, tokens)
	c.m.own = &c.file
	if origin != nil && len(c.m.sel.Groups) > 0 {
		c.m.extra().origin = origin
	}
	return &c.m
}

// crawlerMatcher is what CompileFor allocates: the matcher and the part
// of the file it reads, in one object.
type crawlerMatcher struct {
	m    Matcher
	file compile.File
	tok1 [1]string // the agent, when there is one
}

// sizeofMatcher is the size of a Matcher in its matcherOnce, and its cache
// entry, for Bytes.
const sizeofMatcher = 240 + 24

// sizeofMatcherMore is the size of a Matcher's matcherMore, when it has
// one (TestSizes checks it).
const (
	sizeofMatcherMore = 56
	sizeofRuleSet     = 32
)

// Bytes returns the memory r holds: the parsed file and its cached
// matchers, with the states their automata have built so far. It grows as
// decisions build states (each automaton at most Options.CacheBytes), so a
// cache of compiled files can charge each what it holds. It takes no lock.
func (r *Robots) Bytes() int {
	n := r.fileBytes
	if c := r.matchers.Load(); c != nil {
		for _, x := range *c {
			if x.e.done.Load() {
				n += x.e.mv.Bytes()
			}
		}
	}
	return n
}

// String returns r in one short line, for a log: its semantics, its group,
// rule and sitemap counts, its warnings and the bytes it holds (Bytes), such
// as
//
//	engine.Robots{rfc9309 12 groups, 340 rules, 2 sitemaps, 45678 bytes}
//	engine.Robots{google allow-all}
//
// Matcher.Dump returns the whole of a crawler's rules.
func (r *Robots) String() string {
	if r.fixed != 0 {
		return "engine.Robots{" + r.file.Semantics.String() + " " + r.fixed.String() + "}"
	}
	rules := 0
	for i := range r.file.Groups {
		rules += r.file.Groups[i].Rules.Len()
	}
	s := "engine.Robots{" + r.file.Semantics.String() + " " +
		strconv.Itoa(len(r.file.Groups)) + plural.Of(len(r.file.Groups), " group, ", " groups, ") +
		strconv.Itoa(rules) + plural.Of(rules, " rule, ", " rules, ") +
		strconv.Itoa(r.file.Sitemaps.Len()) + plural.Of(r.file.Sitemaps.Len(), " sitemap, ", " sitemaps, ")
	if n := len(r.file.Warnings); n > 0 {
		s += strconv.Itoa(n) + plural.Of(n, " warning, ", " warnings, ")
	}
	return s + strconv.Itoa(r.Bytes()) + " bytes}"
}

// AllowAll returns a Robots that allows every URL, as for a robots.txt that
// is unavailable (HTTP 4xx).
func AllowAll(opts Options) *Robots {
	return &Robots{file: compile.File{Semantics: opts.Semantics}, auto: automatonOptionsOf(opts), fixed: ReasonAllowAll}
}

// DisallowAll returns a Robots that disallows every URL, as for a robots.txt
// that is unreachable (HTTP 5xx, network errors).
func DisallowAll(opts Options) *Robots {
	return &Robots{file: compile.File{Semantics: opts.Semantics}, auto: automatonOptionsOf(opts), fixed: ReasonDisallowAll}
}

// File returns the parsed file. It is shared: callers must not modify it.
func (r *Robots) File() *compile.File { return &r.file }

// Semantics returns the semantics r was compiled with.
func (r *Robots) Semantics() Semantics { return r.file.Semantics }

// Warnings returns what a reader of the file should know about the whole of
// it, when it was not read as a robots.txt of rules would be: UTF-16 text,
// binary bytes, mostly not UTF-8, an HTML page or a JSON document, a file
// cut at the size limit, directives but no user-agent line (so every URL is
// allowed). Most files have none. A crawler that logs them learns why a
// site's file allows everything. It is shared: callers must not modify it.
func (r *Robots) Warnings() []Warning { return r.file.Warnings }

// Sitemaps returns the sitemap URLs of the file, in order, in a new slice
// (the file keeps them as records).
func (r *Robots) Sitemaps() []Sitemap { return r.file.Sitemaps.Slice() }

// Matcher returns the matcher for a crawler with the given product tokens
// (for example "Googlebot-Image", "Googlebot"): every group naming any of
// them applies, else the "*" groups. It is built on first use and cached;
// safe for concurrent use. Once cached, looking it up allocates nothing.
//
// A string that is not a product token ("Googlebot/2.1", a whole User-Agent
// header) is read as AgentTokens says: in RFC9309 and Koster1996 as its
// product tokens (ProductTokens), in Google as given, where it names no
// group, as in Google's library. Matcher.Tokens and Explain say what it was
// read as; CheckAgent tells a caller that wants to refuse such strings.
func (r *Robots) Matcher(tokens ...string) *Matcher {
	if len(tokens) == 1 { // the cache key is the token itself
		if e := r.last.Load(); e != nil && e.toks[0] == tokens[0] {
			return &e.mv
		}
		if e := find(r.matchers.Load(), tokens[0], true); e != nil && e.done.Load() {
			return &e.mv
		}
		return r.matcherSlow(tokens[0], tokens)
	}
	var buf [128]byte
	key := matcherKey(buf[:0], tokens)
	if e := find(r.matchers.Load(), string(key), false); e != nil && e.done.Load() {
		return &e.mv
	}
	return r.matcherSlow(string(key), tokens)
}

// matcherSlow builds (or waits for) the cached matcher; tokens is copied, so
// that Matcher's variadic slice does not escape.
func (r *Robots) matcherSlow(key string, tokens []string) *Matcher {
	r.mu.Lock()
	old := r.matchers.Load()
	e := find(old, key, len(tokens) == 1)
	if e == nil {
		if old != nil && len(*old) >= MaxCachedMatchers {
			r.mu.Unlock()
			m := new(Matcher)
			r.build(m, append([]string(nil), tokens...))
			return m
		}
		e = &matcherOnce{}
		e.toks = append(e.tok1[:0], tokens...)
		entry := cachedMatcher{key: key, e: e}
		if old == nil {
			e.firstItem[0] = entry
			e.first = e.firstItem[:]
			r.matchers.Store(&e.first)
		} else {
			next := append(make([]cachedMatcher, 0, len(*old)+1), *old...)
			next = append(next, entry)
			r.matchers.Store(&next)
		}
	}
	r.mu.Unlock()
	e.once.Do(func() {
		r.build(&e.mv, e.toks)
		e.done.Store(true)
	})
	if len(e.toks) == 1 { // built: last publishes it as done does
		r.last.Store(e)
	}
	return &e.mv
}

// Allowed reports whether the crawler with product token agent may fetch url
// (absolute, or a path starting with '/'). An agent that is not a product
// token is read as Matcher reads it (AgentTokens).
func (r *Robots) Allowed(agent, url string) bool {
	return r.Matcher(agent).Allowed(url)
}

// Rule identifies the rule that decided.
type Rule struct {
	Line    int      // 1-based line in the file; 0 when no rule of the file decided
	Kind    RuleKind // NoRule when Line is 0
	Pattern string   // the normalised pattern that matched
	Value   string   // the value as written
}

// Decision is the answer for one URL.
type Decision struct {
	Allowed bool
	// Rule is the deciding rule; Rule.Line is 0 when no rule of the file
	// decided (see Reason).
	Rule   Rule
	Reason Reason
	// NotURL reports that the input to Decide was not a URL whose path can
	// be known (IsURL): neither an absolute URL, nor "//host/path", nor a
	// path that starts with '/'. It was read as Google's library reads such
	// text, the path starting at its first '/' ("g/x" is decided as "/x",
	// "www.example.com/a" as "/a"), in every semantics, which is seldom
	// what the caller meant: a relative link
	// must be resolved against its page first, and a path already
	// extracted goes to DecidePath ("g/x" there is "/g/x").
	NotURL bool
}

// IsURL reports whether s is a URL whose path Decide can know: an absolute
// URL with an authority ("https://example.com/a"), "//host/path", a path
// that starts with '/', or "" (the path "/"). Decide reads anything else as
// Google's library does, from its first '/', and sets Decision.NotURL.
func IsURL(s string) bool { return compile.IsURL(s) }

// Reason says what decided.
type Reason uint8

const (
	ReasonNoMatch     Reason = iota // no rule matched: allowed
	ReasonRule                      // Rule decided
	ReasonRobotsTxt                 // RFC9309: /robots.txt is always allowed
	ReasonIndexHTM                  // Google: an allow rule ending in /index.htm* allowed its directory (Rule is that allow line, Pattern the directory with '$')
	ReasonAllowAll                  // the Robots allows everything (robots.txt unavailable)
	ReasonDisallowAll               // the Robots disallows everything (robots.txt unreachable)
)

var reasonNames = [...]string{"no-match", "rule", "robots.txt", "index.htm", "allow-all", "disallow-all"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "reason?"
}
