package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/seed-275a9bd5/robotstxt/automaton"
	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/internal/semantics"
)

// Matcher decides URLs for one crawler. It is immutable and safe for
// concurrent use.
//
// A rule has one identity from parse to decision: its place in sel.Rules,
// the selected groups' rules merged in file order ("order" below; a rule's
// Line is the same rule in the file). The automaton numbers its patterns in
// another order, by priority (its "rank"; in file order when a pattern is
// too long for build's counting sort, and the automaton then ranks them
// itself), and refs, here and only here, maps the automaton's pattern
// numbers back to the rules. Priority is a key, not an index.
type Matcher struct {
	sem   Semantics
	fixed Reason
	// wideRefs: refs holds each ruleRef as two halves (see ref).
	wideRefs bool
	sel      compile.Selection
	tokens   []string // the product tokens the groups were selected for
	// more holds what few matchers have, nil in the others: a crawler
	// keeps a matcher for each file (see matcherMore).
	more *matcherMore
	// refs holds the rule behind each of the automaton's patterns (ref):
	// one int16 each while every one fits, as in all but files of tens of
	// thousands of rules.
	refs []uint16
	set  *automaton.Set
	// group1 holds sel.Groups when one group is selected, as is usual.
	group1 [1]int
}

// ruleRef ties an automaton pattern to its rule: sel.Rules[r] for r >= 0,
// or, for r < 0, the index.htm directory rule indexHTM[^r]. It is small: a
// compiled file is kept in caches by the thousand.
type ruleRef int32

// matcherMore is what a Matcher holds in few cases.
type matcherMore struct {
	// given are the agents as the caller passed them, when one of them is
	// not a product token (AgentTokens).
	given []string
	// indexHTM holds the directory rules Google's index.htm rule adds
	// (semantics.IndexHTM), which no line of the file has: the rule each
	// comes from and its pattern (the directory and '$').
	indexHTM []indexHTMRule
}

// given returns the agents as the caller passed them, when one of them is
// not a product token (AgentTokens); nil otherwise.
func (m *Matcher) given() []string {
	if m.more == nil {
		return nil
	}
	return m.more.given
}

// indexHTM returns the directory rules Google's index.htm rule adds (see
// matcherMore).
func (m *Matcher) indexHTM() []indexHTMRule {
	if m.more == nil {
		return nil
	}
	return m.more.indexHTM
}

// extra returns m.more, made if it is nil.
func (m *Matcher) extra() *matcherMore {
	if m.more == nil {
		m.more = new(matcherMore)
	}
	return m.more
}

type indexHTMRule struct {
	rule    int32 // its allow rule's order
	pattern string
}

// maxNarrowRules is the most rules a selection may have for refs to hold
// each ruleRef in 16 bits: a rule's order, or ^ the index of an index.htm
// rule (at most one a rule), as an int16.
const maxNarrowRules = 1<<15 - 1

// ref returns the rule behind the automaton's pattern i.
func (m *Matcher) ref(i int) ruleRef {
	if !m.wideRefs {
		return ruleRef(int16(m.refs[i]))
	}
	return ruleRef(uint32(m.refs[2*i]) | uint32(m.refs[2*i+1])<<16)
}

// setRef sets the rule behind the automaton's pattern i.
func (m *Matcher) setRef(i int, rf ruleRef) {
	if !m.wideRefs {
		m.refs[i] = uint16(int16(rf))
		return
	}
	m.refs[2*i], m.refs[2*i+1] = uint16(rf), uint16(uint32(rf)>>16)
}

// rule returns the index in sel.Rules of the rule behind rf.
func (m *Matcher) rule(rf ruleRef) int32 {
	if rf < 0 {
		return m.more.indexHTM[^rf].rule
	}
	return int32(rf)
}

// buildScratch is what build needs only while it runs: the patterns it
// hands the automaton and its counting sort's counts. It comes from
// buildPool, so that neither is allocated (the counts, 2 KiB, would grow
// the stack of every goroutine that builds a matcher).
type buildScratch struct {
	pats []automaton.Pattern
	next [maxRankKey + 1]int32 // per key: patterns of higher keys, then the next position
}

