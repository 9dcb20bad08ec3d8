package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/race"
)

// usageOf compiles body in sem and returns agent's usage of url as check
// --usage prints it.
func usageOf(t *testing.T, sem engine.Semantics, body, agent, url string) string {
	t.Helper()
	return engine.Compile([]byte(body), engine.Options{Semantics: sem}).Matcher(agent).Usage(url).String()
}

// draft-ietf-aipref-attach-05 section 3.4, the example and its table:
// /never/ is disallowed (no preference), /ai-ok/ says train-ai=y, the rest
// train-ai=n; ExampleBot has a group of its own, and the "*" group's usage
// lines do not apply to it.
func TestAIPref_AttachExample(t *testing.T) {
	body := "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\n" +
		"User-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n"
	for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google} {
		for _, c := range []struct{ agent, url, want string }{
			{"OtherBot", "/test", "train-ai=n search=unknown"},
			{"OtherBot", "/never/test", "-"},
			{"OtherBot", "/ai-ok/test", "train-ai=y search=unknown"},
			{"ExampleBot", "/never/test", "train-ai=y search=unknown"},
		} {
			if got := usageOf(t, sem, body, c.agent, c.url); got != c.want {
				t.Errorf("%s %s %s: %q, want %q", sem, c.agent, c.url, got, c.want)
			}
		}
	}
}

// docs/SEMANTICS.md section 7, "Which rule": the longest matching pattern
// decides; an absent path has length 0; ties (identical paths or not)
// combine per category, n over y over unknown (draft-ietf-aipref-vocab
// section 5.1; draft-ietf-aipref-attach section 3.1 for identical paths).
func TestAIPref_LongestThenMostRestrictive(t *testing.T) {
	body := "User-agent: *\n" +
		"Content-Usage: train-ai=y, search=y\n" + // 2: every path
		"Content-Usage: /a train-ai=n\n" + // 3
		"Content-Usage: /a search=y\n" + // 4: same path as 3
		"Content-Usage: /b* train-ai=y\n" + // 5: length 3
		"Content-Usage: /bc search=n\n" + // 6: length 3, other pattern
		"Content-Usage: /bcd train-ai=y, x=\"unparsed\n" + // 7: not a Dictionary
		"Content-Usage: /e$ search=n\n" // 8: anchored
	for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google} {
		m := engine.Compile([]byte(body), engine.Options{Semantics: sem}).Matcher("bot")
		for _, c := range []struct {
			url  string
			want engine.Usage
		}{
			{"/", engine.Usage{engine.UsageAllowed, engine.UsageAllowed, 2, 2}},
			{"/ax", engine.Usage{engine.UsageDisallowed, engine.UsageAllowed, 3, 4}},
			{"/bc", engine.Usage{engine.UsageAllowed, engine.UsageDisallowed, 5, 6}},
			{"/bx", engine.Usage{engine.UsageAllowed, engine.UsageUnknown, 5, 5}},
			{"/bcde", engine.Usage{engine.UsageUnknown, engine.UsageUnknown, 7, 7}},
			{"/e", engine.Usage{engine.UsageUnknown, engine.UsageDisallowed, 8, 8}},
			{"/ef", engine.Usage{engine.UsageAllowed, engine.UsageAllowed, 2, 2}},
		} {
			if got := m.Usage(c.url); got != c.want {
				t.Errorf("%s %s: %+v, want %+v", sem, c.url, got, c.want)
			}
		}
	}
}

// docs/SEMANTICS.md section 7, "Which statement" (draft-ietf-aipref-vocab
// section 6.5): keys are case-sensitive, parameters and unknown keys are
// ignored, the last of a repeated key wins, values other than the Tokens y
// and n are unknown, and a statement that is not a Dictionary (here an
// upper-case key) is unknown throughout.
func TestAIPref_StatementParsing(t *testing.T) {
	for _, c := range []struct{ stmt, want string }{
		{"train-ai=y, search=n", "train-ai=y search=n"},
		{"train-ai;allow=n, train-ai=y", "train-ai=y search=unknown"},
		{"train-ai=y, train-ai, search=n, search=\"n\"", "train-ai=unknown search=unknown"},
		{"train-ai=n;q=1, foo=bar, search=y", "train-ai=n search=y"},
		{"Train-AI=n, search=n", "train-ai=unknown search=unknown"},
		{"train-ai=N", "train-ai=unknown search=unknown"},
		{"train-ai=yes", "train-ai=unknown search=unknown"},
		{"train-ai=?1", "train-ai=unknown search=unknown"},
		{"", "train-ai=unknown search=unknown"},
		{"train-ai=n # a comment is not part of it", "train-ai=n search=unknown"},
	} {
		for _, sem := range allSemantics {
			if got := usageOf(t, sem, "User-agent: *\nContent-Usage: "+c.stmt+"\n", "bot", "/x"); got != c.want {
				t.Errorf("%s %q: %q, want %q", sem, c.stmt, got, c.want)
			}
		}
	}
}

