package engine_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
	"github.com/seed-275a9bd5/robotstxt/internal/race"
)

// sameFor fails t when the matcher of CompileFor differs from the one of
// Compile(...).Matcher for agents on body: in the selection it reports
// (group indexes in the whole file, rules, extensions), its content-usage
// lines, or a decision of one of urls.
func sameFor(t *testing.T, name string, body []byte, opts engine.Options, agents []string, urls []string) {
	t.Helper()
	want := engine.Compile(body, opts).Matcher(agents...)
	got := engine.CompileFor(body, opts, agents...)
	ws, gs := want.Selection(), got.Selection()
	if ws.Match != gs.Match || fmt.Sprint(ws.Groups) != fmt.Sprint(gs.Groups) || !ws.Rules.Equal(gs.Rules) || !ws.Extensions.Equal(gs.Extensions) {
		t.Errorf("%s (%s, %q): CompileFor selects %s %v, %v, %v; Compile %s %v, %v, %v", name, opts.Semantics, agents,
			gs.Match, gs.Groups, gs.Rules.Slice(), gs.Extensions.Slice(), ws.Match, ws.Groups, ws.Rules.Slice(), ws.Extensions.Slice())
		return
	}
	if w, g := fmt.Sprint(want.UsageRules()), fmt.Sprint(got.UsageRules()); w != g {
		t.Errorf("%s (%s, %q): CompileFor's usage lines %s, Compile's %s", name, opts.Semantics, agents, g, w)
	}
	if w, g := fmt.Sprint(want.Tokens()), fmt.Sprint(got.Tokens()); w != g {
		t.Errorf("%s (%s, %q): CompileFor's tokens %s, Compile's %s", name, opts.Semantics, agents, g, w)
	}
	for _, u := range urls {
		if w, g := want.Decide(u), got.Decide(u); w != g {
			t.Errorf("%s (%s, %q): CompileFor decides %q as %+v, Compile as %+v", name, opts.Semantics, agents, u, g, w)
		}
		if w, g := want.Usage(u), got.Usage(u); w != g {
			t.Errorf("%s (%s, %q): CompileFor's usage of %q %+v, Compile's %+v", name, opts.Semantics, agents, u, g, w)
		}
	}
}

// TestRFC9309_CompileForGrouping: the groups CompileFor keeps are those
// that docs/SEMANTICS.md sections 2.1-2.4 select: a group named by a token
// (merged, in file order, wherever it stands), else every "*" group; a
// line that is no rule between two user-agent lines joins them, so a
// group's extension lines before its last user-agent line are its own.
func TestRFC9309_CompileForGrouping(t *testing.T) {
	for _, tc := range []struct{ name, body string }{
		{"global before specific", "User-agent: *\nDisallow: /a\n\nUser-agent: FooBot\nDisallow: /b\n"},
		{"global after specific", "User-agent: FooBot\nDisallow: /b\n\nUser-agent: *\nDisallow: /a\n"},
		{"globals only", "User-agent: *\nDisallow: /a\n\nUser-agent: Other\nDisallow: /c\n\nUser-agent: *\nAllow: /a/b\n"},
		{"two specific groups merged", "User-agent: FooBot\nDisallow: /b\n\nUser-agent: *\nDisallow: /a\nUser-agent: foobot\nAllow: /b/c\nCrawl-delay: 3\n"},
		{"joined by an extension", "User-agent: a\nCrawl-delay: 5\nUser-agent: FooBot\nDisallow: /z\n"},
		{"joined by a sitemap", "User-agent: a\nSitemap: https://example.com/s.xml\nUser-agent: FooBot\nDisallow: /z\n"},
		{"joined by usage (not in RFC9309)", "User-agent: a\nContent-Usage: train-ai=n\nUser-agent: FooBot\nDisallow: /x\n"},
		{"named with a global line", "User-agent: *\nUser-agent: FooBot\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n"},
		{"no group", "Disallow: /x\nSitemap: https://example.com/s.xml\n"},
		{"agents only", "User-agent: FooBot\n"},
		{"empty disallow", "User-agent: FooBot\nDisallow:\n\nUser-agent: *\nDisallow: /\n"},
		{"usage lines", "User-agent: *\nContent-Usage: train-ai=n\nDisallow: /p\n\nUser-agent: FooBot\nContent-Usage: /a train-ai=y\nAllow: /\n"},
	} {
		urls := []string{"/", "/a", "/a/b", "/b", "/b/c", "/c", "/p", "/x", "/y", "/z", "/robots.txt"}
		for _, sem := range allSemantics {
			for _, agents := range [][]string{{"FooBot"}, {"Other"}, {"Nobody"}, {"FooBot", "Other"}, {"Mozilla/5.0 (compatible; FooBot/1.0)"}} {
				sameFor(t, tc.name, []byte(tc.body), engine.Options{Semantics: sem}, agents, urls)
			}
		}
	}
}