var buildPool = sync.Pool{New: func() any { return new(buildScratch) }}

// build makes in m, a zero Matcher, the matcher for the agents given, read
// as AgentTokens says.
func (r *Robots) build(m *Matcher, given []string) {
	sem := r.file.Semantics
	tokens := readAgents(sem, given)
	*m = Matcher{sem: sem, fixed: r.fixed, tokens: tokens}
	for _, a := range given {
		if !readsAsItself(RFC9309, a) {
			m.extra().given = given
			break
		}
	}
	if r.fixed != 0 {
		m.set = automaton.Compile(nil, automaton.Options{})
		return
	}
	m.sel = r.file.SelectInto(m.group1[:0], tokens...)
	// The patterns are needed only while compiling: their slice comes back
	// to buildPool, cleared (the strings are the file's), and so do the
	// counts, zero.
	bs := buildPool.Get().(*buildScratch)
	pats, next := bs.pats[:0], &bs.next
	defer func() {
		clear(pats)
		clear(next[:])
		bs.pats = pats[:0]
		buildPool.Put(bs)
	}()
	// The patterns are counted first, by their priority's top 32 bits
	// (length, then allow before disallow), so that they are laid out in
	// rank order: refs, which the matcher keeps, gets its exact size, and
	// the automaton neither sorts them nor keeps a map from its order to
	// ours. Patterns of one key come in file order, their rank order.
	ranked := m.sem != Koster1996 // Koster1996's file order is rank order
	n, top := 0, 0                // top: the highest key counted
	m.eachPattern(func(p automaton.Pattern, _ int, _ bool) {
		n++
		if key := int(p.Priority >> 32); ranked && key <= maxRankKey {
			next[key]++
			top = max(top, key)
		} else {
			ranked = false
		}
	})
	if ranked {
		at := int32(0)
		for k := top; k >= 0; k-- {
			next[k], at = at, at+next[k]
		}
	}
	m.wideRefs = m.sel.Rules.Len() > maxNarrowRules
	if m.wideRefs {
		m.refs = make([]uint16, 2*n)
	} else {
		m.refs = make([]uint16, n)
	}
	if cap(pats) < n {
		pats = make([]automaton.Pattern, n)
	}
	pats = pats[:n]
	placed := int32(0) // each pattern goes at its rank, or in file order
	m.eachPattern(func(p automaton.Pattern, order int, indexHTM bool) {
		at := placed
		if ranked {
			at = next[p.Priority>>32]
			next[p.Priority>>32]++
		}
		placed++
		rf := ruleRef(order)
		if indexHTM {
			x := m.extra()
			rf = ^ruleRef(len(x.indexHTM))
			x.indexHTM = append(x.indexHTM, indexHTMRule{rule: int32(order), pattern: p.Bytes + "$"})
		}
		pats[at] = p
		m.setRef(int(at), rf)
	})
	// A URL's path ends at '#'. Google's is matched as the URL gives it, so
	// its automaton stops at the '#' itself (and usually decides before
	// it): nothing has to look for it first. The other semantics cut the
	// path before normalising it, and stop at escapes instead.
	// The patterns are parts of the file's text, which the automaton
	// holds rather than a copy of them until it builds its first state.
	opts := r.auto.options()
	opts.End, opts.Text = "#", m.sel.Rules.Text()
	if m.sem != Google {
		opts.Escape, opts.End = compile.PathRewrites(m.sem), ""
	}
	m.set = automaton.Compile(pats, opts)
}

// maxRankKey bounds the keys build ranks patterns by in one counting pass
// (patterns of up to 255 bytes); a file with a longer pattern is ranked by
// the automaton instead.
const maxRankKey = 511

