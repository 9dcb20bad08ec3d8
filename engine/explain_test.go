package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

const explainRobots = `User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: Googlebot
User-agent: Googlebot-Image
Disallow: /nogoogle
Allow: /d/index.html

User-agent: googlebot/2.1
Disallow: /*.pdf$
`

func TestExplain_Fields(t *testing.T) {
	r := engine.Compile([]byte(explainRobots), engine.Options{Semantics: engine.Google})
	e := r.Explain("https://example.com/nogoogle/a?x=1#f", "Googlebot-Image", "Googlebot")
	want := engine.Explanation{
		URL:       "https://example.com/nogoogle/a?x=1#f",
		Semantics: engine.Google,
		Tokens:    []string{"Googlebot-Image", "Googlebot"},
		Path:      "/nogoogle/a?x=1",
		Match:     engine.MatchSpecific,
		Groups: []engine.ExplainedGroup{
			{Index: 1, AgentLines: []int{5, 6}},
			{Index: 2, AgentLines: []int{10}},
		},
		Agents: []engine.AgentMatch{
			{Line: 5, Value: "Googlebot", Token: "Googlebot"},
			{Line: 6, Value: "Googlebot-Image", Token: "Googlebot-Image"},
			{Line: 10, Value: "googlebot/2.1", Token: "Googlebot"},
		},
		Decision:    engine.Decision{Allowed: false, Rule: engine.Rule{Line: 7, Kind: engine.Disallow, Pattern: "/nogoogle", Value: "/nogoogle"}, Reason: engine.ReasonRule},
		Specificity: 9,
		Usage:       engine.Usage{TrainAI: engine.UsageNotApplicable, Search: engine.UsageNotApplicable},
	}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("Explain (-want +got):\n%s", diff)
	}
}

// TestExplain_SameDecision checks that Explain's decision is Decide's for
// every semantics and a spread of URLs.
func TestExplain_SameDecision(t *testing.T) {
	urls := []string{"/", "/private/x", "/private/press/y", "/nogoogle", "/d/", "/d/index.html", "/a.pdf", "/robots.txt", "http://x/%7Ea", "a/b?c"}
	for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
		r := engine.Compile([]byte(explainRobots), engine.Options{Semantics: sem})
		for _, agents := range [][]string{{"Googlebot"}, {"Other"}, {"Googlebot-Image", "Googlebot"}} {
			m := r.Matcher(agents...)
			for _, u := range urls {
				if got, want := r.Explain(u, agents...).Decision, m.Decide(u); got != want {
					t.Errorf("%s %v %s: Explain %+v, Decide %+v", sem, agents, u, got, want)
				}
			}
		}
	}
}

func TestExplain_String(t *testing.T) {
	r := engine.Compile([]byte(explainRobots), engine.Options{Semantics: engine.Google})
	for _, c := range []struct {
		url    string
		agents []string
		want   string
	}{
		{"https://example.com/private/press/2026", []string{"ExampleBot"}, `url:       https://example.com/private/press/2026
path:      /private/press/2026 (google)
agent:     ExampleBot: no group names it, so the "*" group applies (user-agent line 1)
groups:    user-agent line 1
decision:  allowed by line 3: allow /private/press/
priority:  pattern /private/press/, 15 bytes: the longest matching pattern wins, allow on a tie
`},
		{"/d/", []string{"Googlebot"}, `url:       /d/
path:      /d/ (google)
agent:     Googlebot is named by user-agent lines 5 (Googlebot) and 10 (googlebot/2.1)
groups:    user-agent lines 5 and 6; user-agent line 10 (merged)
decision:  allowed by line 8: allow /d/index.html
priority:  pattern /d/$ (Google: an allow of /d/index.html also allows its directory), 4 bytes: the longest matching pattern wins, allow on a tie
`},
		{"/elsewhere", []string{"Googlebot"}, `url:       /elsewhere
path:      /elsewhere (google)
agent:     Googlebot is named by user-agent lines 5 (Googlebot) and 10 (googlebot/2.1)
groups:    user-agent lines 5 and 6; user-agent line 10 (merged)
decision:  allowed: no rule matches
`},
	} {
		if got := r.Explain(c.url, c.agents...).String(); got != c.want {
			t.Errorf("Explain(%q, %q):\n%s\nwant:\n%s", c.url, c.agents, got, c.want)
		}
	}
}