// TestKoster1996_CompileForDroppedRecord: in the 1996 draft a blank line
// ends a record, and a record of user-agent lines with no rule is dropped
// (docs/SEMANTICS.md section 2.1), so the crawler it named gets the "*"
// record: CompileFor must not take the dropped record for the crawler's.
func TestKoster1996_CompileForDroppedRecord(t *testing.T) {
	body := []byte("User-agent: FooBot\n\nUser-agent: *\nDisallow: /x\n")
	opts := engine.Options{Semantics: engine.Koster1996}
	if d := engine.CompileFor(body, opts, "FooBot").Decide("/x"); d.Allowed || d.Rule.Line != 4 {
		t.Errorf("CompileFor: /x decided %+v, want disallowed by line 4 (the dropped record leaves FooBot to *)", d)
	}
	sameFor(t, "dropped record", body, opts, []string{"FooBot"}, []string{"/x", "/y"})
}

// TestCompileFor_Generated compares CompileFor with Compile on generated
// files and the adversarial shapes (internal/gen), in every semantics,
// for several crawlers.
func TestCompileFor_Generated(t *testing.T) {
	bodies := map[string][]byte{
		"small":  gen.Robots(10, 1, false),
		"large":  gen.Robots(500, 2, true),
		"merged": gen.Robots(200, 4, true),
	}
	if !testing.Short() {
		for _, c := range gen.Adversarial(1) {
			bodies["adversarial/"+c.Name] = c.Body
		}
	}
	for name, body := range bodies {
		urls := gen.URLs(body, 30, 3)
		for _, sem := range allSemantics {
			for _, agents := range [][]string{{"Googlebot"}, {"bingbot"}, {"Googlebot-Image", "Googlebot"}} {
				sameFor(t, name, body, engine.Options{Semantics: sem}, agents, urls)
			}
		}
	}
}

// TestCompileFor_Allocs holds a crawler's first contact and its first 100
// URLs to an allocation budget, and to no more than Compile's.
func TestCompileFor_Allocs(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector's sync.Pool drops what it is given")
	}
	for _, tc := range []struct {
		name      string
		body      []byte
		first, of float64 // budgets: CompileFor and one decision; and 100 URLs
	}{
		{"small", gen.Robots(10, 1, false), 4, 9},
		{"large", gen.Robots(500, 2, true), 4, 16},
	} {
		urls := gen.URLs(tc.body, 100, 3)
		opts := engine.Options{Semantics: engine.Google}
		first := testing.AllocsPerRun(20, func() { engine.CompileFor(tc.body, opts, "Googlebot").Allowed(urls[0]) })
		all := testing.AllocsPerRun(20, func() {
			m := engine.CompileFor(tc.body, opts, "Googlebot")
			for _, u := range urls {
				m.Allowed(u)
			}
		})
		compiled := testing.AllocsPerRun(20, func() { engine.Compile(tc.body, opts).Matcher("Googlebot").Allowed(urls[0]) })
		t.Logf("%s: CompileFor and a URL %.0f, and 100 URLs %.0f allocations (Compile, Matcher and a URL %.0f)", tc.name, first, all, compiled)
		if first > tc.first || all > tc.of || first > compiled {
			t.Errorf("%s: %.0f and %.0f allocations, want at most %.0f and %.0f, and no more than Compile's %.0f", tc.name, first, all, tc.first, tc.of, compiled)
		}
	}
}

