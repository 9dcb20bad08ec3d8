package engine

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/seed-275a9bd5/robotstxt/automaton"
	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/internal/plural"
	"github.com/seed-275a9bd5/robotstxt/internal/semantics"
)

// Matcher decides URLs for one crawler. It is immutable and safe for
// concurrent use.
//
// A rule has one identity from parse to decision: its place in sel.Rules,
// the selected groups' rules merged in file order ("order" below). The
// automaton's patterns are those rules in that order, so that of equal
// priorities the earlier line wins, with Google's index.htm directory
// pattern of an allow rule right after it; more.refs maps the patterns
// back to the rules when there are such patterns.
type Matcher struct {
	sem    Semantics
	fixed  Reason
	sel    compile.Selection
	tokens []string // the product tokens the groups were selected for
	// more holds what few matchers have, nil in the others: a crawler
	// keeps a matcher for each file (see matcherMore).
	more *matcherMore
	// rules is the automaton of sel.Rules, built at the matcher's second
	// decision (compiled): the first is decided by trying the rules in
	// turn (firstMatch), and sets rules to tried.
	rules atomic.Pointer[ruleSet]
	auto  automatonOptions // what rules is built with
	// group1 holds sel.Groups when one group is selected, as is usual.
	group1 [1]int
	// own is the file CompileFor kept for the matcher, which it holds
	// (Bytes counts it); nil when a Robots holds the file.
	own *compile.File
}

// ruleSet is the automaton of a matcher's rules: its patterns are the
// rules in order, each followed, in Google semantics, by the index.htm
// directory pattern of an allow rule that has one. refs maps a pattern
// back to its rule when there are such patterns (nil otherwise): the
// rule's order, or ^order for its directory pattern.
type ruleSet struct {
	set  *automaton.Set
	refs []int32
}

// tried is a matcher's rules after its first decision and before its
// automaton is built: the next decision builds it.
var tried = new(ruleSet)

// found turns the automaton's answer (a pattern, or automaton.NoMatch)
// into find's: the rule's order, with foundIndexHTM for a directory
// pattern.
func (rs *ruleSet) found(i int) int {
	if i < 0 || rs.refs == nil {
		return i
	}
	r := rs.refs[i]
	if r < 0 {
		return int(^r) | foundIndexHTM
	}
	return int(r)
}

// matcherMore is what a Matcher holds in few cases.
type matcherMore struct {
	// given are the agents as the caller passed them, when one of them is
	// not a product token (AgentTokens).
	given []string
	// usage decides usage preferences, when the groups have content-usage
	// lines.
	usage *usageMatcher
	// origin holds, for a matcher of CompileFor, the index in the whole
	// file of each group its file kept (compile.ParseFor).
	origin []int
}

// given returns the agents as the caller passed them, when one of them is
// not a product token (AgentTokens); nil otherwise.
func (m *Matcher) given() []string {
	if m.more == nil {
		return nil
	}
	return m.more.given
}

// extra returns m.more, made if it is nil.
func (m *Matcher) extra() *matcherMore {
	if m.more == nil {
		m.more = new(matcherMore)
	}
	return m.more
}

// build makes in m, a zero Matcher, the matcher for the agents given, read
// as AgentTokens says.
func (r *Robots) build(m *Matcher, given []string) {
	buildMatcher(m, &r.file, r.fixed, r.auto, given, readAgents(r.file.Semantics, given))
}

// buildMatcher makes in m, a zero Matcher, the matcher of f (or of the
// fixed answer) for the agents given, read as tokens.
func buildMatcher(m *Matcher, f *compile.File, fixed Reason, auto automatonOptions, given, tokens []string) {
	sem := f.Semantics
	*m = Matcher{sem: sem, fixed: fixed, tokens: tokens}
	for _, a := range given {
		if !readsAsItself(RFC9309, a) {
			m.extra().given = given
			break
		}
	}
	if fixed != 0 {
		return
	}
	m.sel = f.SelectInto(m.group1[:0], tokens...)
	if us := f.SelectedUsages(m.sel); us.Len() > 0 {
		m.extra().usage = &usageMatcher{rules: us, opts: auto.options()}
	}
	m.auto = auto
}