// eachPattern calls fn for every automaton pattern of m's rules, in file
// order, with the rule's position in sel.Rules and whether it is Google's
// index.htm pattern derived from that rule. Every path starts with '/': a
// rule whose pattern starts with neither '/' nor '*' can never match (lint
// reports it), so it gives none.
func (m *Matcher) eachPattern(fn func(p automaton.Pattern, order int, indexHTM bool)) {
	rules := m.sel.Rules
	for order := range rules.Len() {
		pattern, kind := rules.Pattern(order), rules.Kind(order)
		if !m.mayMatch(pattern) {
			continue
		}
		// Koster1996 patterns hold no '*' or '$' of their own: the
		// normaliser escapes them (%2A, %24), so they are all literal here.
		p, anchored := pattern, false
		if m.sem != Koster1996 && strings.HasSuffix(p, "$") {
			p, anchored = p[:len(p)-1], true
		}
		fn(automaton.Pattern{Bytes: p, Anchored: anchored, Priority: semantics.Priority(m.sem, kind, len(pattern), order)}, order, false)
		if dir, ok := semantics.IndexHTM(m.sem, kind, pattern); ok {
			fn(automaton.Pattern{Bytes: dir, Anchored: true, Priority: semantics.Priority(m.sem, compile.Allow, len(dir)+1, order)}, order, true)
		}
	}
}

// mayMatch reports whether a rule's pattern p may match a path: it starts
// with '/' or (but in Koster1996, where '*' is a literal byte) with '*'.
func (m *Matcher) mayMatch(p string) bool {
	return len(p) > 0 && (p[0] == '/' || p[0] == '*' && m.sem != Koster1996)
}

// ruleOf returns the rule behind rf, the reason it decides for, and the
// pattern it matches with (Google's index.htm allow: the directory and '$').
func (m *Matcher) ruleOf(rf ruleRef) (compile.Rule, Reason, string) {
	rule := m.sel.Rules.At(int(m.rule(rf)))
	if rf < 0 {
		return rule, ReasonIndexHTM, m.more.indexHTM[^rf].pattern
	}
	return rule, ReasonRule, rule.Pattern
}

// isRobotsTxt reports whether path ("/"+path when slash) normalises
// (RFC9309) to exactly "/robots.txt". Only a percent-escape can shorten a
// path to it (escapes of unreserved bytes decode), so longer paths and paths
// without '%' are answered at once. It allocates nothing.
func isRobotsTxt(slash bool, path string) bool {
	robots := "/robots.txt"
	if slash {
		robots = robots[1:]
	}
	if path == robots {
		return true
	}
	if len(path) > 3*len(robots) || strings.IndexByte(path, '%') < 0 {
		return false
	}
	var buf [3 * len("/robots.txt")]byte
	n := 0
	for from := 0; from < len(path); {
		k, next := compile.NormalizePathInto(buf[n:], path, from, RFC9309)
		if k == 0 && next == from {
			return false // no room left: longer than robots
		}
		n, from = n+k, next
	}
	return string(buf[:n]) == robots
}

// decisionBufSize is the stack buffer into which a path that needs
// rewriting (percent-encoding, or a '/' in front) is written before it is
// matched, when its canonical form surely fits; a longer one goes to a
// buffer from pathPool.
const decisionBufSize = 256

// prefixBytes is how much of a long path matchNormalized writes first: its
// canonical form, at most three bytes a byte and a '/', fits the stack
// buffer.
const prefixBytes = (decisionBufSize - 1) / 3

// pathPool holds the buffers of paths longer than decisionBufSize: a
// buffer is kept at the size of the longest path it held.
var pathPool = sync.Pool{New: func() any { return new([]byte) }}

// Decide decides a URL: absolute (scheme://host/path?query), "//host/path",
// or a path that starts with '/'. Its path, params and query are extracted
// and normalised as the semantics says, and matched in time linear in the
// URL (its bytes read twice when normalising rewrites some). It allocates
// nothing in the matcher's warm-up (Options.WarmUp), once the automaton
// states the URL visits exist, or, when its fallback decides the URL, once
// the fallback's scratch is warm.
//
// Relative input is not resolved: anything that is not a URL or a path
// (IsURL) is read as Google's library reads it, its path starting at its
// first '/' ("g/x" is decided as "/x", "www.example.com/a" as "/a"), and
// the Decision says so (NotURL).
// Resolve a relative link against its page before deciding it; a path that
// was already extracted goes to DecidePath, which reads "g/x" as "/g/x".
func (m *Matcher) Decide(url string) Decision {
	var d Decision
	if m.fixed != 0 {
		d = m.fixedDecision()
	} else {
		d = m.decision(m.find(m.span(url)))
	}
	d.NotURL = !compile.IsURL(url)
	return d
}

