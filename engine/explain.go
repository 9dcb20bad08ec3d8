package engine

import (
	"strconv"
	"strings"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// Explanation says why a URL was allowed or disallowed for a crawler: which
// groups applied and why, what path was matched, which rule decided and by
// what priority. Explain builds it; String prints it for people.
type Explanation struct {
	URL       string
	Semantics Semantics
	Tokens    []string // the crawler's product tokens
	// Given are the agents as the caller passed them, when one of them is
	// not a product token; Tokens are then what they were read as
	// (AgentTokens: in RFC9309 and Koster1996 a User-Agent header stands
	// for its product tokens, in Google it names no group). Nil otherwise.
	Given []string
	// Path is what the rules were matched against: the URL's path, params
	// and query, without its scheme, authority and fragment ("/" when
	// empty), percent-encoded as the semantics compares them (see
	// Semantics; docs/SEMANTICS.md has the details).
	Path string
	// Match says how the groups were selected: MatchSpecific (a group
	// names one of the tokens), MatchGlobal (none does; the "*" groups
	// apply) or MatchNone (no "*" group either: everything is allowed).
	Match MatchKind
	// Groups are the selected groups, in file order; their rules were
	// merged.
	Groups []ExplainedGroup
	// Agents are the user-agent lines that selected the groups: for
	// MatchSpecific the lines whose name equals a token, for MatchGlobal
	// the "*" lines.
	Agents []AgentMatch
	// Decision is what Decide returns for URL.
	Decision Decision
	// Specificity is the length in bytes of the deciding pattern (after
	// normalisation, counting '*' and '$'): the priority by which it won
	// in RFC9309 and Google, where the longest matching pattern decides
	// and allow wins a tie. In Koster1996 the first matching rule in file
	// order decides and Specificity is only informative. 0 when no rule of
	// the file decided.
	Specificity int
	// Usage is what Matcher.Usage returns for URL: its usage
	// preferences, with the content-usage lines that decided them.
	Usage Usage
	// UsageRules are the crawler's content-usage lines (its groups'),
	// in file order; nil when it has none, and String then says nothing
	// of usage.
	UsageRules []UsageRule
}

// ExplainedGroup is a selected group.
type ExplainedGroup struct {
	Index      int   // into File().Groups
	AgentLines []int // the lines of its user-agent lines
}

// AgentMatch is a user-agent line that selected its group.
type AgentMatch struct {
	Line  int
	Value string // the line's value as written
	// Token is the crawler's token the line's name equals (ignoring
	// case), or "*" for a global line.
	Token string
}

// Explain decides url for the crawler with the given product tokens, as
// r.Matcher(tokens...).Decide(url) does, and says why. It allocates; the
// decision itself is the matcher's, unchanged.
//
// Explain is on Robots rather than Matcher because the user-agent lines
// are in the file, which a Matcher does not keep.
func (r *Robots) Explain(url string, tokens ...string) Explanation {
	return explain(&r.file, r.Matcher(tokens...), url)
}

func explain(f *compile.File, m *Matcher, url string) Explanation {
	d := m.Decide(url)
	e := Explanation{
		URL:       url,
		Semantics: m.sem,
		Tokens:    m.Tokens(),
		Given:     append([]string(nil), m.given()...),
		Path:      compile.URLPath(url, m.sem),
		Match:     m.sel.Match,
		Decision:  d,
	}
	if m.fixed != 0 {
		e.Match = compile.MatchNone
	}
	e.Usage, e.UsageRules = m.Usage(url), m.UsageRules()
	if d.Reason == ReasonRule || d.Reason == ReasonIndexHTM {
		e.Specificity = len(d.Rule.Pattern)
	}
	for _, gi := range m.sel.Groups {
		g := &f.Groups[gi]
		eg := ExplainedGroup{Index: gi}
		for i := range g.Agents.Len() {
			a := g.Agents.At(i)
			eg.AgentLines = append(eg.AgentLines, a.Line)
			switch {
			case e.Match == compile.MatchGlobal && a.IsGlobal():
				e.Agents = append(e.Agents, AgentMatch{Line: a.Line, Value: a.Value, Token: "*"})
			case e.Match == compile.MatchSpecific:
				for _, t := range m.tokens {
					if a.Names(t) {
						e.Agents = append(e.Agents, AgentMatch{Line: a.Line, Value: a.Value, Token: t})
						break
					}
				}
			}
		}
		e.Groups = append(e.Groups, eg)
	}
	return e
}

// String returns e for people, one field a line:
//
//	url:       https://example.com/private/plans
//	path:      /private/plans (rfc9309)
//	agent:     ExampleBot: no group names it, so the "*" group applies (user-agent line 2)
//	groups:    user-agent line 2
//	decision:  disallowed by line 3: disallow /private/
//	priority:  pattern /private/, 9 bytes: the longest matching pattern wins, allow on a tie
//
// and, when the crawler's groups have content-usage lines, what they
// prefer for the URL:
//
//	usage:     train-ai=n by line 4: content-usage train-ai=n; search=unknown by line 4: content-usage train-ai=n
func (e Explanation) String() string {
	var b strings.Builder
	field := func(name string) { b.WriteString(name + ":" + strings.Repeat(" ", 10-len(name))) }

	field("url")
	b.WriteString(e.URL + "\n")
	field("path")
	b.WriteString(e.Path + " (" + e.Semantics.String() + ")")
	if e.Decision.NotURL {
		b.WriteString(": " + strconv.Quote(e.URL) + " is not a URL or a path that starts with '/', so it was read as Google's library reads such text, from its first '/' (resolve a relative link against its page first)")
	}
	b.WriteString("\n")

	field("agent")
	b.WriteString(e.agentLine() + "\n")

	if len(e.Groups) > 0 {
		field("groups")
		for i, g := range e.Groups {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString("user-agent " + joinLines(g.AgentLines))
		}
		if len(e.Groups) > 1 {
			b.WriteString(" (merged)")
		}
		b.WriteString("\n")
	}

	field("decision")
	d := e.Decision
	b.WriteString(e.decisionLine() + "\n")

	if d.Reason == ReasonRule || d.Reason == ReasonIndexHTM {
		field("priority")
		b.WriteString("pattern " + d.Rule.Pattern)
		if d.Reason == ReasonIndexHTM {
			b.WriteString(" (Google: an allow of " + d.Rule.Value + " also allows its directory)")
		}
		if e.Semantics == Koster1996 {
			b.WriteString(": the first matching rule in file order wins")
		} else {
			b.WriteString(", " + strconv.Itoa(e.Specificity) + " bytes: the longest matching pattern wins, allow on a tie")
		}
		b.WriteString("\n")
	}
	if e.UsageRules != nil {
		field("usage")
		b.WriteString(e.usageLine() + "\n")
	}
	return b.String()
}

// usageLine says what the usage preferences are and which content-usage
// lines decided them.
func (e Explanation) usageLine() string {
	u := e.Usage
	if !u.Applicable() {
		return "- (the URL may not be fetched: no usage preference applies to it)"
	}
	one := func(key string, p Preference, line int) string {
		s := key + "=" + p.String()
		if line == 0 {
			return s + " (no content-usage line matches)"
		}
		for _, r := range e.UsageRules {
			if r.Line == line {
				return s + " by line " + strconv.Itoa(line) + ": content-usage " + r.Value
			}
		}
		return s + " by line " + strconv.Itoa(line)
	}
	return one(CategoryTrainAI, u.TrainAI, u.TrainAILine) + "; " + one(CategorySearch, u.Search, u.SearchLine)
}

// agentLine says how the agent was read and which groups name it.
func (e Explanation) agentLine() string {
	var b strings.Builder
	for _, g := range e.Given {
		if !readsAsItself(RFC9309, g) {
			b.WriteString(agentNote(e.Semantics, g) + "; ")
		}
	}
	tokens := strings.Join(e.Tokens, ", ")
	if tokens == "" {
		tokens = "no product token"
	}
	switch e.Match {
	case compile.MatchSpecific:
		// Per token, in the order tokens were given: the lines naming it.
		n := 0
		for _, t := range e.Tokens {
			var lines []string
			for _, a := range e.Agents {
				if a.Token == t {
					lines = append(lines, strconv.Itoa(a.Line)+" ("+a.Value+")")
				}
			}
			if lines == nil {
				continue
			}
			if n > 0 {
				b.WriteString("; ")
			}
			n++
			b.WriteString(t + " is named by user-agent " + joinWords(lines))
		}
	case compile.MatchGlobal:
		b.WriteString(tokens + ": no group names it, so the \"*\" group applies (user-agent " + joinLines(agentLines(e.Agents)) + ")")
	case compile.MatchNone:
		if r := e.Decision.Reason; r == ReasonAllowAll || r == ReasonDisallowAll {
			b.WriteString(tokens + ": no robots.txt was read")
		} else {
			b.WriteString(tokens + ": no group names it and there is no \"*\" group: no rule applies")
		}
	}
	return b.String()
}

// decisionLine says what was decided and by what.
func (e Explanation) decisionLine() string {
	d := e.Decision
	verdict := "disallowed"
	if d.Allowed {
		verdict = "allowed"
	}
	switch d.Reason {
	case ReasonNoMatch:
		return verdict + ": no rule matches"
	case ReasonRule, ReasonIndexHTM:
		return verdict + " by line " + strconv.Itoa(d.Rule.Line) + ": " + d.Rule.Kind.String() + " " + d.Rule.Value
	case ReasonRobotsTxt:
		return verdict + ": /robots.txt is always allowed (RFC 9309 section 2.2.2)"
	case ReasonAllowAll:
		return verdict + ": the robots.txt is unavailable, so everything is allowed"
	case ReasonDisallowAll:
		return verdict + ": the robots.txt is unreachable, so everything is disallowed"
	}
	return verdict
}

func agentLines(as []AgentMatch) []int {
	lines := make([]int, len(as))
	for i, a := range as {
		lines[i] = a.Line
	}
	return lines
}

// joinLines writes line numbers as "line 2", "lines 2 and 5" or "lines 2,
// 5 and 9".
func joinLines(lines []int) string {
	words := make([]string, len(lines))
	for i, l := range lines {
		words[i] = strconv.Itoa(l)
	}
	return joinWords(words)
}

// joinWords writes line references as "line A", "lines A and B" or "lines
// A, B and C".
func joinWords(words []string) string {
	var b strings.Builder
	if len(words) == 1 {
		b.WriteString("line ")
	} else {
		b.WriteString("lines ")
	}
	for i, w := range words {
		switch {
		case i == 0:
		case i == len(words)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(w)
	}
	return b.String()
}