// compiled returns m's ruleSet, built on first use. Two goroutines that
// build it at once both do, and the first to publish it wins.
func (m *Matcher) compiled() *ruleSet {
	old := m.rules.Load()
	if old != nil && old != tried {
		return old
	}
	rs := m.buildRules()
	if !m.rules.CompareAndSwap(old, rs) {
		return m.rules.Load() // another goroutine's, built at once
	}
	return rs
}

// buildRules makes the automaton of m's rules (see ruleSet).
func (m *Matcher) buildRules() *ruleSet {
	rs := new(ruleSet)
	rules := m.sel.Rules
	n := rules.Len()
	pats := make([]automaton.Pattern, 0, n)
	for order := range n {
		kind := rules.Kind(order)
		start, end := rules.PatternSpan(order)
		pats = append(pats, rulePattern(m.sem, kind, start, end, rules.Text()))
		if dir, ok := semantics.IndexHTM(m.sem, kind, rules.Pattern(order)); ok {
			if rs.refs == nil {
				rs.refs = make([]int32, 0, n+1)
				for k := range order {
					rs.refs = append(rs.refs, int32(k))
				}
			}
			rs.refs = append(rs.refs, int32(order))
			pats = append(pats, automaton.Pattern{Start: uint32(start), Len: uint16(len(dir)), Anchored: true, Priority: semantics.Priority(m.sem, compile.Allow, len(dir)+1)})
			rs.refs = append(rs.refs, ^int32(order))
		} else if rs.refs != nil {
			rs.refs = append(rs.refs, int32(order))
		}
	}
	rs.set = automaton.Compile(rules.Text(), pats, m.auto.options())
	return rs
}

// rulePattern returns the automaton pattern of a rule of kind whose
// normalised pattern is text[start:end].
func rulePattern(sem Semantics, kind RuleKind, start, end int, text string) automaton.Pattern {
	return patternOf(sem, text, start, end, semantics.Priority(sem, kind, end-start))
}

// patternOf returns the automaton pattern, ranked prio, of the normalised
// pattern text[start:end] of a rule or a content-usage line: the one
// place that reads its '$'. A final '$' anchors it and is not one of its
// bytes. Koster1996 patterns hold no '*' or '$' of their own (the
// normaliser escapes them, %2A and %24), so they are all literal.
func patternOf(sem Semantics, text string, start, end int, prio uint32) automaton.Pattern {
	anchored := sem != Koster1996 && end > start && text[end-1] == '$'
	if anchored {
		end--
	}
	return automaton.Pattern{Start: uint32(start), Len: uint16(end - start), Anchored: anchored, Priority: prio}
}

// firstMatch is find for the matcher's first decision: it tries m's
// rules in turn on p (canonical), as the automaton's linear engine tries
// its patterns on its first input, without building them. ok is false
// when the tries passed automaton.TryBudget: the automaton decides then.
func (m *Matcher) firstMatch(p string) (found int, ok bool) {
	rules := m.sel.Rules
	text := rules.Text()
	budget, work := max(automaton.TryBudget(len(p)), firstTryBytes*len(text)), 0
	best, bestPrio := foundNone, uint32(0)
	// Google's index.htm directory patterns are anchored and end in '/':
	// only a p that ends in '/' can match one.
	dirs := m.sem == Google && strings.HasSuffix(p, "/")
	pStar := strings.IndexByte(p, '*')
	if pStar < 0 {
		pStar = len(p)
	}
	for order := range rules.Len() {
		kind := rules.Kind(order)
		start, end := rules.PatternSpan(order)
		k, rejected := prefixRejects(text[start:end], p, pStar, m.sem != Koster1996)
		if !rejected && (best == foundNone || semantics.Priority(m.sem, kind, end-start) > bestPrio) {
			pat := rulePattern(m.sem, kind, start, end, text)
			match, w := automaton.MatchOne(text[pat.Start:pat.Start+uint32(pat.Len)], pat.Anchored, p)
			if match {
				best, bestPrio = order, pat.Priority
			}
			if work += w; work > budget { // matches count too: each may read p
				return 0, false
			}
		}
		// A rejected rule's directory pattern, a prefix of it, is
		// rejected too when it holds the byte that differs; else it is a
		// prefix of p, which it matches (anchored) only when p ends there.
		if dirs && kind == compile.Allow && (!rejected || k == len(p) && strings.IndexByte(text[start+k:end], '/') < 0) {
			if dir, ok := semantics.IndexHTM(m.sem, kind, text[start:end]); ok {
				prio := semantics.Priority(m.sem, compile.Allow, len(dir)+1)
				if best == foundNone || prio > bestPrio {
					match, w := automaton.MatchOne(dir, true, p)
					if match {
						best, bestPrio = order|foundIndexHTM, prio
					}
					if work += w; work > budget {
						return 0, false
					}
				}
			}
		}
	}
	return best, true
}