// docs/SEMANTICS.md section 7, "Which files": in RFC9309 a content-usage
// line ends the user-agent lines (so the second agent has a group of its
// own, without the usage line); in Google and Koster1996 it does not, and
// no crawl decision changes.
func TestAIPref_UsageLineGroupsBySemantics(t *testing.T) {
	body := "User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /x\n"
	for _, c := range []struct {
		sem      engine.Semantics
		aAllowed bool
		bUsage   string
	}{
		{engine.RFC9309, true, "train-ai=unknown search=unknown"},
		{engine.Google, false, "train-ai=n search=unknown"},
		{engine.Koster1996, false, "train-ai=n search=unknown"},
	} {
		r := engine.Compile([]byte(body), engine.Options{Semantics: c.sem})
		if got := r.Allowed("a", "/x"); got != c.aAllowed {
			t.Errorf("%s: a may fetch /x: %v, want %v", c.sem, got, c.aAllowed)
		}
		if got := r.Usage("b", "/y").String(); got != c.bUsage {
			t.Errorf("%s: b's usage of /y %q, want %q", c.sem, got, c.bUsage)
		}
	}
}

// docs/SEMANTICS.md section 7: paths are patterns of the semantics: '*'
// and '$' are wildcards in RFC9309 and Google, literal in Koster1996, where
// the longest match still decides usage; percent-encoding is normalised.
func TestKoster1996_UsagePatternsLiteral(t *testing.T) {
	body := "User-agent: *\nContent-Usage: /a*c train-ai=n\nContent-Usage: /caf%c3%a9 search=n\n"
	for _, c := range []struct {
		sem       engine.Semantics
		url, want string
	}{
		{engine.RFC9309, "/abc", "train-ai=n search=unknown"},
		{engine.Google, "/abc", "train-ai=n search=unknown"},
		{engine.Koster1996, "/abc", "train-ai=unknown search=unknown"},
		{engine.Koster1996, "/a*cd", "train-ai=n search=unknown"},
		{engine.RFC9309, "/caf%C3%A9", "train-ai=unknown search=n"},
		{engine.RFC9309, "/café", "train-ai=unknown search=n"},
	} {
		if got := usageOf(t, c.sem, body, "bot", c.url); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.sem, c.url, got, c.want)
		}
	}
}

// docs/SEMANTICS.md section 7, "Which categories": any key may be asked
// by name and is processed as the vocabulary's are; "Which URLs": a
// disallowed URL has no preference, a file without usage lines unknown.
func TestAIPref_ExtensionKeysAndNotApplicable(t *testing.T) {
	body := "User-agent: *\nDisallow: /private\nContent-Usage: x-genai=n, train-ai=y\nContent-Usage: /p x-genai=y\n"
	m := engine.Compile([]byte(body), engine.Options{}).Matcher("bot")
	for _, c := range []struct {
		url, key string
		want     engine.Preference
		line     int
	}{
		{"/a", "x-genai", engine.UsageDisallowed, 3},
		{"/pq", "x-genai", engine.UsageAllowed, 4},
		{"/pq", "train-ai", engine.UsageUnknown, 4},
		{"/a", "X-GenAI", engine.UsageUnknown, 3},
		{"/private/x", "x-genai", engine.UsageNotApplicable, 0},
	} {
		if got, line := m.UsageOf(c.url, c.key); got != c.want || line != c.line {
			t.Errorf("UsageOf(%s, %s) = %v line %d, want %v line %d", c.url, c.key, got, line, c.want, c.line)
		}
	}
	for i := range 20 { // more keys than a matcher keeps automata for
		key := fmt.Sprintf("k%d", i)
		if got, _ := m.UsageOf("/a", key); got != engine.UsageUnknown {
			t.Errorf("UsageOf(/a, %s) = %v", key, got)
		}
	}
	if got := m.Usage("/private/x"); got.Applicable() || got.String() != "-" {
		t.Errorf("disallowed URL: %+v", got)
	}
	none := engine.Compile([]byte("User-agent: *\nDisallow: /x\n"), engine.Options{}).Matcher("bot")
	if got := none.Usage("/a"); got != (engine.Usage{}) {
		t.Errorf("no usage lines: %+v, want unknown", got)
	}
	if got := engine.DisallowAll(engine.Options{}).Usage("bot", "/a"); got.Applicable() {
		t.Errorf("DisallowAll: %+v, want not applicable", got)
	}
}