func TestRFC9309_Explain_RobotsTxtAndNormalisedPath(t *testing.T) {
	r := engine.Compile([]byte("User-agent: *\nDisallow: /\n"), engine.Options{})
	e := r.Explain("https://example.com/robots.txt", "bot")
	if !e.Decision.Allowed || e.Decision.Reason != engine.ReasonRobotsTxt || !strings.Contains(e.String(), "always allowed") {
		t.Errorf("robots.txt: %s", e)
	}
	// RFC 9309 section 2.2.2: %7E and ~ are the same path.
	if e := r.Explain("http://x/%7Ejoe/a%2fb", "bot"); e.Path != "/~joe/a%2Fb" {
		t.Errorf("Path = %q, want /~joe/a%%2Fb", e.Path)
	}
}

func TestKoster1996_Explain_FirstMatch(t *testing.T) {
	r := engine.Compile([]byte("User-agent: *\nDisallow: /a\nAllow: /a/b\n"), engine.Options{Semantics: engine.Koster1996})
	s := r.Explain("/a/b", "bot").String()
	if !strings.Contains(s, "disallowed by line 2") || !strings.Contains(s, "first matching rule in file order") {
		t.Errorf("got:\n%s", s)
	}
}

// TestKoster1996_AgentNameEqualsNotSubstring: the 1996 draft compares
// names (3.2.1, "The name comparisons are case-insensitive"), so
// "User-agent: bot" does not name MyBot, and MyBot's own record applies;
// urllib.robotparser, which matches by substring and takes the first
// matching record, answers the other way (docs/SEMANTICS.md 2.5).
func TestKoster1996_AgentNameEqualsNotSubstring(t *testing.T) {
	body := []byte("User-agent: bot\nDisallow: /a\n\nUser-agent: MyBot\nDisallow: /b\n\nUser-agent: *\nDisallow: /c\n")
	m := engine.Compile(body, engine.Options{Semantics: engine.Koster1996}).Matcher("MyBot")
	for _, c := range []struct {
		url     string
		allowed bool
		line    int
	}{{"/a", true, 0}, {"/b", false, 5}, {"/c", true, 0}} {
		if d := m.Decide(c.url); d.Allowed != c.allowed || d.Rule.Line != c.line {
			t.Errorf("%s: allowed %v by line %d, want %v by line %d", c.url, d.Allowed, d.Rule.Line, c.allowed, c.line)
		}
	}
}

func TestExplain_NoGroupAndFixed(t *testing.T) {
	r := engine.Compile([]byte("User-agent: a\nDisallow: /\n"), engine.Options{})
	e := r.Explain("/x", "b")
	if e.Match != engine.MatchNone || len(e.Groups) != 0 || !strings.Contains(e.String(), "there is no \"*\" group") {
		t.Errorf("got %+v\n%s", e, e)
	}
	e = engine.DisallowAll(engine.Options{}).Explain("/x", "b")
	if e.Decision.Allowed || !strings.Contains(e.String(), "unreachable") || !strings.Contains(e.String(), "no robots.txt was read") {
		t.Errorf("DisallowAll:\n%s", e)
	}
}

// TestExplain_DecideStillAllocationFree checks that adding Explain did not
// change Decide: it allocates nothing.
func TestExplain_DecideStillAllocationFree(t *testing.T) {
	r := engine.Compile([]byte(explainRobots), engine.Options{})
	m := r.Matcher("Googlebot")
	r.Explain("/private/x", "Googlebot")
	if n := testing.AllocsPerRun(100, func() { m.Decide("https://example.com/nogoogle/%7Ex") }); n != 0 {
		t.Errorf("Decide: %v allocations", n)
	}
}

func ExampleRobots_Explain() {
	robots := engine.Compile([]byte(`User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: ExampleBot
Disallow: /search
`), engine.Options{})

	fmt.Print(robots.Explain("https://example.com/private/press/2026", "OtherBot"))
	fmt.Println()
	e := robots.Explain("https://example.com/search?q=x", "ExampleBot")
	fmt.Println(e.Decision.Allowed, e.Decision.Rule.Line, e.Agents[0].Line, e.Specificity)
	// Output:
	// url:       https://example.com/private/press/2026
	// path:      /private/press/2026 (rfc9309)
	// agent:     OtherBot: no group names it, so the "*" group applies (user-agent line 1)
	// groups:    user-agent line 1
	// decision:  allowed by line 3: allow /private/press/
	// priority:  pattern /private/press/, 15 bytes: the longest matching pattern wins, allow on a tie
	//
	// false 6 5 7
}