// firstTryBytes bounds the bytes a matcher's first decision may search,
// as a multiple of its rules' text, when that is more than the automaton's
// try budget for the URL: building the automaton, which decides past the
// bound, reads that text several times over (its program, its index, its
// piece matcher), so a first URL whose tries read less costs less tried.
const firstTryBytes = 8

// prefixRejects reports whether the rule pattern pat (as written: a
// final '$' anchors when dollar) cannot match p because a byte of pat
// that is no wildcard, before any, differs from p's or stands past p's
// end. Most rules a first decision tries are rejected so, at their first
// bytes, before their priority is read or their pattern made. k is the
// length of the prefix pat and p share; pStar is the index of p's first
// '*' (len(p) if none), where pat may have a wildcard that matched it.
func prefixRejects(pat, p string, pStar int, dollar bool) (k int, rejected bool) {
	for k < len(pat) && k < len(p) && pat[k] == p[k] {
		k++
	}
	if k == len(pat) || pStar < k {
		return k, false
	}
	c := pat[k]
	return k, c != '*' && !(dollar && c == '$' && k == len(pat)-1)
}

// match returns the rule that decides p, canonical, as find does: by
// firstMatch for the matcher's first decision, by the automaton after it.
func (m *Matcher) match(p string) int {
	if m.sel.Rules.Len() == 0 {
		return foundNone
	}
	rs := m.rules.Load()
	if rs == nil && m.auto.warmUp >= 0 { // WarmUp < 0 starts the DFA at once
		// Goroutines deciding at once may all try: no harm.
		m.rules.CompareAndSwap(nil, tried)
		if found, ok := m.firstMatch(p); ok {
			return found
		}
	}
	if rs == nil || rs == tried {
		rs = m.compiled()
	}
	return rs.found(rs.set.Match(p))
}