// TestCompileFor_Bytes: a matcher of CompileFor holds the part of the
// file it kept, and its Bytes counts it (a cache charges by Bytes): the
// crawler's rules' text, and not the other crawlers'.
func TestCompileFor_Bytes(t *testing.T) {
	rules := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "Disallow: /a-rather-long-directory-name/of-rule-%04d/\n", i)
		}
		return b.String()
	}
	small := engine.CompileFor([]byte("User-agent: FooBot\nDisallow: /x\n"), engine.Options{}, "FooBot")
	own := engine.CompileFor([]byte("User-agent: FooBot\n"+rules(100)), engine.Options{}, "FooBot")
	other := engine.CompileFor([]byte("User-agent: FooBot\nDisallow: /x\nUser-agent: BarBot\n"+rules(100)), engine.Options{}, "FooBot")
	if grew := own.Bytes() - small.Bytes(); grew < 100*40 {
		t.Errorf("100 rules of 50 bytes add %d bytes to a CompileFor matcher's Bytes, want at least 4,000", grew)
	}
	if grew := other.Bytes() - small.Bytes(); grew > 100 {
		t.Errorf("another crawler's 100 rules add %d bytes to a CompileFor matcher's Bytes, want none", grew)
	}
}

// TestCompileFor_Concurrent decides one fresh matcher's URLs from several
// goroutines at once (its first decisions, its index, its DFA): under
// -race this finds shared state written without synchronisation.
func TestCompileFor_Concurrent(t *testing.T) {
	body := gen.Robots(300, 2, true)
	urls := gen.URLs(body, 400, 3)
	want := engine.Compile(body, engine.Options{}).Matcher("Googlebot")
	for _, opts := range []engine.Options{{}, {WarmUp: -1}, {WarmUp: 50}} {
		m := engine.CompileFor(body, opts, "Googlebot")
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := g; i < len(urls); i += 2 {
					if got, w := m.Decide(urls[i]), want.Decide(urls[i]); got != w {
						t.Errorf("%+v: %q decided %+v, want %+v", opts, urls[i], got, w)
						return
					}
				}
			}()
		}
		wg.Wait()
	}
}

// TestCompileFor_NoTokens: no agent at all is the crawler no group names:
// the "*" groups apply, as for Compile(...).Matcher().
func TestCompileFor_NoTokens(t *testing.T) {
	body := []byte("User-agent: FooBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n")
	sameFor(t, "no tokens", body, engine.Options{}, nil, []string{"/a", "/b"})
	if d := engine.CompileFor(body, engine.Options{}).Decide("/b"); d.Allowed {
		t.Errorf("/b decided %+v, want disallowed by the * group", d)
	}
}

// TestGoogle_FirstDecisionIndexHTMWildcard: Google's index.htm rule makes
// "Allow: */index.html" allow every directory ("*/$", docs/SEMANTICS.md
// section 4.3); a matcher's first decision, which tries the rules without
// building their automaton, must match that pattern as the automaton
// does (glassdoor.com's robots.txt has such a rule).
func TestGoogle_FirstDecisionIndexHTMWildcard(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /\nAllow: */index.html\n")
	opts := engine.Options{Semantics: engine.Google}
	for _, u := range []string{"/", "/a/", "/a/b"} {
		first := engine.CompileFor(body, opts, "bot").Decide(u)
		m := engine.Compile(body, opts).Matcher("bot")
		m.Decide("/x") // the matcher's first decision: u is decided by its automaton
		if want := m.Decide(u); first != want {
			t.Errorf("%s: first decision %+v, automaton's %+v", u, first, want)
		}
	}
	if d := engine.CompileFor(body, opts, "bot").Decide("/a/"); !d.Allowed || d.Reason != engine.ReasonIndexHTM {
		t.Errorf("/a/: %+v, want allowed by the index.htm rule", d)
	}
}