// TestRFC9309_DecisionNoRule checks docs/SEMANTICS.md section 4.5: a decision
// names the rule that decided, and one that no rule of the file made has line
// 0 and the kind NoRule, which prints as "none" (not "disallow").
func TestRFC9309_DecisionNoRule(t *testing.T) {
	r := engine.Compile([]byte("User-agent: *\nDisallow: /private\nAllow: /private/press\nDisallow: /robots\n"), engine.Options{})
	for _, tc := range []struct {
		robots *engine.Robots
		url    string
		reason engine.Reason
		line   int
		kind   engine.RuleKind
		print  string
	}{
		{r, "https://example.com/private/x", engine.ReasonRule, 2, engine.Disallow, "disallow"},
		{r, "https://example.com/private/press/1", engine.ReasonRule, 3, engine.Allow, "allow"},
		{r, "https://example.com/public", engine.ReasonNoMatch, 0, engine.NoRule, "none"},
		{r, "https://example.com/robots.txt", engine.ReasonRobotsTxt, 0, engine.NoRule, "none"},
		{engine.AllowAll(engine.Options{}), "https://example.com/x", engine.ReasonAllowAll, 0, engine.NoRule, "none"},
		{engine.DisallowAll(engine.Options{}), "https://example.com/x", engine.ReasonDisallowAll, 0, engine.NoRule, "none"},
	} {
		d := tc.robots.Matcher("ExampleBot").Decide(tc.url)
		if d.Reason != tc.reason || d.Rule.Line != tc.line || d.Rule.Kind != tc.kind || d.Rule.Kind.String() != tc.print {
			t.Errorf("Decide(%q) = %+v (kind %q), want reason %v, line %d, kind %q", tc.url, d, d.Rule.Kind, tc.reason, tc.line, tc.print)
		}
	}
	if k := (engine.Rule{}).Kind; k != engine.NoRule {
		t.Errorf("the zero Rule's kind is %v, want NoRule", k)
	}
}

// TestRFC9309_DecideNotURL: issue 31 found Decide("g/x") allowed and
// DecidePath("g/x") disallowed, both documented, easy to miss. The reading
// stays Google's in every semantics (docs/SEMANTICS.md section 3.3), and
// the Decision now says the input was no URL; Explain says how it was read.
func TestRFC9309_DecideNotURL(t *testing.T) {
	for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
		r := engine.Compile([]byte("User-agent: *\nDisallow: /g/\n"), engine.Options{Semantics: sem})
		m := r.Matcher("bot")
		if d := m.Decide("g/x"); !d.Allowed || !d.NotURL {
			t.Errorf("%s: Decide(g/x) = %+v, want allowed (read as /x) and NotURL", sem, d)
		}
		if d := m.DecidePath("g/x"); d.Allowed || d.NotURL {
			t.Errorf("%s: DecidePath(g/x) = %+v, want disallowed (/g/x)", sem, d)
		}
		for _, u := range []string{"", "/g/x", "//example.com/g/x", "https://example.com/g/x", "HTTP://example.com"} {
			if m.Decide(u).NotURL {
				t.Errorf("%s: Decide(%q).NotURL", sem, u)
			}
		}
		for _, u := range []string{"www.example.com/g/x", "mailto:a@b", "http:/g/x", "?q"} {
			if !m.Decide(u).NotURL || engine.IsURL(u) {
				t.Errorf("%s: Decide(%q).NotURL false, or IsURL true", sem, u)
			}
		}
		if d := engine.AllowAll(engine.Options{Semantics: sem}).Matcher("bot").Decide("g/x"); !d.NotURL {
			t.Errorf("%s: a fixed answer does not say NotURL", sem)
		}
		if s := r.Explain("g/x", "bot").String(); !strings.Contains(s, `"g/x" is not a URL or a path that starts with '/', so it was read as Google's library reads such text`) {
			t.Errorf("%s: Explain does not say how g/x was read:\n%s", sem, s)
		}
	}
}
