package engine

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dunglas/httpsfv"

	"github.com/seed-275a9bd5/robotstxt/automaton"
	"github.com/seed-275a9bd5/robotstxt/compile"
)

// Usage preferences (docs/SEMANTICS.md section 7): the IETF AI Preferences
// drafts draft-ietf-aipref-attach-05 (a Content-Usage rule in robots.txt,
// a Content-Usage HTTP header) and draft-ietf-aipref-vocab (the
// categories, the statement syntax and how statements combine).
//
// A matcher whose groups have content-usage lines keeps, for each
// category asked, an automaton of their path patterns, each pattern's
// priority its length then the preference its statement gives that
// category (n above y above unknown): the best match is the longest
// pattern and, of the longest, the most restrictive preference, which is
// the vocabulary's combination of statements that tie (vocab section
// 5.1). The statements are parsed by the matcher's first Usage (both
// categories in one pass) or first UsageOf of a key, never per decision:
// a crawler that never asks pays nothing for them.

// Preference is what a site prefers for one category of use of a URL's
// content. The zero value is UsageUnknown.
type Preference uint8

const (
	// UsageUnknown: no statement that applies says y or n for the
	// category (no content-usage line matches, the deciding statement
	// does not name it, gives it another value, or is not a Dictionary).
	UsageUnknown Preference = iota
	// UsageAllowed: the statement gives the category the Token y.
	UsageAllowed
	// UsageDisallowed: the statement gives the category the Token n.
	UsageDisallowed
	// UsageNotApplicable: the URL may not be fetched, so no preference
	// applies to it (draft-ietf-aipref-attach section 3.1).
	UsageNotApplicable
)

var preferenceNames = [...]string{"unknown", "y", "n", "-"}

// String returns "y", "n", "unknown", or "-" for UsageNotApplicable, as
// the check command prints them.
func (p Preference) String() string {
	if int(p) < len(preferenceNames) {
		return preferenceNames[p]
	}
	return "Preference(?)"
}

// CombinePreferences returns the most restrictive of a and b, the
// vocabulary's rule for statements of one category that come from
// several places (draft-ietf-aipref-vocab section 5.1): n if either is n,
// else y if either is y, else unknown. UsageNotApplicable, a URL that may
// not be fetched, stays so.
func CombinePreferences(a, b Preference) Preference {
	if a == UsageNotApplicable || b == UsageNotApplicable {
		return UsageNotApplicable
	}
	return max(a, b) // unknown < y < n
}

// The vocabulary's categories (draft-ietf-aipref-vocab section 4), in its
// order: the keys of a statement's Dictionary.
const (
	CategoryTrainAI = "train-ai" // AI model training
	CategorySearch  = "search"   // search
)

// Usage is what a site's robots.txt prefers for the use of one URL's
// content, for each category of the vocabulary. Both preferences are
// UsageNotApplicable when the URL may not be fetched.
type Usage struct {
	TrainAI, Search Preference
	// TrainAILine and SearchLine are the content-usage lines that decided
	// each (of the longest matching patterns, the most restrictive, then
	// the first in file order); 0 when no line matched.
	TrainAILine, SearchLine int
}

// notApplicable is the Usage of a URL that may not be fetched.
var notApplicable = Usage{TrainAI: UsageNotApplicable, Search: UsageNotApplicable}

// Applicable reports whether the URL may be fetched, so that preferences
// apply to it.
func (u Usage) Applicable() bool { return u.TrainAI != UsageNotApplicable }

// String returns u as the check command prints it: "-" for a URL that
// may not be fetched, else "train-ai=X search=Y", X and Y each y, n or
// unknown.
func (u Usage) String() string { return string(u.AppendText(nil)) }

// AppendText appends String's text to b without allocating (when b has
// room), for a writer of many lines.
func (u Usage) AppendText(b []byte) []byte {
	if !u.Applicable() {
		return append(b, '-')
	}
	b = append(append(append(b, CategoryTrainAI+"="...), u.TrainAI.String()...), " "+CategorySearch+"="...)
	return append(b, u.Search.String()...)
}

// WithHeader returns u combined with a response's Content-Usage header
// (its field lines, as http.Header.Values returns them), the most
// restrictive per category (draft-ietf-aipref-vocab section 5.1). A header
// that is not a Dictionary states nothing. The lines stay robots.txt's.
func (u Usage) WithHeader(values ...string) Usage {
	if !u.Applicable() || len(values) == 0 {
		return u
	}
	d, ok := parseStatement(values...)
	if !ok {
		return u
	}
	u.TrainAI = CombinePreferences(u.TrainAI, preferenceOf(d, CategoryTrainAI))
	u.Search = CombinePreferences(u.Search, preferenceOf(d, CategorySearch))
	return u
}