// span returns url's path for find (slash: a '/' goes in front of it).
// Google's is not cut at '#': its automaton stops there itself, often
// deciding before it.
func (m *Matcher) span(url string) (slash bool, path string) {
	if m.sem == Google {
		return compile.PathSpanUncut(url, m.sem)
	}
	return compile.PathSpan(url, m.sem)
}

// Allowed reports whether url may be fetched: Decide(url).Allowed, without
// building the Decision (the form for crawlers that need only the answer).
// It allocates nothing in the warm-up or once the automaton states the URL
// visits exist. Like Decide it reads text that is not a URL or a path
// (IsURL: "g/x") as Google's library does, from its first '/'; pass
// absolute URLs, or use Decide, whose Decision.NotURL says so.
func (m *Matcher) Allowed(url string) bool {
	if m.fixed != 0 {
		return m.fixed == ReasonAllowAll
	}
	if m.set.Empty() { // no rule can match: even /robots.txt is allowed
		return true
	}
	idx := m.find(m.span(url))
	return idx < 0 || m.sel.Rules.Kind(int(m.rule(m.ref(idx)))) == compile.Allow
}

// DecidePath decides an already-extracted path (path + params + query); it
// is normalised as the semantics says. Every URL's path starts with '/': a
// path that does not is read with one in front ("g/x" is "/g/x", where
// Decide reads "g/x" as a host and a path, "/x"). A '#' ends it, as it ends a
// URL's path. It allocates nothing once the automaton states the path
// visits exist.
func (m *Matcher) DecidePath(path string) Decision {
	if m.fixed != 0 {
		return m.fixedDecision()
	}
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path = path[:i]
	}
	return m.decision(m.find(path == "" || path[0] != '/', path))
}

func (m *Matcher) fixedDecision() Decision {
	return Decision{Allowed: m.fixed == ReasonAllowAll, Reason: m.fixed}
}

// Results of find that are not pattern indexes.
const (
	foundNone      = automaton.NoMatch // no rule matched
	foundRobotsTxt = -2                // RFC9309: the path is /robots.txt
)

// decision turns a result of find into a Decision.
func (m *Matcher) decision(idx int) Decision {
	switch idx {
	case foundNone:
		return Decision{Allowed: true, Reason: ReasonNoMatch}
	case foundRobotsTxt:
		return Decision{Allowed: true, Reason: ReasonRobotsTxt}
	}
	rule, reason, pattern := m.ruleOf(m.ref(idx))
	return Decision{
		Allowed: rule.Kind == compile.Allow,
		Rule:    Rule{Line: rule.Line, Kind: rule.Kind, Pattern: pattern, Value: rule.Value},
		Reason:  reason,
	}
}

// find is the decision pipeline, the one route every URL takes: it returns
// the index of the pattern that decides path ("/"+path when slash),
// foundNone, or foundRobotsTxt.
//
//  1. RFC9309: a path that normalises to /robots.txt is always allowed.
//  2. The automaton runs over the path as given. Google matches the URL's
//     bytes as they are, so that is the answer. The other semantics
//     normalise the path, and their automaton stops at the first byte that
//     normalising could rewrite (Options.Escape: '%', '*', '$', bytes >=
//     0x80), unless the answer is final before it: the bytes before it are
//     canonical as they are.
//  3. Otherwise the path is normalised into a buffer (on the stack up to
//     decisionBufSize bytes; a long path first in part, and whole only when
//     that part does not decide) and the automaton runs over that
//     (matchNormalized): the path's bytes are read twice.
func (m *Matcher) find(slash bool, path string) int {
	if m.sem == RFC9309 && isRobotsTxt(slash, path) {
		return foundRobotsTxt
	}
	if !slash {
		if m.sem == Google {
			return m.set.Match(path)
		}
		if idx, ok := m.set.MatchPrefix(path); ok {
			return idx
		}
	}
	return m.matchNormalized(slash, path)
}

