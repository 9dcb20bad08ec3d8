// Package lint finds what in a robots.txt does not do what its author
// probably meant, beyond what the parser reports: rules that can never match
// or never decide, user-agent lines that an unrelated line silently joined
// into one group, a crawler's group that drops every rule of the "*" group,
// extension values crawlers cannot read, and content-usage lines (the IETF
// AI Preferences drafts draft-ietf-aipref-attach and
// draft-ietf-aipref-vocab) whose statements state less than they seem to,
// that belong to no group, or that tie and conflict.
//
// Check reads a parsed compile.File (plain data, no body) and returns its
// findings sorted by line; Report merges them with the parser's diagnostics
// and the file's warnings, and ReportBody, given the body, also tells
// whether a cut at the size limit dropped any rule, as the robotstxt lint
// command prints them. Check reads only what the parser kept (the groups
// with their empty rule lines, the lines that joined user-agent lines),
// and merges a crawler's groups as File.Select does,
// asking compile.Agent.Names which lines name it. Every finding is exact for
// the file's semantics, except replaces-global and usage-conflict, which
// are about intent and say so. Check runs in time about linear in the size
// of the file.
package lint

import (
	"sort"
	"strconv"
	"strings"

	"github.com/dunglas/httpsfv"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/semantics"
)

// Kind names what a Finding is about. The kinds of the parser's
// diagnostics (compile.DiagKind.String: unknown-key, typo, ...) are kinds
// too, in Report.
type Kind string

const (
	// MissingSlash: a rule whose pattern starts with neither '/' nor '*'
	// ("Disallow: private", "Disallow: https://example.com/x"). Every path
	// that is matched starts with '/', so the rule matches no URL. (In
	// Koster1996 a leading '*' is an ordinary character: it matches no URL
	// either.)
	MissingSlash Kind = "missing-slash"

	// DuplicateRule: a rule that is exactly an earlier rule of the same
	// crawler's merged groups (same kind, same normalised pattern). The
	// earlier line is the one that decides; this one never does.
	DuplicateRule Kind = "duplicate-rule"

	// ShadowedRule: a rule that can never decide, because for every URL it
	// matches another rule of the same merged groups also matches and wins.
	// Check reports it only when that is certain:
	//
	//   - RFC9309 and Google: the other rule matches the same URLs, written
	//     differently (trailing '*'s, a "*$" end: "/a", "/a*" and "/a*$" are
	//     one set) and wins by priority (longer pattern; on equal length
	//     allow; then the earlier line); or the other rule is a literal
	//     prefix (with trailing '*'s), every URL of this rule starts with
	//     it, and its pattern is at least as long ("Allow: /a**" beats
	//     "Disallow: /ab" everywhere). A shorter prefix never shadows: the
	//     longer pattern wins.
	//   - Koster1996: an earlier rule's pattern is a prefix of this one's:
	//     the first match decides.
	//
	// With several user-agent lines a group's rules apply to each of their
	// crawlers, merged with that crawler's other groups; a rule is reported
	// only when it can decide nothing for any of them. Google's index.htm
	// allow rules are never reported (their directory rule may decide).
	ShadowedRule Kind = "shadowed-rule"

	// JoinedGroup: user-agent lines separated by a sitemap, an extension
	// (crawl-delay, host, an unknown key) or an unreadable line. Such lines
	// do not end a group (a user-agent line opens a new group only after an
	// allow or disallow line), so the earlier crawler gets the rules that
	// follow the later line, which is rarely what was meant ("User-agent:
	// a / Crawl-delay: 5 / User-agent: b / Disallow: /" disallows
	// everything for a). The parser records those lines
	// (compile.File.Joins); Check reports the first of each group.
	JoinedGroup Kind = "joined-group"

	// ReplacesGlobal: a crawler's groups have no allow or disallow line at
	// all, only extension lines (a crawl-delay, say), while the "*" group
	// has disallow rules. A specific group replaces "*" entirely, so that
	// crawler may fetch everything "*" disallows; an author who only meant
	// to add a crawl-delay usually did not mean that. This is about intent:
	// a group with rules of its own, or with an empty "Disallow:" (the
	// usual "allow everything", which the parser keeps as
	// compile.Group.EmptyRuleLine), is taken as deliberate.
	ReplacesGlobal Kind = "replaces-global"

	// InvalidValue: a request-rate, visit-time, host, clean-param or
	// content-signal value that crawlers cannot read (see engine's
	// ParseExtensions). The parser reports a crawl-delay that is no number
	// with the same kind.
	InvalidValue Kind = "invalid-value"

	// UsageSyntax: a content-usage statement that is not an RFC 9651
	// Dictionary ("train-ai=n search=y", members not separated by commas;
	// "*.pdf train-ai=n", a path that does not start with '/', so the
	// whole value is the statement), or no statement at all (a path
	// alone). Such a line states no preference: every category is unknown
	// for the paths it decides, and it still hides the statements of
	// shorter patterns (draft-ietf-aipref-vocab, Processing Algorithm).
	UsageSyntax Kind = "usage-syntax"

	// UsageKeyCase: a content-usage statement that is no Dictionary only
	// because a key has upper-case letters ("Train-AI=n"). RFC 9651 keys
	// are lower case, so the whole statement fails to parse and every
	// category is unknown (draft-ietf-aipref-vocab, Multiple
	// Preferences). Reported in place of UsageSyntax.
	UsageKeyCase Kind = "usage-key-case"

	// UsageValue: a category of the vocabulary (train-ai, search) whose
	// value in a statement is not the Token y or n: "train-ai=yes",
	// "train-ai=N" (Tokens are case-sensitive), train-ai="n" (a
	// String), "train-ai" alone (the Boolean true), a number, an inner
	// list. The category is unknown for the paths the line decides
	// (draft-ietf-aipref-vocab, Preference Labels).
	UsageValue Kind = "usage-value"

	// UsageOutsideGroup: a content-usage line that belongs to no group
	// (before any user-agent line, or in Koster1996 after a blank line
	// ended the record), so its preferences apply to no crawler. The
	// parser reports it as a rule-outside-group diagnostic; Report
	// reports that diagnostic under this kind, also in a file with no
	// user-agent line at all (whose no-user-agent warning is about crawl
	// rules only). Check does not report it.
	UsageOutsideGroup Kind = "usage-outside-group"

	// UsageConflict: two content-usage lines of one crawler's merged
	// groups with the same normalised pattern (or both without a path)
	// whose statements give one category y and n. They tie, and the most
	// restrictive wins: the category is n (draft-ietf-aipref-attach,
	// Content-Usage Rule Semantics; draft-ietf-aipref-vocab, Combining
	// Preferences), unlike allow and disallow, where allow wins a tie.
	// Reported at the later line, naming the earlier. This is about
	// intent: the author may have meant the later line to override.
	UsageConflict Kind = "usage-conflict"
)