// StatementPreference returns what a statement of preference, such as a
// Content-Usage header's value, says of the category key: UsageAllowed for
// the Token y, UsageDisallowed for n, else UsageUnknown, also when the
// statement is not an RFC 9651 Dictionary (draft-ietf-aipref-vocab
// section 6.5). Several values are the field lines of one field.
func StatementPreference(key string, values ...string) Preference {
	d, ok := parseStatement(values...)
	if !ok {
		return UsageUnknown
	}
	return preferenceOf(d, key)
}

// parseStatement parses a statement as an RFC 9651 Dictionary: keys are
// case-sensitive, a repeated key keeps its last value.
func parseStatement(values ...string) (*httpsfv.Dictionary, bool) {
	d, err := httpsfv.UnmarshalDictionary(values)
	return d, err == nil
}

// preferenceOf returns the preference d gives key: its value, parameters
// ignored, the Token y or n (draft-ietf-aipref-vocab section 6.5).
func preferenceOf(d *httpsfv.Dictionary, key string) Preference {
	m, ok := d.Get(key)
	if !ok {
		return UsageUnknown
	}
	it, ok := m.(httpsfv.Item)
	if !ok {
		return UsageUnknown
	}
	switch it.Value {
	case httpsfv.Token("y"):
		return UsageAllowed
	case httpsfv.Token("n"):
		return UsageDisallowed
	}
	return UsageUnknown
}

// maxKeySets bounds the extension categories (UsageOf's keys other than
// the vocabulary's) whose automata a matcher keeps; a key asked after
// them is decided by an automaton made for the call.
const maxKeySets = 8

// usageMatcher decides a matcher's usage preferences: its groups'
// content-usage lines, and an automaton of their patterns for each
// category asked, built when first asked (a crawler that never asks for
// usage parses no statement). It keeps no parsed statement: each build
// parses the statements it needs.
type usageMatcher struct {
	rules compile.Usages
	opts  automaton.Options

	mu sync.Mutex // serialises building automata
	// vocab holds the vocabulary's categories' automata, built together
	// by the first Usage.
	vocab atomic.Pointer[[2]*automaton.Set]
	keys  atomic.Pointer[[]keySet]
}

// keySet is an extension category's automaton.
type keySet struct {
	key string
	set *automaton.Set
}