// matchNormalized writes "/"+path (when slash) through the semantics'
// normaliser (Google's: none) into a buffer, and returns the index of the
// pattern that decides it: the automaton decides the whole input, so that
// it can hand it to its fallback (automaton.Set.Match). A path whose
// canonical form may not fit the stack buffer is first written in part,
// up to prefixBytes of it: when that decides (automaton.Set.Decided), the
// rest is never read.
func (m *Matcher) matchNormalized(slash bool, path string) int {
	need := 1 + len(path)
	if m.sem != Google {
		need = 1 + 3*len(path) // a byte's canonical form is at most three
	}
	var stack [decisionBufSize]byte
	buf := stack[:0]
	if need > len(stack) {
		// Not inside a percent-escape: "%XX" is rewritten whole.
		cut := prefixBytes
		if i := strings.LastIndexByte(path[cut-2:cut], '%'); i >= 0 {
			cut -= 2 - i
		}
		if slash {
			buf = append(buf, '/')
		}
		buf = compile.AppendPath(buf, path[:cut], m.sem)
		if idx, ok := m.set.Decided(unsafe.String(unsafe.SliceData(buf), len(buf))); ok {
			return idx
		}
		buf = buf[:0]
	}
	var pooled *[]byte
	if need > len(stack) {
		pooled = pathPool.Get().(*[]byte)
		if cap(*pooled) < need {
			*pooled = make([]byte, 0, need)
		}
		buf = (*pooled)[:0]
	}
	if slash {
		buf = append(buf, '/')
	}
	buf = compile.AppendPath(buf, path, m.sem)
	idx := m.set.Match(unsafe.String(unsafe.SliceData(buf), len(buf)))
	if pooled != nil {
		pathPool.Put(pooled)
	}
	return idx
}

// Tokens returns the product tokens m was built for: the agents given to
// Robots.Matcher, each read as AgentTokens says (in RFC9309 and Koster1996
// a User-Agent header given as an agent is its product tokens).
func (m *Matcher) Tokens() []string { return append([]string(nil), m.tokens...) }

// Selection returns how the groups were selected and the merged rules, in
// file order. It is shared: callers must not modify it.
func (m *Matcher) Selection() Selection { return m.sel }

// RankedRule is one of a Matcher's rules, as Rules lists them: a rule of
// its merged groups, or the directory rule Google's index.htm rule adds for
// an allow rule: in Google semantics "Allow: /d/index.html" (any pattern
// whose last '/'-segment starts with "/index.htm") also allows "/d/" exactly,
// as Google's library does. That rule has the allow rule's line and value
// and the pattern "/d/$".
type RankedRule struct {
	Rule
	IndexHTM bool
}

// Rules returns m's rules in priority order, best first: the first of them
// that matches a URL decides it. In RFC9309 and Google the longer pattern
// comes first (in bytes, after normalisation, counting '*' and '$'), an
// allow before a disallow of the same length, then file order; in
// Koster1996 file order alone. A rule whose pattern
// can match no path (one that starts with neither '/' nor '*', or in
// Koster1996 not with '/') is listed too, where its priority puts it. It
// allocates; deciding never calls it.
func (m *Matcher) Rules() []RankedRule {
	type ranked struct {
		r    RankedRule
		prio uint64
	}
	rs := make([]ranked, 0, m.sel.Rules.Len()+len(m.indexHTM()))
	for order := range m.sel.Rules.Len() {
		rule := m.sel.Rules.At(order)
		rs = append(rs, ranked{RankedRule{Rule: Rule{rule.Line, rule.Kind, rule.Pattern, rule.Value}}, semantics.Priority(m.sem, rule.Kind, len(rule.Pattern), order)})
		if dir, ok := semantics.IndexHTM(m.sem, rule.Kind, rule.Pattern); ok {
			rs = append(rs, ranked{RankedRule{Rule{rule.Line, compile.Allow, dir + "$", rule.Value}, true}, semantics.Priority(m.sem, compile.Allow, len(dir)+1, order)})
		}
	}
	sort.SliceStable(rs, func(a, b int) bool { return rs[a].prio > rs[b].prio })
	out := make([]RankedRule, len(rs))
	for i, r := range rs {
		out[i] = r.r
	}
	return out
}