// ruleOf returns the rule behind a result of find (a rule's order, with
// foundIndexHTM for its directory pattern), the reason it decides for,
// and the pattern it matches with (Google's index.htm allow: the
// directory and '$').
func (m *Matcher) ruleOf(found int) (compile.Rule, Reason, string) {
	rule := m.sel.Rules.At(found &^ foundIndexHTM)
	if found&foundIndexHTM != 0 {
		dir, _ := semantics.IndexHTM(m.sem, rule.Kind, rule.Pattern)
		return rule, ReasonIndexHTM, dir + "$"
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
func (m *Matcher) span(url string) (slash bool, path string) {
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
	if m.sel.Rules.Len() == 0 { // no rule: even /robots.txt is allowed
		return true
	}
	return m.allows(m.find(m.span(url)))
}

// allows reports whether a result of find allows: no rule, /robots.txt,
// or an allow rule.
func (m *Matcher) allows(found int) bool {
	if found < 0 {
		return true
	}
	return m.sel.Rules.Kind(found&^foundIndexHTM) == compile.Allow
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

// Results of find that are not a rule's order in sel.Rules.
const (
	foundNone      = automaton.NoMatch // no rule matched
	foundRobotsTxt = -2                // RFC9309: the path is /robots.txt
	// foundIndexHTM is set beside the order of the allow rule whose
	// index.htm directory pattern matched (Google semantics).
	foundIndexHTM = 1 << 30
)

// decision turns a result of find into a Decision.
func (m *Matcher) decision(found int) Decision {
	switch found {
	case foundNone:
		return Decision{Allowed: true, Reason: ReasonNoMatch}
	case foundRobotsTxt:
		return Decision{Allowed: true, Reason: ReasonRobotsTxt}
	}
	rule, reason, pattern := m.ruleOf(found)
	return Decision{
		Allowed: rule.Kind == compile.Allow,
		Rule:    Rule{Line: rule.Line, Kind: rule.Kind, Pattern: pattern, Value: rule.Value},
		Reason:  reason,
	}
}

// find is the decision pipeline, the one route every URL takes: it returns
// the rule that decides path ("/"+path when slash): its order in
// sel.Rules (with foundIndexHTM for its index.htm directory pattern),
// foundNone, or foundRobotsTxt.
//
//  1. RFC9309: a path that normalises to /robots.txt is always allowed.
//  2. Google matches the path as it is; the other semantics match its
//     canonical form, which is the path itself unless it holds a byte that
//     normalising rewrites.
//  3. Otherwise the path is written, normalised and with a '/' in front
//     when it lacks one, into a buffer (on the stack up to
//     decisionBufSize bytes), and that is matched.
func (m *Matcher) find(slash bool, path string) int {
	if m.sem == RFC9309 && isRobotsTxt(slash, path) {
		return foundRobotsTxt
	}
	if !slash && (m.sem == Google || compile.IsCanonicalPath(path, m.sem)) {
		return m.match(path)
	}
	return m.matchRewritten(slash, path)
}

// matchRewritten matches path written normalised, with a '/' in front
// when slash (rewrite).
func (m *Matcher) matchRewritten(slash bool, path string) int {
	var stack [decisionBufSize]byte
	p, pooled := m.rewrite(&stack, slash, path)
	// The matching reads p and keeps nothing of it.
	found := m.match(p)
	putPath(pooled)
	return found
}

// canonical returns path ("/"+path when slash) in the form the automaton
// matches: path itself when the semantics leaves it as it is, else
// rewrite's.
func (m *Matcher) canonical(stack *[decisionBufSize]byte, slash bool, path string) (string, *[]byte) {
	if !slash && (m.sem == Google || compile.IsCanonicalPath(path, m.sem)) {
		return path, nil
	}
	return m.rewrite(stack, slash, path)
}

// rewrite writes path normalised, with a '/' in front when slash, into
// stack when it surely fits, else into a buffer from pathPool, which it
// returns for putPath. The string is valid until then.
func (m *Matcher) rewrite(stack *[decisionBufSize]byte, slash bool, path string) (string, *[]byte) {
	need := 1 + len(path)
	if m.sem != Google {
		need = 1 + 3*len(path) // a byte's canonical form is at most three
	}
	buf := stack[:0]
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
	return unsafe.String(unsafe.SliceData(buf), len(buf)), pooled
}

// putPath gives rewrite's pooled buffer back (nil: none was taken).
func putPath(pooled *[]byte) {
	if pooled != nil {
		pathPool.Put(pooled)
	}
}

// Tokens returns the product tokens m was built for: the agents given to
// Robots.Matcher, each read as AgentTokens says (in RFC9309 and Koster1996
// a User-Agent header given as an agent is its product tokens).
func (m *Matcher) Tokens() []string { return append([]string(nil), m.tokens...) }

// IsFor reports whether m decides for the crawler that agents name: each
// read as AgentTokens says (as Robots.Matcher and CompileFor read them),
// they stand for m's tokens, in order, ignoring ASCII case. A holder of one
// crawler's matchers (fetch.Client with Options.Agents) asks it to refuse
// the questions of another crawler, which those matchers would answer
// wrongly. It allocates nothing when agents are the strings m was made
// for, or product tokens.
func (m *Matcher) IsFor(agents ...string) bool {
	given := m.given()
	if given == nil {
		given = m.tokens
	}
	if slices.Equal(agents, given) {
		return true
	}
	i := 0
	for _, a := range agents {
		if readsAsItself(m.sem, a) {
			if i == len(m.tokens) || !equalFoldASCII(a, m.tokens[i]) {
				return false
			}
			i++
			continue
		}
		var buf [MaxProductTokens]string
		for _, t := range AppendProductTokens(buf[:0], a) {
			if i == len(m.tokens) || !equalFoldASCII(t, m.tokens[i]) {
				return false
			}
			i++
		}
	}
	return i == len(m.tokens)
}

// Selection returns how the groups were selected and the merged rules, in
// file order. It is shared: callers must not modify it.
func (m *Matcher) Selection() Selection {
	if m.more == nil || m.more.origin == nil || len(m.sel.Groups) == 0 {
		return m.sel
	}
	sel := m.sel // a matcher of CompileFor: the indexes in the whole file
	sel.Groups = make([]int, len(m.sel.Groups))
	for i, g := range m.sel.Groups {
		sel.Groups[i] = m.more.origin[g]
	}
	return sel
}

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
		prio uint32
	}
	rs := make([]ranked, 0, m.sel.Rules.Len())
	for order := range m.sel.Rules.Len() {
		rule := m.sel.Rules.At(order)
		rs = append(rs, ranked{RankedRule{Rule: Rule{rule.Line, rule.Kind, rule.Pattern, rule.Value}}, semantics.Priority(m.sem, rule.Kind, len(rule.Pattern))})
		if dir, ok := semantics.IndexHTM(m.sem, rule.Kind, rule.Pattern); ok {
			rs = append(rs, ranked{RankedRule{Rule{rule.Line, compile.Allow, dir + "$", rule.Value}, true}, semantics.Priority(m.sem, compile.Allow, len(dir)+1)})
		}
	}
	sort.SliceStable(rs, func(a, b int) bool { return rs[a].prio > rs[b].prio })
	out := make([]RankedRule, len(rs))
	for i, r := range rs {
		out[i] = r.r
	}
	return out
}

// Bytes returns the memory m holds: its rule table and its automaton,
// states built so far included, and, for a matcher of CompileFor, the
// part of the file it kept (a Robots' matcher reads the Robots' file,
// which Robots.Bytes counts). It takes no lock.
func (m *Matcher) Bytes() int {
	n := sizeofMatcher
	if m.own != nil {
		n += m.own.Bytes()
	}
	if rs := m.rules.Load(); rs != nil && rs != tried {
		n += sizeofRuleSet + rs.set.Bytes() + 4*cap(rs.refs)
	}
	if m.more != nil {
		n += sizeofMatcherMore + 16*cap(m.more.given) + 8*cap(m.more.origin)
		if m.more.usage != nil {
			n += m.more.usage.bytes()
		}
	}
	return n + m.sel.Bytes()
}

// Stats describes a matcher's automaton and how its URLs were decided.
type Stats struct {
	Rules    int  // merged rules
	Patterns int  // automaton patterns (the rules, and Google's index.htm directory patterns)
	DFA      bool // the automaton's DFA has started (after the first URLs: Options.WarmUp)
	States   int  // DFA states built so far
	Classes  int  // DFA byte classes
	Bytes    int  // memory of the automaton: its patterns (offsets into the file's text), its index, its piece matcher and its DFA once built
	// Clears is the number of times the DFA's full cache of states was
	// emptied, GiveUps the number of URLs on which the DFA gave up (their
	// states cost more than its budget), and Pieces the number of URLs its
	// piece matcher decided (those, and the URLs that too many rules with
	// '*' could match): see package automaton.
	Clears, GiveUps, Pieces int64
}

// Stats returns the size of m's automaton, states built so far included:
// all zero but Rules before the matcher's second decision, which builds
// it (its first tries the rules in turn).
func (m *Matcher) Stats() Stats {
	rs := m.rules.Load()
	if rs == nil || rs == tried {
		return Stats{Rules: m.sel.Rules.Len()}
	}
	st := rs.set.Stats()
	return Stats{Rules: m.sel.Rules.Len(), Patterns: st.Patterns, DFA: st.DFA, States: st.States, Classes: st.Classes,
		Bytes: st.Bytes, Clears: st.Clears, GiveUps: st.GiveUps, Pieces: st.Pieces}
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
			b.WriteString(": " + strconv.Itoa(n) + plural.Of(n, " group", " groups"))
		}
	}
	b.WriteString(", " + strconv.Itoa(m.sel.Rules.Len()) + plural.Of(m.sel.Rules.Len(), " rule", " rules"))
	b.WriteString(", " + strconv.Itoa(m.Bytes()) + " bytes}")
	return b.String()
}

// Dump returns the whole of m for people, over many lines (hundreds for a
// large file; String is the one-line form): the semantics, the tokens, how
// the groups were selected, the merged rules in priority order (the first
// that matches a URL decides it), the content-usage lines if any, and the automaton with the states built so
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
	if us := m.UsageRules(); us != nil {
		b.WriteString("content-usage lines in file order (the longest matching path decides):\n")
		for _, u := range us {
			path := u.Pattern
			if path == "" {
				path = "(every path)"
			}
			fmt.Fprintf(&b, "  line %d: %s %s\n", u.Line, path, u.Statement)
		}
	}
	b.WriteString("automaton (the states built so far, by the URLs decided so far):\n")
	b.WriteString(m.compiled().set.String())
	return b.String()
}