// vocabulary returns the automata of the vocabulary's categories, train-ai
// then search, building both in one pass over the statements on first
// use.
func (u *usageMatcher) vocabulary(sem Semantics) *[2]*automaton.Set {
	if v := u.vocab.Load(); v != nil {
		return v
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if v := u.vocab.Load(); v != nil {
		return v
	}
	sets := u.build(sem, CategoryTrainAI, CategorySearch)
	v := &[2]*automaton.Set{sets[0], sets[1]}
	u.vocab.Store(v)
	return v
}

// build returns the automata of the categories keys, in their order,
// parsing each statement once for all of them.
func (u *usageMatcher) build(sem Semantics, keys ...string) []*automaton.Set {
	pats := make([][]automaton.Pattern, len(keys))
	for k := range keys {
		pats[k] = make([]automaton.Pattern, u.rules.Len())
	}
	for i := range u.rules.Len() {
		d, ok := parseStatement(u.rules.Statement(i))
		for k, key := range keys {
			pats[k][i] = usagePattern(sem, u.rules, i, d, ok, key)
		}
	}
	sets := make([]*automaton.Set, len(keys))
	for k := range keys {
		sets[k] = automaton.Compile(u.rules.Text(), pats[k], u.opts)
	}
	return sets
}

// usagePattern returns the automaton pattern of the i-th line for the
// category key: its path's pattern, ranked by the pattern's length in
// bytes (with '*' and '$') then by the preference the line's statement d
// (ok: it parsed) gives key, n above y above unknown; that preference is
// its tag.
func usagePattern(sem Semantics, rules compile.Usages, i int, d *httpsfv.Dictionary, ok bool, key string) automaton.Pattern {
	start, end := rules.PatternSpan(i)
	pref := UsageUnknown
	if ok {
		pref = preferenceOf(d, key)
	}
	p := patternOf(sem, rules.Text(), start, end, uint32(end-start)*3+uint32(pref))
	p.Tag = uint8(pref)
	return p
}

// set returns the automaton of the category key, building it on first
// use.
func (u *usageMatcher) set(sem Semantics, key string) *automaton.Set {
	switch key {
	case CategoryTrainAI:
		return u.vocabulary(sem)[0]
	case CategorySearch:
		return u.vocabulary(sem)[1]
	}
	if ks := u.keys.Load(); ks != nil {
		for _, k := range *ks {
			if k.key == key {
				return k.set
			}
		}
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	var old []keySet
	if ks := u.keys.Load(); ks != nil {
		old = *ks
		for _, k := range old {
			if k.key == key {
				return k.set
			}
		}
	}
	s := u.build(sem, key)[0]
	if len(old) < maxKeySets {
		next := append(append(make([]keySet, 0, len(old)+1), old...), keySet{strings.Clone(key), s})
		u.keys.Store(&next)
	}
	return s
}

// preference returns what the automaton s decides for path and the line
// that decided, from the pattern index i that it matched.
func (u *usageMatcher) preference(s *automaton.Set, i int) (Preference, int) {
	if i < 0 {
		return UsageUnknown, 0
	}
	return Preference(s.Tag(i)), u.rules.Line(i)
}

// sizeofUsageMatcher is the size of a usageMatcher and sizeofVocab of its
// vocab's array (TestSizes checks both).
const (
	sizeofUsageMatcher = 56
	sizeofVocab        = 16
)

// bytes returns the memory u holds: its automata built so far.
func (u *usageMatcher) bytes() int {
	n := sizeofUsageMatcher
	if v := u.vocab.Load(); v != nil {
		n += sizeofVocab
		for _, s := range v {
			n += s.Bytes()
		}
	}
	if ks := u.keys.Load(); ks != nil {
		for _, k := range *ks {
			n += len(k.key) + k.set.Bytes()
		}
	}
	return n
}

// Usage returns the usage preferences of url's content for the crawler,
// from the content-usage lines of the groups its rules come from: for
// each category of the vocabulary, the preference of the longest
// content-usage pattern that matches url's path (several of that length
// combine, the most restrictive winning), and the line that decided;
// UsageNotApplicable for both when url may not be fetched. A file with
// no content-usage line for the crawler gives UsageUnknown. url is read
// as Decide reads it.
//
// It allocates nothing once the automata's states the URL visits exist,
// and costs a decision's time for each category, linear in url's bytes.
func (m *Matcher) Usage(url string) Usage {
	slash, path := m.span(url)
	return m.usage(slash, path)
}

// UsagePath is Usage for an already-extracted path, read as DecidePath
// reads it.
func (m *Matcher) UsagePath(path string) Usage {
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path = path[:i]
	}
	return m.usage(path == "" || path[0] != '/', path)
}

func (m *Matcher) usage(slash bool, path string) Usage {
	if m.fixed != 0 || m.more == nil || m.more.usage == nil {
		if !m.allowedAt(slash, path) {
			return notApplicable
		}
		return Usage{}
	}
	// The path is brought to its canonical form once, for the decision
	// and both categories.
	var stack [decisionBufSize]byte
	p, pooled := m.canonical(&stack, slash, path)
	defer putPath(pooled)
	if !m.allows(m.findCanonical(p)) {
		return notApplicable
	}
	u := m.more.usage
	v := u.vocabulary(m.sem)
	var out Usage
	out.TrainAI, out.TrainAILine = u.preference(v[0], v[0].Match(p))
	out.Search, out.SearchLine = u.preference(v[1], v[1].Match(p))
	return out
}

// UsageOf returns the preference for url's content of the category key,
// any Dictionary key (an extension category, or one of the vocabulary's),
// and the content-usage line that decided it (0 when none did), as Usage
// decides the vocabulary's. Keys are case-sensitive. The automata of the
// first few extension keys asked are kept; a key asked after them costs
// an automaton made for the call.
func (m *Matcher) UsageOf(url, key string) (Preference, int) {
	slash, path := m.span(url)
	if m.fixed != 0 || m.more == nil || m.more.usage == nil {
		if !m.allowedAt(slash, path) {
			return UsageNotApplicable, 0
		}
		return UsageUnknown, 0
	}
	var stack [decisionBufSize]byte
	p, pooled := m.canonical(&stack, slash, path)
	defer putPath(pooled)
	if !m.allows(m.findCanonical(p)) {
		return UsageNotApplicable, 0
	}
	u := m.more.usage
	s := u.set(m.sem, key)
	return u.preference(s, s.Match(p))
}

// UsageRules returns the content-usage lines of m's groups, merged in
// file order; nil when there are none. It allocates.
func (m *Matcher) UsageRules() []UsageRule {
	if m.more == nil || m.more.usage == nil {
		return nil
	}
	return m.more.usage.rules.Slice()
}

// allowedAt reports whether the path that span returned may be fetched.
func (m *Matcher) allowedAt(slash bool, path string) bool {
	if m.fixed != 0 {
		return m.fixed == ReasonAllowAll
	}
	return m.allows(m.find(slash, path))
}

// findCanonical is find for a path in canonical form (canonical's): in
// RFC9309 a path that normalises to /robots.txt is that path.
func (m *Matcher) findCanonical(p string) int {
	if m.sem == RFC9309 && p == "/robots.txt" {
		return foundRobotsTxt
	}
	return m.match(p)
}

// Usage returns the usage preferences of url's content for the crawler
// with product token agent: r.Matcher(agent).Usage(url).
func (r *Robots) Usage(agent, url string) Usage {
	return r.Matcher(agent).Usage(url)
}