// Bytes returns the memory m holds beyond the parsed file: its rule table
// and its automaton, states built so far included. It takes no lock.
func (m *Matcher) Bytes() int {
	n := sizeofMatcher + 2*len(m.refs) + m.set.Bytes()
	if m.more != nil {
		n += sizeofMatcherMore + 24*cap(m.more.indexHTM)
		for _, h := range m.more.indexHTM {
			n += len(h.pattern)
		}
	}
	return n + m.sel.Bytes()
}

// Stats describes a matcher's automaton and how its URLs were decided.
type Stats struct {
	Rules    int // merged rules
	Patterns int // automaton patterns (rules that can match, plus Google's synthetic index.htm rules)
	States   int // states built so far
	Classes  int
	Bytes    int   // memory of the automaton: its patterns (offsets into the file's text), their positions once its DFA ran, the states built so far, the fallback once built
	Clears   int64 // times the automaton's full cache of states was cleared
	// GiveUps is the number of URLs on which the automaton's DFA gave up
	// (building their states cost more than its policy allows), Fallback
	// the number of URLs its linear fallback decided (those, and the ones
	// the policy gave it directly), Direct the number its rules decided
	// one by one in the warm-up (Options.WarmUp): see package automaton.
	GiveUps, Fallback, Direct int64
}

// Stats returns the size of m's automaton, states built so far included.
func (m *Matcher) Stats() Stats {
	st := m.set.Stats()
	return Stats{Rules: m.sel.Rules.Len(), Patterns: st.Patterns, States: st.States, Classes: st.Classes, Bytes: st.Bytes, Clears: st.Clears,
		GiveUps: st.GiveUps, Fallback: st.Fallback, Direct: st.Direct}
}

// String returns m in one short line, for a log: its semantics, its
// product tokens, how its groups were selected, its merged rule count and
// the bytes it holds (Bytes), such as
//
//	engine.Matcher{rfc9309 [Googlebot] specific: 2 groups, 312 rules, 45678 bytes}
//
// Dump returns the whole of it.
func (m *Matcher) String() string {
	var b strings.Builder
	b.WriteString("engine.Matcher{")
	b.WriteString(m.sem.String())
	b.WriteString(" [")
	for i, t := range m.tokens {
		if i > 0 {
			b.WriteByte(' ')
		}
		if compile.ValidToken(t) {
			b.WriteString(t)
		} else {
			b.WriteString(strconv.Quote(cutAgent(t))) // "", "*", or a Google string that is no token
		}
	}
	b.WriteString("] ")
	if m.fixed != 0 {
		b.WriteString(m.fixed.String())
	} else {
		b.WriteString(m.sel.Match.String())
		if n := len(m.sel.Groups); n > 0 {
			b.WriteString(": " + strconv.Itoa(n) + plural(n, " group", " groups"))
		}
	}
	b.WriteString(", " + strconv.Itoa(m.sel.Rules.Len()) + plural(m.sel.Rules.Len(), " rule", " rules"))
	b.WriteString(", " + strconv.Itoa(m.Bytes()) + " bytes}")
	return b.String()
}

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Dump returns the whole of m for people, over many lines (hundreds for a
// large file; String is the one-line form): the semantics, the tokens, how
// the groups were selected, the merged rules in priority order (the first
// that matches a URL decides it) and the automaton with the states built so
// far, which are only those that URLs decided so far have reached (a
// matcher that decided nothing has its start state alone).
func (m *Matcher) Dump() string {
	var b strings.Builder
	fmt.Fprintf(&b, "semantics: %s\nagents: %s\nselected: %s", m.sem, strings.Join(m.tokens, ", "), m.sel.Match)
	if m.fixed != 0 {
		fmt.Fprintf(&b, " (%s)", m.fixed)
	}
	b.WriteString("\n")
	b.WriteString("rules in priority order:\n")
	for _, r := range m.Rules() {
		extra := ""
		if r.IndexHTM {
			extra = " (index.htm)"
		}
		fmt.Fprintf(&b, "  line %d: %s %s%s\n", r.Line, r.Kind, r.Pattern, extra)
	}
	b.WriteString("automaton (the states built so far, by the URLs decided so far):\n")
	b.WriteString(m.set.String())
	return b.String()
}