// Finding is one thing lint found.
type Finding struct {
	Line    int    `json:"line"` // 1-based
	Kind    Kind   `json:"kind"`
	Message string `json:"message"` // a short explanation, with what to do
}

func (f Finding) String() string {
	return "line " + strconv.Itoa(f.Line) + ": " + string(f.Kind) + ": " + f.Message
}

// maxPadChecked bounds the trailing '*'s (plus a "*$" end) a prefix rule
// may have for Check to look for the longer rules it shadows (see
// ShadowedRule): each rule costs that many map look-ups. Real files pad with
// one '*'; a rule padded with more still shadows its equals, and only the
// rules it shadows by more than maxPadChecked bytes go unreported (a missed
// finding, never a false one).
const maxPadChecked = 8

// Check returns the findings of f, sorted by line (stable: in the order
// the kinds are listed above on one line). It does not repeat the parser's
// diagnostics (f.Diagnostics); Report merges both.
func Check(f *compile.File) []Finding {
	c := checker{f: f, dead: map[ruleID]bool{}}
	c.missingSlash()
	c.shadowed()
	c.joinedGroups()
	c.replacesGlobal()
	c.invalidValues()
	c.usageStatements()
	c.usageConflicts()
	sort.SliceStable(c.out, func(i, j int) bool { return c.out[i].Line < c.out[j].Line })
	return c.out
}

