package fuzz

import (
	"sort"
	"strings"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// Reasons a Result gives for its decision.
const (
	ReasonRule      = "rule"       // a rule of the file decided
	ReasonNoMatch   = "no-match"   // no rule matched: allowed
	ReasonRobotsTxt = "robots.txt" // RFC9309: /robots.txt is always allowed
	ReasonIndexHTM  = "index.htm"  // Google: an allow rule ending in /index.htm* allowed its directory
)

// Result is the reference matcher's decision for one URL.
type Result struct {
	Allowed bool
	// Line is the deciding rule's line; 0 when no rule decided.
	Line int
	// Kind is the kind of the deciding rule; compile.NoRule when Line is 0.
	Kind compile.RuleKind
	// Pattern is the normalised pattern of the deciding rule ("" when none).
	// For ReasonIndexHTM it is the synthetic pattern ("/d/$").
	Pattern string
	// Reason is one of ReasonRule, ReasonNoMatch, ReasonRobotsTxt, ReasonIndexHTM.
	Reason string
}

// Decide parses body for sem and decides rawURL for a crawler with the given
// product tokens. It is the reference: slow, naive, obviously correct.
func Decide(body []byte, agents []string, rawURL string, sem compile.Semantics) Result {
	f := compile.Parse(body, compile.Options{Semantics: sem})
	return DecideFile(f, agents, rawURL)
}

// DecideFile is Decide on an already parsed file; the semantics are the file's.
func DecideFile(f *compile.File, agents []string, rawURL string) Result {
	return DecidePath(f, agents, compile.URLPath(rawURL, f.Semantics))
}

// DecidePath is DecideFile for a path that was already extracted from its URL
// and normalised for f.Semantics (as compile.URLPath returns it).
func DecidePath(f *compile.File, agents []string, path string) Result {
	rules := selectRules(f, agents)
	switch f.Semantics {
	case compile.Koster1996:
		return firstMatch(rules, path)
	case compile.Google:
		return longestMatch(withIndexHTM(rules), path)
	default: // RFC9309
		if path == "/robots.txt" {
			return Result{Allowed: true, Reason: ReasonRobotsTxt}
		}
		return longestMatch(asCandidates(rules), path)
	}
}

// selectRules returns the rules that apply to a crawler with the given product
// tokens, merged, in file order (docs/SEMANTICS.md sections 2.3 and 2.4): every
// group naming one of the valid tokens; if there is none, every "*" group; if
// there is none either, no rules.
func selectRules(f *compile.File, agents []string) []compile.Rule {
	var specific, global []compile.Rule
	foundSpecific := false
	for _, g := range f.Groups {
		if namesAnyAgent(g, agents) {
			foundSpecific = true
			specific = append(specific, g.Rules...)
		}
		if isGlobalGroup(g) {
			global = append(global, g.Rules...)
		}
	}
	rules := global
	if foundSpecific {
		rules = specific
	}
	// File order across merged groups (it already is, if the groups are in
	// file order; the sort says what the order means).
	sort.SliceStable(rules, func(i, j int) bool { return rules[i].Line < rules[j].Line })
	return rules
}

// namesAnyAgent reports whether one of g's user-agent lines names one of the
// agents that is a valid product token, ignoring case.
func namesAnyAgent(g compile.Group, agents []string) bool {
	for _, a := range g.Agents {
		for _, agent := range agents {
			if isProductToken(agent) && strings.EqualFold(a.Name, agent) {
				return true
			}
		}
	}
	return false
}

// isGlobalGroup reports whether one of g's user-agent lines is "*".
func isGlobalGroup(g compile.Group) bool {
	for _, a := range g.Agents {
		if a.Name == "*" {
			return true
		}
	}
	return false
}

// isProductToken reports whether tok is one or more of [A-Za-z_-]. It is
// written here again (not compile.ValidToken) so that the oracle shares no
// selection code with compile.
func isProductToken(tok string) bool {
	if tok == "" {
		return false
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// candidate is a rule as the longest-match priority sees it: a real rule, or
// Google's synthetic "directory$" allow of an index.htm rule.
type candidate struct {
	rule      compile.Rule
	synthetic bool
}

// asCandidates returns the rules as candidates, nothing added.
func asCandidates(rules []compile.Rule) []candidate {
	var out []candidate
	for _, r := range rules {
		out = append(out, candidate{rule: r})
	}
	return out
}

// withIndexHTM returns the rules as candidates and, for Google, adds after
// each allow rule whose last "/"-segment starts with "/index.htm" the
// synthetic allow "<pattern up to and including that slash>$" on the same
// line (docs/SEMANTICS.md section 4.3).
func withIndexHTM(rules []compile.Rule) []candidate {
	var out []candidate
	for _, r := range rules {
		out = append(out, candidate{rule: r})
		if r.Kind != compile.Allow {
			continue
		}
		slash := strings.LastIndexByte(r.Pattern, '/')
		if slash < 0 || !strings.HasPrefix(r.Pattern[slash:], "/index.htm") {
			continue
		}
		syn := r
		syn.Pattern = r.Pattern[:slash+1] + "$"
		out = append(out, candidate{rule: syn, synthetic: true})
	}
	return out
}

// longestMatch decides by the RFC9309/Google priority: among the matching
// candidates, the longest pattern in bytes wins; on equal length
// an allow beats a disallow; among equal (length, kind) the earliest line is
// reported. No match: allowed.
func longestMatch(cands []candidate, path string) Result {
	var best *candidate
	for i := range cands {
		c := &cands[i]
		if !Match(c.rule.Pattern, path) {
			continue
		}
		if best == nil || beats(c, best) {
			best = c
		}
	}
	if best == nil {
		return Result{Allowed: true, Reason: ReasonNoMatch}
	}
	reason := ReasonRule
	if best.synthetic {
		reason = ReasonIndexHTM
	}
	return Result{
		Allowed: best.rule.Kind == compile.Allow,
		Line:    best.rule.Line,
		Kind:    best.rule.Kind,
		Pattern: best.rule.Pattern,
		Reason:  reason,
	}
}

// beats reports whether c has a higher priority than best: longer pattern;
// then allow over disallow; then earlier line; then a real rule over a
// synthetic one.
func beats(c, best *candidate) bool {
	lc, lb := len(c.rule.Pattern), len(best.rule.Pattern)
	if lc != lb {
		return lc > lb
	}
	if c.rule.Kind != best.rule.Kind {
		return c.rule.Kind == compile.Allow
	}
	if c.rule.Line != best.rule.Line {
		return c.rule.Line < best.rule.Line
	}
	return !c.synthetic && best.synthetic
}

// firstMatch decides by the Koster1996 priority: the first rule in file
// order whose pattern is a prefix of the path decides ('*' and '$' are
// ordinary characters there). No match: allowed.
func firstMatch(rules []compile.Rule, path string) Result {
	for _, r := range rules {
		if strings.HasPrefix(path, r.Pattern) {
			return Result{
				Allowed: r.Kind == compile.Allow,
				Line:    r.Line,
				Kind:    r.Kind,
				Pattern: r.Pattern,
				Reason:  ReasonRule,
			}
		}
	}
	return Result{Allowed: true, Reason: ReasonNoMatch}
}

// Match reports whether pattern matches path the way RFC9309 and Google read
// patterns: anchored at the start of path; '*' matches any run of bytes
// (also none, also '/'); a '$' that is the LAST byte of pattern anchors the
// end of path; any other '$' is an ordinary byte; without a final '$' the
// pattern only has to match a prefix of path. The empty pattern matches
// every path.
//
// A pattern without '*' is compared directly (prefix, or equality when
// anchored). Otherwise Match fills a dynamic-programming table row by row,
// so it takes O(len(pattern)*len(path)) time and O(len(path)) space whatever
// the input: no regexp, no backtracking.
func Match(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	if !strings.Contains(pattern, "*") {
		if anchored {
			return path == pattern
		}
		return strings.HasPrefix(path, pattern)
	}
	// row[j] reports whether the pattern bytes seen so far match all of
	// path[:j]. Before any pattern byte only the empty prefix is matched.
	row := make([]bool, len(path)+1)
	next := make([]bool, len(path)+1)
	row[0] = true
	for i := 0; i < len(pattern); i++ {
		p := pattern[i]
		for j := 0; j <= len(path); j++ {
			if p == '*' {
				// '*' matches nothing (row[j]) or one more byte (next[j-1]).
				next[j] = row[j] || (j > 0 && next[j-1])
			} else {
				next[j] = j > 0 && row[j-1] && path[j-1] == p
			}
		}
		row, next = next, row
	}
	if anchored {
		return row[len(path)]
	}
	for _, ok := range row {
		if ok {
			return true
		}
	}
	return false
}