// draft-ietf-aipref-attach-05 section 2 with draft-ietf-aipref-vocab
// section 5.1: a response's Content-Usage header combines with robots.txt's
// preference per category, the most restrictive winning.
func TestAIPref_HeaderCombines(t *testing.T) {
	m := engine.Compile([]byte("User-agent: *\nContent-Usage: train-ai=y\n"), engine.Options{}).Matcher("bot")
	u := m.Usage("/a")
	for _, c := range []struct {
		header []string
		want   string
	}{
		{nil, "train-ai=y search=unknown"},
		{[]string{"train-ai=n"}, "train-ai=n search=unknown"},
		{[]string{"search=y"}, "train-ai=y search=y"},
		{[]string{"search=y", "search=n"}, "train-ai=y search=n"}, // two field lines: one Dictionary, the last wins
		{[]string{"search=Y"}, "train-ai=y search=unknown"},
		{[]string{"TRAIN-AI=n"}, "train-ai=y search=unknown"}, // not a Dictionary: states nothing
	} {
		if got := u.WithHeader(c.header...).String(); got != c.want {
			t.Errorf("header %q: %q, want %q", c.header, got, c.want)
		}
	}
	if got := engine.StatementPreference("train-ai", "train-ai=n"); got != engine.UsageDisallowed {
		t.Errorf("StatementPreference: %v", got)
	}
}

// Deciding usage allocates nothing once the automata's states exist
// (engine's promise, as for Decide).
func TestAIPref_UsageAllocatesNothing(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector drops sync.Pool items, so the long path's buffer is allocated again")
	}
	body := "User-agent: *\nDisallow: /x\nContent-Usage: train-ai=n\nContent-Usage: /a* search=y\nContent-Usage: /b x=n\n"
	m := engine.Compile([]byte(body), engine.Options{}).Matcher("bot")
	long := "/a/" + strings.Repeat("%7e", 200)
	for _, url := range []string{"https://example.com/a/b?q", "/b/c", long} {
		m.Usage(url)
		m.UsageOf(url, "x")
		buf := make([]byte, 0, 64)
		if n := testing.AllocsPerRun(100, func() { m.Usage(url).AppendText(buf[:0]); m.UsageOf(url, "x") }); n != 0 {
			t.Errorf("%.40s: %v allocations a decision", url, n)
		}
	}
}

// A crawler that never asks for usage preferences pays nothing for the
// statements: a file's first decision allocates no more with 1,000
// content-usage lines than with 1,000 disallow lines (parsing the
// statements would cost thousands of allocations), and the first Usage
// parses them.
func TestAIPref_DecideParsesNoStatement(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector changes allocation counts from run to run")
	}
	var rules, usage strings.Builder
	rules.WriteString("User-agent: *\n")
	usage.WriteString("User-agent: *\n")
	for i := range 1000 {
		fmt.Fprintf(&rules, "Disallow: /p%d/train-ai=n,search=y\n", i)
		fmt.Fprintf(&usage, "Content-Usage: /p%d train-ai=n, search=y\n", i)
	}
	first := func(body string) func() {
		return func() { engine.Compile([]byte(body), engine.Options{}).Matcher("bot").Decide("https://example.com/p1") }
	}
	base := testing.AllocsPerRun(5, first(rules.String()))
	if n := testing.AllocsPerRun(5, first(usage.String())); n > base+2 {
		t.Errorf("a first decision allocates %v times with 1,000 content-usage lines, %v with 1,000 disallow lines", n, base)
	}
	m := engine.Compile([]byte(usage.String()), engine.Options{}).Matcher("bot")
	m.Decide("https://example.com/p1")
	before := m.Bytes()
	if u := m.Usage("https://example.com/p1"); u.TrainAI != engine.UsageDisallowed || u.Search != engine.UsageAllowed {
		t.Errorf("Usage: %v", u)
	}
	if after := m.Bytes(); after <= before {
		t.Errorf("Bytes %d before Usage, %d after: the usage automata are not counted, or were built before", before, after)
	}
}

// Dump lists a crawler's content-usage lines.
func TestAIPref_DumpListsUsageLines(t *testing.T) {
	m := engine.Compile([]byte("User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a* search=y\n"), engine.Options{}).Matcher("bot")
	d := m.Dump()
	for _, want := range []string{"line 2: (every path) train-ai=n\n", "line 3: /a* search=y\n"} {
		if !strings.Contains(d, want) {
			t.Errorf("Dump lacks %q:\n%s", want, d)
		}
	}
}