// TestFirstDecision_PrefixReject: a first decision rejects a rule at its
// first byte that is no wildcard and differs from the path (or stands past
// its end), and then tries its index.htm directory only when that is a
// prefix of the path ending where the path ends. Each case's decision is
// the automaton's, in every semantics: a final '$' is no differing byte, a
// '*' of the path may have been matched by a wildcard of the rule, and a
// directory holding the differing byte cannot match.
func TestFirstDecision_PrefixReject(t *testing.T) {
	for _, tc := range []struct{ rules, url string }{
		{"Disallow: /\nAllow: /$", "/"},
		{"Disallow: /\nAllow: /$", "/a"},
		{"Disallow: /a*c", "/a*bc"},   // the rule's '*' matches the path's
		{"Disallow: /a*c", "/a*b"},    // and then differs
		{"Disallow: /a%2Ac", "/a*bc"}, // an escaped star is a byte
		{"Disallow: /\nAllow: /index.html", "/"},
		{"Disallow: /\nAllow: /a/index.htm", "/a/"},
		{"Disallow: /\nAllow: /a/index.htm", "/b/"},
		{"Disallow: /\nAllow: /a/index.htm", "/a/b/"},
		{"Disallow: /\nAllow: /a/b/index.html$", "/a/"},
		{"Disallow: /\nAllow: /*/index.html", "/x/"},
		{"Disallow: /\nAllow: /a*/index.html", "/a*/"},
		{"Disallow: /ab$\nAllow: /a", "/ab"},
		{"Disallow: /ab$\nAllow: /a", "/ab$"},
	} {
		body := []byte("User-agent: *\n" + tc.rules + "\n")
		for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
			opts := engine.Options{Semantics: sem}
			first := engine.CompileFor(body, opts, "bot").Decide(tc.url)
			m := engine.Compile(body, opts).Matcher("bot")
			m.Decide("/x") // the matcher's first decision: tc.url is decided by its automaton
			if want := m.Decide(tc.url); first != want {
				t.Errorf("%s, %q on %q: first decision %+v, automaton's %+v", sem, tc.rules, tc.url, first, want)
			}
		}
	}
}

// TestFirstDecision_Bounded: a matcher's first decision tries its rules in
// turn within a budget of bytes searched: the automaton's try budget for
// the URL, or 8 times the rules' text when that is more (LIMITS.md: bytes
// a first URL's tries may search). The budget counts the tries that match:
// 300 rules that each match a 4,000-byte URL and each outrank the one
// before ("/*a", "/*aa", ...) read the URL once a rule, 1.2 MB against a
// budget of 520 KB. The matcher decides such a URL as the automaton does.
func TestFirstDecision_Bounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 1; i <= 300; i++ {
		b.WriteString("Disallow: /*" + strings.Repeat("a", i) + "\n")
	}
	body := []byte(b.String())
	url := "/" + strings.Repeat("a", 4000)
	if engine.FirstTries(engine.CompileFor(body, engine.Options{}, "bot"), url) {
		t.Errorf("the first decision tried all 300 rules, each reading the URL: want it to pass the budget and leave the URL to the automaton")
	}
	if !engine.FirstTries(engine.CompileFor(body, engine.Options{}, "bot"), "/b") {
		t.Errorf("the first decision of /b passed the budget: want its rules tried in turn")
	}
	// 3,000 rules whose first 200 each match and outrank the one before
	// read 800 KB, more than the URL's budget, and less than 8 times
	// their 310 KB of text: the tries decide, without the automaton.
	var many strings.Builder
	many.WriteString("User-agent: *\n")
	for i := 1; i <= 3000; i++ {
		many.WriteString("Disallow: /*" + strings.Repeat("a", i%200+1) + "\n")
	}
	if !engine.FirstTries(engine.CompileFor([]byte(many.String()), engine.Options{}, "bot"), url) {
		t.Errorf("the first decision of 3,000 rules passed the budget of 8 times their text: want their tries to decide")
	}
	for _, sem := range allSemantics {
		m := engine.Compile(body, engine.Options{Semantics: sem}).Matcher("bot")
		m.Decide("/x") // the next decision is the automaton's
		want := m.Decide(url)
		if got := engine.CompileFor(body, engine.Options{Semantics: sem}, "bot").Decide(url); got != want {
			t.Errorf("%s: first decision %+v, automaton's %+v", sem, got, want)
		}
	}
}