// Report returns the file's warnings, the parser's diagnostics of f (parsed
// with compile.Options.Diagnostics; a File parsed without them has none) and
// the findings of Check, merged by line (on one line: warnings, then
// diagnostics, then findings), as the robotstxt lint command prints them. A
// diagnostic's Kind is its compile.DiagKind name, a warning's its
// compile.WarningKind name (utf16, binary, html-page, ...).
//
// A problem of the whole file is reported once, by its warning, in place of
// the per-line diagnostics that are its symptoms:
//
//   - a file that is no robots.txt at all (utf16, binary, html-page,
//     json-document): every diagnostic of a line that was not read as a
//     user-agent, allow, disallow or sitemap line, and every not-utf8 and
//     html diagnostic;
//   - mostly-not-utf8: every not-utf8 diagnostic;
//   - no-user-agent: every rule-outside-group diagnostic but those of
//     content-usage lines, which are about preferences, not crawling;
//   - truncated: the parser's truncated diagnostic, at the same line.
//
// So a UTF-16 file is one finding, not one per line, and an HTML page one,
// not one per tag. The rule-outside-group diagnostic of a content-usage
// line is reported as a UsageOutsideGroup finding.
//
// Report does not see past the size limit, so it reports the truncated
// warning of every file that was cut; ReportBody, given the body, only of
// a cut that drops a rule.
func Report(f *compile.File) []Finding { return report(f, true) }

// ReportBody is Report for the body f was parsed from, which tells whether
// the cut of a file longer than the size limit matters. The truncated
// warning is reported only when the cut drops or shortens a user-agent,
// allow or disallow line (read as f's semantics reads one): a cut through
// the rest of an HTML page, or through comments, changes no decision and is
// no finding. body may be the start of the body only: what lies past it is
// taken to hold no rule. A body no longer than what f read says nothing
// past the limit, and the cut is reported as Report reports it.
func ReportBody(f *compile.File, body []byte) []Finding {
	return report(f, !f.Truncated || len(body) <= f.Size || cutDropsRules(f, body))
}