// TestMatcher_IsFor checks that IsFor reads agents as CompileFor and
// Robots.Matcher read them, ignoring ASCII case only, and allocates
// nothing for product tokens.
func TestMatcher_IsFor(t *testing.T) {
	body := []byte("User-agent: FooBot\nDisallow: /\n")
	for _, c := range []struct {
		sem    engine.Semantics
		made   []string
		agents []string
		want   bool
	}{
		{engine.RFC9309, []string{"FooBot"}, []string{"FooBot"}, true},
		{engine.RFC9309, []string{"FooBot"}, []string{"foobot"}, true},
		{engine.RFC9309, []string{"FooBot"}, []string{"FooBot/1.0"}, true},
		{engine.RFC9309, []string{"FooBot/1.0 (+https://foo.example)"}, []string{"FooBot"}, true},
		{engine.RFC9309, []string{"FooBot"}, []string{"BarBot"}, false},
		{engine.RFC9309, []string{"FooBot"}, []string{"FooBot", "BarBot"}, false},
		{engine.RFC9309, []string{"FooBot", "BarBot"}, []string{"FooBot"}, false},
		{engine.RFC9309, []string{"FooBot", "BarBot"}, []string{"foobot", "BARBOT"}, true},
		{engine.RFC9309, []string{"FooBot", "BarBot"}, []string{"BarBot", "FooBot"}, false},
		{engine.RFC9309, []string{"FooBot"}, []string{""}, false},
		{engine.RFC9309, []string{"FooBot"}, []string{"*"}, false},
		{engine.RFC9309, []string{"FooBot"}, nil, false},
		{engine.RFC9309, []string{"FooBot"}, []string{"\u212aooBot"}, false}, // the Kelvin sign is no k
		{engine.Google, []string{"FooBot"}, []string{"FOOBOT"}, true},
		{engine.Google, []string{"FooBot"}, []string{"FooBot/1.0"}, false},
		{engine.Google, []string{"FooBot/1.0"}, []string{"foobot/1.0"}, true},
	} {
		for _, m := range []*engine.Matcher{
			engine.CompileFor(body, engine.Options{Semantics: c.sem}, c.made...),
			engine.Compile(body, engine.Options{Semantics: c.sem}).Matcher(c.made...),
			engine.AllowAll(engine.Options{Semantics: c.sem}).Matcher(c.made...),
		} {
			if got := m.IsFor(c.agents...); got != c.want {
				t.Errorf("%s: matcher of %q: IsFor(%q) = %v, want %v", c.sem, c.made, c.agents, got, c.want)
			}
		}
	}
	if race.Enabled {
		t.Skip("allocations are counted without -race")
	}
	m := engine.CompileFor(body, engine.Options{}, "FooBot")
	if n := testing.AllocsPerRun(100, func() { _ = m.IsFor("FooBot") || m.IsFor("foobot") || m.IsFor("BarBot") }); n != 0 {
		t.Errorf("IsFor: %v allocations, want 0", n)
	}
}