// report is Report, which leaves out the truncated warning and diagnostic
// when cutCounts is false.
func report(f *compile.File, cutCounts bool) []Finding {
	checked := Check(f)
	keep := symptomFilter(f)
	out := make([]Finding, 0, len(f.Warnings)+len(f.Diagnostics)+len(checked))
	for _, w := range f.Warnings {
		if w.Kind != compile.WarnTruncated || cutCounts {
			out = append(out, Finding{Line: w.Line, Kind: Kind(w.Kind.String()), Message: w.Message})
		}
	}
	for _, d := range f.Diagnostics {
		switch {
		case !keep(d) || d.Kind == compile.DiagTruncated && !cutCounts:
		case isUsageOutside(d):
			out = append(out, usageOutside(d))
		default:
			out = append(out, Finding{Line: d.Line, Kind: Kind(d.Kind.String()), Message: d.Message})
		}
	}
	out = append(out, checked...)
	// Stable: a line's warnings, diagnostics (in file order) and findings
	// keep that order.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// cutDropsRules reports whether the size limit, which cut body (the body f
// was parsed from, longer than the f.Size bytes read) after f.Size bytes,
// dropped or shortened a user-agent, allow or disallow line: whether the
// text from the start of the line the cut went through holds such a line,
// when parsed as if a group were open (as it may be at the cut).
func cutDropsRules(f *compile.File, body []byte) bool {
	start := f.Size // the first byte of the first line not read whole
	if body[start] != '\n' && body[start] != '\r' {
		// The cut went through a line, unless it fell right at its end.
		for start > 0 && body[start-1] != '\n' && body[start-1] != '\r' {
			start--
		}
	}
	const open = "user-agent: a\n" // the group the cut text's rules join
	text := make([]byte, 0, len(open)+len(body)-start)
	text = append(append(text, open...), body[start:]...)
	rest := compile.Parse(text, compile.Options{Semantics: f.Semantics, MaxFileSize: len(text)})
	lines := -1 // the rule and user-agent lines, but open's
	for _, g := range rest.Groups {
		lines += g.Agents.Len() + g.Rules.Len()
	}
	return lines > 0
}

// symptomFilter returns whether Report keeps a diagnostic of f, given f's
// warnings (see Report).
func symptomFilter(f *compile.File) func(compile.Diagnostic) bool {
	var notRobots, notUTF8, noAgent, truncated bool
	for _, w := range f.Warnings {
		switch w.Kind {
		case compile.WarnUTF16, compile.WarnBinary, compile.WarnHTML, compile.WarnJSON:
			notRobots = true
		case compile.WarnNotUTF8:
			notUTF8 = true
		case compile.WarnNoUserAgent:
			noAgent = true
		case compile.WarnTruncated:
			truncated = true
		}
	}
	var read map[int]bool // the lines read as user-agent, rule or sitemap lines
	if notRobots {
		read = map[int]bool{}
		for _, g := range f.Groups {
			for _, a := range g.Agents.Slice() {
				read[a.Line] = true
			}
			for _, r := range g.Rules.Slice() {
				read[r.Line] = true
			}
		}
		for _, sm := range f.Sitemaps.Slice() {
			read[sm.Line] = true
		}
	}
	return func(d compile.Diagnostic) bool {
		switch {
		case notRobots && (!read[d.Line] || d.Kind == compile.DiagNotUTF8 || d.Kind == compile.DiagHTML):
			return false
		case notUTF8 && d.Kind == compile.DiagNotUTF8,
			noAgent && d.Kind == compile.DiagRuleOutsideGroup && !isUsageOutside(d),
			truncated && d.Kind == compile.DiagTruncated:
			return false
		}
		return true
	}
}

// ruleID is a rule of the file: group and index in it.
type ruleID struct{ group, rule int }

type checker struct {
	f    *compile.File
	out  []Finding
	dead map[ruleID]bool // rules that match nothing (MissingSlash)
	// dicts are the statements of each group's content-usage lines,
	// parsed (nil: not a Dictionary), by usageStatements.
	dicts [][]*httpsfv.Dictionary
}

func (c *checker) add(line int, kind Kind, msg string) {
	c.out = append(c.out, Finding{Line: line, Kind: kind, Message: msg})
}

func (c *checker) rule(id ruleID) compile.Rule { return c.f.Groups[id.group].Rules.At(id.rule) }

func (c *checker) missingSlash() {
	koster := c.f.Semantics == compile.Koster1996
	for gi := range c.f.Groups {
		for ri, r := range c.f.Groups[gi].Rules.Slice() {
			p := r.Pattern
			if p[0] == '/' || p[0] == '*' && !koster {
				continue
			}
			c.dead[ruleID{gi, ri}] = true
			var msg string
			switch {
			case koster && r.Value[0] == '*':
				msg = "in Koster 1996 '*' is an ordinary character, and every path starts with '/': this rule matches no URL"
			case strings.HasPrefix(r.Value, "http://") || strings.HasPrefix(r.Value, "https://"):
				msg = "a full URL matches no path: write only its path, starting with '/'"
			case r.Value[0] == '.':
				msg = "the pattern does not start with '/' or '*', and every path starts with '/': this rule matches no URL; for files ending so, write /*" + r.Value
			default:
				msg = "the pattern does not start with '/' or '*', and every path starts with '/': this rule matches no URL; write /" + r.Value
			}
			c.add(r.Line, MissingSlash, msg)
		}
	}
}

// crawler returns the key under which Check indexes the crawler that a
// names, and whether a names one. Which lines name a crawler is
// compile.Agent.Names, the rule File.Select follows; the key is the
// crawler's product token in lower case, the same for every line that names
// it, as Names compares ASCII tokens ignoring case.
func crawler(a compile.Agent) (key string, ok bool) {
	key = strings.ToLower(a.Name)
	return key, a.Names(key)
}

// mergedGroups returns, for each crawler the file names (by its key, see
// crawler), the groups that apply to it, in file order: the groups
// File.Select(key) selects. Under "*" are the global groups, those
// File.Select selects for a crawler that no group names.
func (c *checker) mergedGroups() map[string][]int {
	byName := map[string][]int{}
	for gi := range c.f.Groups {
		g := &c.f.Groups[gi]
		if g.IsGlobal() {
			byName["*"] = append(byName["*"], gi)
		}
		for _, a := range g.Agents.Slice() {
			n, ok := crawler(a)
			if !ok {
				continue
			}
			if groups := byName[n]; len(groups) > 0 && groups[len(groups)-1] == gi {
				continue // another line of this group names it too
			}
			byName[n] = append(byName[n], gi)
		}
	}
	return byName
}

// shadow is why a rule never decides for one crawler name.
type shadow struct {
	by   ruleID
	name string
}

// shadowed reports the rules that never decide for any crawler whose
// merged groups hold them (see ShadowedRule and DuplicateRule).
func (c *checker) shadowed() {
	verdict := c.shadowVerdicts()
	for gi, g := range c.f.Groups {
		for ri, r := range g.Rules.Slice() {
			if s, ok := verdict[ruleID{gi, ri}]; ok {
				c.reportShadowed(gi, r, s)
			}
		}
	}
}

// shadowVerdicts returns the rules that never decide for any of the
// crawlers whose merged groups hold them, each with why for one crawler.
func (c *checker) shadowVerdicts() map[ruleID]shadow {
	byName := c.mergedGroups()
	// verdict[id] is the shadow of id for every name checked so far; a
	// rule missing from it, once its first name is checked, decides
	// something.
	verdict := map[ruleID]shadow{}
	checked := map[ruleID]bool{}
	for _, n := range sortedNames(byName) {
		ids := c.liveRules(byName[n])
		found := c.shadowedAmong(ids)
		for _, id := range ids {
			by, ok := found[id]
			switch {
			case !checked[id]:
				checked[id] = true
				if ok {
					verdict[id] = shadow{by: by, name: n}
				}
			case !ok:
				delete(verdict, id)
			}
		}
	}
	return verdict
}

// sortedNames returns the crawler keys of byName, sorted.
func sortedNames(byName map[string][]int) []string {
	order := make([]string, 0, len(byName))
	for n := range byName {
		order = append(order, n)
	}
	sort.Strings(order)
	return order
}

// liveRules returns the rules of groups, in file order, but those that
// match nothing (MissingSlash).
func (c *checker) liveRules(groups []int) []ruleID {
	var ids []ruleID
	for _, gi := range groups {
		for ri := range c.f.Groups[gi].Rules.Len() {
			if id := (ruleID{gi, ri}); !c.dead[id] {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// shadowedAmong finds, among the merged rules ids (in file order), those
// that never decide under the file's semantics, and a rule that beats
// each.
func (c *checker) shadowedAmong(ids []ruleID) map[ruleID]ruleID {
	if c.f.Semantics == compile.Koster1996 {
		return c.shadowedFirstMatch(ids)
	}
	return c.shadowedLongest(ids)
}

// reportShadowed reports rule r of group gi, which s says never decides.
func (c *checker) reportShadowed(gi int, r compile.Rule, s shadow) {
	by := c.rule(s.by)
	crawlers := ""
	if s.by.group != gi {
		crawlers = " (the groups for " + s.name + " are merged)"
	}
	if by.Kind == r.Kind && by.Pattern == r.Pattern {
		c.add(r.Line, DuplicateRule, "same rule as line "+strconv.Itoa(by.Line)+crawlers+", which decides instead: this line never does; delete it")
		return
	}
	c.add(r.Line, ShadowedRule, "never decides"+crawlers+": line "+strconv.Itoa(by.Line)+" ("+by.Kind.String()+" "+by.Value+") matches every URL this rule matches and "+c.why(by, r)+"; delete this line or change one of the two")
}

// why says why rule a beats rule b.
func (c *checker) why(a, b compile.Rule) string {
	switch {
	case c.f.Semantics == compile.Koster1996:
		return "comes first (Koster 1996: the first match decides)"
	case len(a.Pattern) > len(b.Pattern):
		return "its pattern is longer, so it wins"
	case a.Kind != b.Kind:
		return "allow wins a tie of equal length"
	}
	return "comes first"
}

// canon returns the pattern that matches the same URLs as p with the
// trailing '*'s and a '$' after a '*' dropped: "/a*", "/a**" and "/a*$"
// are "/a".
func canon(p string) string {
	for {
		switch {
		case strings.HasSuffix(p, "*"):
			p = p[:len(p)-1]
		case strings.HasSuffix(p, "*$"):
			p = p[:len(p)-1]
		default:
			return p
		}
	}
}

// isLiteral reports whether a canonical pattern is a plain prefix: it
// matches exactly the paths that start with it.
func isLiteral(cp string) bool {
	return strings.IndexByte(cp, '*') < 0 && !strings.HasSuffix(cp, "$")
}

// literalPart returns the start of p up to its first '*' (or its end
// anchor): every path p matches starts with it.
func literalPart(p string) string {
	if i := strings.IndexByte(p, '*'); i >= 0 {
		return p[:i]
	}
	return strings.TrimSuffix(p, "$")
}

// shadowedLongest finds, among the merged rules ids (in file order), those
// that never decide under longest-match priority, and a rule that beats
// each.
func (c *checker) shadowedLongest(ids []ruleID) map[ruleID]ruleID {
	sem := c.f.Semantics
	prio := make([]uint32, len(ids))
	best := map[string]int{}    // canonical pattern -> index in ids of its highest priority
	literal := map[string]int{} // the same, for literal canonical patterns
	maxPad := 0
	for i, id := range ids {
		r := c.rule(id)
		prio[i] = semantics.Priority(sem, r.Kind, len(r.Pattern))
		cp := canon(r.Pattern)
		if j, ok := best[cp]; !ok || prio[i] > prio[j] {
			best[cp] = i
		}
		if isLiteral(cp) {
			literal[cp] = best[cp]
			maxPad = max(maxPad, len(r.Pattern)-len(cp))
		}
	}
	maxPad = min(maxPad, maxPadChecked)
	found := map[ruleID]ruleID{}
	for i, id := range ids {
		r := c.rule(id)
		if _, ok := semantics.IndexHTM(sem, r.Kind, r.Pattern); ok {
			continue
		}
		if j := best[canon(r.Pattern)]; j != i {
			found[id] = ids[j]
			continue
		}
		// A literal prefix of this rule, padded to at least its length.
		lit := literalPart(r.Pattern)
		for k := max(0, len(r.Pattern)-maxPad); k <= len(lit); k++ {
			if j, ok := literal[lit[:k]]; ok && j != i && (prio[j] > prio[i] || prio[j] == prio[i] && j < i) {
				found[id] = ids[j]
				break
			}
		}
	}
	return found
}

// shadowedFirstMatch finds, among the merged rules ids (in file order),
// those that an earlier rule's prefix always beats under first-match
// priority. Patterns are sorted, so that the rules whose patterns are
// prefixes of a pattern are on a stack when it comes: linear in the bytes
// compared, after the sort.
func (c *checker) shadowedFirstMatch(ids []ruleID) map[ruleID]ruleID {
	idx := make([]int, len(ids))
	for i := range idx {
		idx[i] = i
	}
	pat := func(i int) string { return c.rule(ids[i]).Pattern }
	sort.SliceStable(idx, func(a, b int) bool { return pat(idx[a]) < pat(idx[b]) })
	type entry struct {
		pattern  string
		earliest int // the earliest rule among this entry and those below it
	}
	var stack []entry
	found := map[ruleID]ruleID{}
	for _, i := range idx {
		p := pat(i)
		for len(stack) > 0 && !strings.HasPrefix(p, stack[len(stack)-1].pattern) {
			stack = stack[:len(stack)-1]
		}
		earliest := i
		if len(stack) > 0 {
			if e := stack[len(stack)-1].earliest; e < i {
				found[ids[i]] = ids[e]
				earliest = e
			}
		}
		stack = append(stack, entry{p, earliest})
	}
	return found
}

// joinedGroups reports user-agent lines that a sitemap, extension or
// unreadable line joined into one group (compile.File.Joins): once per
// group, at the first user-agent line that was joined.
func (c *checker) joinedGroups() {
	last := -1 // the group reported last
	for _, j := range c.f.Joins {
		if j.Group == last {
			continue
		}
		last = j.Group
		g := &c.f.Groups[j.Group]
		prev, a := g.Agents.At(j.Agent-1), g.Agents.At(j.Agent)
		what := j.Key
		if what == "" {
			what = "unreadable"
		}
		all := ""
		if g.Agents.Len() > 2 {
			all = " (this group has " + strconv.Itoa(g.Agents.Len()) + " user-agent lines, " +
				strconv.Itoa(g.Agents.At(0).Line) + " to " + strconv.Itoa(g.Agents.At(g.Agents.Len()-1).Line) + ")"
		}
		c.add(a.Line, JoinedGroup, "user-agent "+a.Value+" joins the group of user-agent "+prev.Value+
			" (line "+strconv.Itoa(prev.Line)+")"+all+": a "+what+" line (line "+strconv.Itoa(j.Line)+
			") does not end a group, so they all share the rules and extensions that follow; to give "+prev.Value+
			" its own group, put a rule after it (an empty \"Disallow:\" allows everything)")
	}
}

// maxNamesListed is the number of crawler names a replaces-global message
// lists; a message is one line for a person, not a dump of the group.
const maxNamesListed = 5

// replacesGlobal reports crawlers whose groups have extension lines but no
// rule while the "*" group disallows something: once per group, naming
// every such crawler of it, at the first of their user-agent lines.
func (c *checker) replacesGlobal() {
	byName := c.mergedGroups()
	disallows := c.globalDisallows(byName["*"])
	if len(disallows) == 0 {
		return
	}
	reported := map[string]bool{}
	for gi := range c.f.Groups {
		line, names, exts := c.replacing(gi, byName, reported)
		if names == nil {
			continue
		}
		who := listNames(names)
		r := disallows[0]
		more := ""
		if n := len(disallows) - 1; n > 0 {
			more = " and " + strconv.Itoa(n) + " more"
		}
		c.add(line, ReplacesGlobal, "the group for "+who+" has no allow or disallow rule, only "+strings.Join(exts, ", ")+
			": it replaces the \"*\" group, so "+who+" may fetch what \"*\" disallows (line "+strconv.Itoa(r.Line)+
			": disallow "+r.Value+more+"); repeat the \"*\" rules to obey")
	}
}

// globalDisallows returns the disallow rules of the "*" groups that match
// something, one for each pattern, in file order.
func (c *checker) globalDisallows(groups []int) []compile.Rule {
	var out []compile.Rule
	seen := map[string]bool{}
	for _, gi := range groups {
		for ri := range c.f.Groups[gi].Rules.Len() {
			if r := c.rule(ruleID{gi, ri}); r.Kind == compile.Disallow && !c.dead[ruleID{gi, ri}] && !seen[r.Pattern] {
				seen[r.Pattern] = true
				out = append(out, r)
			}
		}
	}
	return out
}

// replacing returns the crawlers that the user-agent lines of group gi
// name (as written, in line order) whose merged groups have only
// extension lines, the line of the first, and those lines' keys. A
// crawler is looked at once, in the first group that names it (reported
// holds those looked at).
func (c *checker) replacing(gi int, byName map[string][]int, reported map[string]bool) (line int, names, exts []string) {
	for _, a := range c.f.Groups[gi].Agents.Slice() {
		n, ok := crawler(a)
		if !ok || reported[n] {
			continue
		}
		reported[n] = true
		keys := c.onlyExtensions(byName[n])
		if keys == nil {
			continue
		}
		if line == 0 {
			line = a.Line
		}
		names = append(names, a.Value)
		for _, k := range keys {
			if !contains(exts, k) {
				exts = append(exts, k)
			}
		}
	}
	return line, names, exts
}

// onlyExtensions returns the extension keys of groups, in order, when
// they have no allow or disallow line (not even an empty one) and some
// extension line; else nil.
func (c *checker) onlyExtensions(groups []int) []string {
	rules, keys, empty := 0, []string(nil), false
	for _, gj := range groups {
		g := &c.f.Groups[gj]
		rules += g.Rules.Len()
		for _, x := range g.Extensions.Slice() {
			if !contains(keys, x.Key) {
				keys = append(keys, x.Key)
			}
		}
		empty = empty || g.EmptyRuleLine != 0
	}
	if rules > 0 || empty {
		return nil
	}
	return keys
}

// listNames lists crawler names for a message: "a", "a and b", "a, b and
// c", at most maxNamesListed of them then how many more.
func listNames(names []string) string {
	switch n := len(names); {
	case n > maxNamesListed:
		return strings.Join(names[:maxNamesListed], ", ") + " and " + strconv.Itoa(n-maxNamesListed) + " more"
	case n > 1:
		return strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	return names[0]
}

// invalidMessages say what a known extension key wants.
var invalidMessages = map[string]string{
	"request-rate":   "request-rate is not N/PERIOD with an optional UTC window (1/10s, 1/5m 0600-0845): crawlers ignore it",
	"visit-time":     "visit-time is not a UTC window HHMM-HHMM (0600-0845): crawlers ignore it",
	"host":           "host is not one host name: crawlers ignore it",
	"clean-param":    "clean-param is not \"p1&p2 [/path-prefix]\": crawlers ignore it",
	"content-signal": "content-signal is not a comma-separated list of key=value pairs (search=yes, ai-train=no): crawlers ignore it",
}

func (c *checker) invalidValues() {
	for _, g := range c.f.Groups {
		for _, x := range engine.ParseExtensions(g.Extensions.Slice()).Invalid {
			if msg, ok := invalidMessages[x.Key]; ok {
				c.add(x.Line, InvalidValue, msg)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, t := range list {
		if t == s {
			return true
		}
	}
	return false
}
