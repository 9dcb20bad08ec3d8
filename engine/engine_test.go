package engine_test

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
	"github.com/seed-275a9bd5/robotstxt/internal/race"
	"github.com/seed-275a9bd5/robotstxt/internal/reference"
)

// runTable runs the engine-independent conformance table (the JSON table
// and reference.BuiltCases) against the engine, for one semantics: the
// matcher of Compile(...).Matcher, and the one of CompileFor, which must
// give the same outcome.
func runTable(t *testing.T, sem compile.Semantics) {
	outcome := func(c reference.Case, m *engine.Matcher) reference.Outcome {
		d := m.Decide(c.URL)
		if a := m.Allowed(c.URL); a != d.Allowed {
			t.Errorf("%s: Allowed(%q) = %v, Decide says %v", c.Name, c.URL, a, d.Allowed)
		}
		u := m.Usage(c.URL).WithHeader(c.Header...)
		return reference.Outcome{Allowed: d.Allowed, Line: d.Rule.Line, Usage: u.String(),
			Why: fmt.Sprintf("%s; usage lines %d %d", d.Reason, u.TrainAILine, u.SearchLine)}
	}
	reference.RunConformance(t, "../testdata/conformance.json", sem, func(c reference.Case) reference.Outcome {
		opts := engine.Options{Semantics: sem}
		o := outcome(c, engine.Compile(c.Body(), opts).Matcher(c.Agents...))
		if of := outcome(c, engine.CompileFor(c.Body(), opts, c.Agents...)); of != o {
			t.Errorf("%s: CompileFor's outcome %+v, Compile's %+v", c.Name, of, o)
		}
		return o
	})
}

func TestRFC9309_ConformanceTable(t *testing.T)    { runTable(t, engine.RFC9309) }
func TestGoogle_ConformanceTable(t *testing.T)     { runTable(t, engine.Google) }
func TestKoster1996_ConformanceTable(t *testing.T) { runTable(t, engine.Koster1996) }

// TestEngineMatchesReference_GeneratedURLs compares the engine with the
// reference matcher on every table body, for URLs made from its patterns:
// decisions and usage preferences.
func TestEngineMatchesReference_TableBodies(t *testing.T) {
	cases, err := reference.LoadConformance("../testdata/conformance.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		for _, sem := range []compile.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
			body := c.Body()
			r := engine.Compile(body, engine.Options{Semantics: sem})
			urls := append([]string{c.URL}, reference.URLsFromPatterns(r.File(), 3)...)
			mf := engine.CompileFor(body, engine.Options{Semantics: sem}, c.Agents...)
			for _, u := range urls {
				got := r.Matcher(c.Agents...).Decide(u)
				want := reference.Decide(body, c.Agents, u, sem)
				if gf := mf.Decide(u); gf != got {
					t.Errorf("%s: CompileFor decides %q in %s as %+v, Compile as %+v", c.Name, u, sem, gf, got)
				}
				if a := r.Matcher(c.Agents...).Allowed(u); a != want.Allowed {
					t.Errorf("%s: Allowed(%q) = %v in %s, reference %v", c.Name, u, a, sem, want.Allowed)
				}
				if got.Allowed != want.Allowed || got.Rule.Line != want.Line {
					t.Errorf("%s: engine and reference disagree on %q in %s: engine allowed=%v line=%d, reference allowed=%v line=%d\n%s",
						c.Name, u, sem, got.Allowed, got.Rule.Line, want.Allowed, want.Line, reference.Reproducer(body, c.Agents, u, sem))
				}
				gu, wu := r.Matcher(c.Agents...).Usage(u), reference.Usage(body, c.Agents, u, sem)
				if gu.String() != wu.String() || gu.TrainAILine != wu.TrainAILine || gu.SearchLine != wu.SearchLine {
					t.Errorf("%s: engine and reference disagree on the usage of %q in %s: engine %s lines %d %d, reference %s lines %d %d\n%s",
						c.Name, u, sem, gu, gu.TrainAILine, gu.SearchLine, wu, wu.TrainAILine, wu.SearchLine, reference.Reproducer(body, c.Agents, u, sem))
				}
			}
		}
	}
}

// TestRFC9309_RobotsTxtAlwaysAllowed: RFC 9309 section 2.2.? "/robots.txt"
// is implicitly allowed; docs/SEMANTICS.md section 4.2.
func TestRFC9309_RobotsTxtAlwaysAllowed(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /\n")
	for _, u := range []string{"/robots.txt", "http://example.com/robots.txt", "/robots%2Etxt"} {
		d := engine.Compile(body, engine.Options{}).Matcher("bot").Decide(u)
		if !d.Allowed || d.Reason != engine.ReasonRobotsTxt {
			t.Errorf("%s: %+v, want allowed by the robots.txt rule", u, d)
		}
	}
	// Not in Google semantics, and not for other paths.
	if d := engine.Compile(body, engine.Options{Semantics: engine.Google}).Matcher("bot").Decide("/robots.txt"); d.Allowed {
		t.Errorf("Google: /robots.txt allowed: %+v", d)
	}
	if d := engine.Compile(body, engine.Options{}).Matcher("bot").Decide("/robots.txt?x"); d.Allowed {
		t.Errorf("RFC9309: /robots.txt?x allowed: %+v", d)
	}
}

// TestGoogle_IndexHTM: Google's library lets "Allow: /d/index.html" allow
// "/d/" exactly; docs/SEMANTICS.md section 4.3.
func TestGoogle_IndexHTM(t *testing.T) {
	r := engine.Compile([]byte("User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n"), engine.Options{Semantics: engine.Google})
	m := r.Matcher("bot")
	for u, want := range map[string]bool{"/d/": true, "/d/index.html": true, "/d/x": false, "/d/?q": false} {
		if d := m.Decide(u); d.Allowed != want {
			t.Errorf("%s: %+v, want allowed=%v", u, d, want)
		}
	}
	if d := m.Decide("/d/"); d.Reason != engine.ReasonIndexHTM || d.Rule.Line != 3 || d.Rule.Pattern != "/d/$" {
		t.Errorf("/d/ decided by %+v", d)
	}
	// Not in RFC9309.
	if d := engine.Compile([]byte("User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n"), engine.Options{}).Matcher("bot").Decide("/d/"); d.Allowed {
		t.Errorf("RFC9309 allowed /d/: %+v", d)
	}
}

func TestAllowAllDisallowAll(t *testing.T) {
	if d := engine.AllowAll(engine.Options{}).Matcher("x").Decide("/a"); !d.Allowed || d.Reason != engine.ReasonAllowAll {
		t.Errorf("AllowAll: %+v", d)
	}
	if d := engine.DisallowAll(engine.Options{}).Matcher("x").Decide("/robots.txt"); d.Allowed || d.Reason != engine.ReasonDisallowAll {
		t.Errorf("DisallowAll: %+v", d)
	}
}

var allocBody = []byte(`User-agent: *
Disallow: /private/
Allow: /private/public$
Disallow: /*.pdf$
Disallow: /*?session=
Allow: /
User-agent: Googlebot
Disallow: /nogoogle
`)

// TestDecide_NoAllocs asserts the decision path allocates nothing, also for
// URLs that must be rewritten and paths that need a leading slash (a long one
// is written into a buffer from a sync.Pool).
func TestDecide_NoAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("-race: sync.Pool drops buffers at random to find races; the count is checked without -race")
	}
	for _, sem := range []compile.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
		m := engine.Compile(allocBody, engine.Options{Semantics: sem}).Matcher("Googlebot-Image", "Googlebot")
		r := engine.Compile(allocBody, engine.Options{Semantics: sem})
		r.Allowed("bot", "/") // build and cache
		long := "https://example.com/" + strings.Repeat("caf%c3%a9/%7Euser/", 40) + "?q=*$"
		for _, u := range []string{
			"https://example.com/private/public",
			"/a/b/c.pdf",
			"http://example.com?session=1",
			"https://user:pw@[::1]:8080/~joe/%7Ejoe/ä?x#frag",
			long,
		} {
			if a := testing.AllocsPerRun(50, func() { m.Decide(u); m.DecidePath(u); m.Allowed(u); r.Allowed("bot", u) }); a != 0 {
				t.Errorf("%s: Decide(%q) allocates %v", sem, u, a)
			}
		}
	}
}

// TestConcurrentMatchers decides from many goroutines while matchers are
// built lazily; run with -race.
func TestConcurrentMatchers(t *testing.T) {
	r := engine.Compile(allocBody, engine.Options{})
	agents := []string{"Googlebot", "bingbot", "x", "Googlebot", "*"}
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				a := agents[(g+i)%len(agents)]
				got := r.Allowed(a, "/private/x")
				want := a == "Googlebot" // Googlebot's group does not disallow /private/
				if got != want {
					t.Errorf("agent %s: allowed=%v", a, got)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}

// TestMatcherCacheBounded checks that distinct agents beyond
// MaxCachedMatchers still get correct matchers.
func TestMatcherCacheBounded(t *testing.T) {
	r := engine.Compile(allocBody, engine.Options{})
	for i := 0; i < engine.MaxCachedMatchers*3; i++ {
		if r.Allowed(fmt.Sprintf("bot%d", i), "/private/x") {
			t.Fatal("wrong decision past the cache bound")
		}
	}
	// Past the bound, a token not cached still gets its own group: the
	// Googlebot group does not disallow /private/.
	for i := 0; i < 3; i++ {
		if !r.Allowed("Googlebot", "/private/x") || r.Allowed(fmt.Sprintf("bot%d", i), "/private/x") {
			t.Fatal("a matcher built past the cache bound selected the wrong group")
		}
	}
}

// TestMatcher_String: String is one short line fit for a log (issue 31:
// fmt.Println(m) printed over 300 patterns and the automaton for
// google.com); Dump is the whole listing.
func TestMatcher_String(t *testing.T) {
	m := engine.Compile(allocBody, engine.Options{}).Matcher("bot")
	d := m.Dump()
	for _, want := range []string{"selected: global", "line 3: allow /private/public$", "automaton (the states built so far"} {
		if !strings.Contains(d, want) {
			t.Errorf("Dump lacks %q:\n%s", want, d)
		}
	}
	var big strings.Builder
	big.WriteString("User-agent: Googlebot\nUser-agent: *\n")
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&big, "Disallow: /*/path-%d/*.php$\n", i)
	}
	r := engine.Compile([]byte(big.String()), engine.Options{Semantics: engine.Google})
	m = r.Matcher("Googlebot", "Googlebot-Image")
	m.Decide("/a/path-7/b.php")
	for _, c := range []struct{ got, want string }{
		{fmt.Sprint(m), fmt.Sprintf("engine.Matcher{google [Googlebot Googlebot-Image] specific: 1 group, 400 rules, %d bytes}", m.Bytes())},
		{fmt.Sprintf("%v", r), fmt.Sprintf("engine.Robots{google 1 group, 400 rules, 0 sitemaps, %d bytes}", r.Bytes())},
		{engine.AllowAll(engine.Options{}).String(), "engine.Robots{rfc9309 allow-all}"},
		{engine.DisallowAll(engine.Options{}).Matcher("").String(), `engine.Matcher{rfc9309 [""] disallow-all, 0 rules, ` + strconv.Itoa(engine.DisallowAll(engine.Options{}).Matcher("").Bytes()) + " bytes}"},
		{engine.Compile([]byte("Disallow: /\n"), engine.Options{}).String(), "engine.Robots{rfc9309 0 groups, 0 rules, 0 sitemaps, 1 warning, "},
	} {
		if !strings.HasPrefix(c.got, c.want) || strings.Contains(c.got, "\n") || len(c.got) > 120 {
			t.Errorf("String() = %q, want %q", c.got, c.want)
		}
	}
	if n := len(m.Dump()); n < 10000 {
		t.Errorf("Dump is %d bytes: not the whole listing", n)
	}
}

// TestRFC9309_DecidePathEndsAtFragment: the path is path + params + query,
// never the fragment (docs/SEMANTICS.md section 3.3), so DecidePath stops at '#' as Decide
// does, in every semantics. Google's automata stop at the '#' themselves
// (automaton.Options.End); the others cut the path first.
func TestRFC9309_DecidePathEndsAtFragment(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /a*b\nDisallow: /c$\nAllow: /c/\n")
	for _, sem := range []compile.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
		m := engine.Compile(body, engine.Options{Semantics: sem}).Matcher("bot")
		for _, c := range []struct{ path, same string }{
			{"/a#b", "/a"},
			{"/ax#/b", "/ax"},
			{"/c#", "/c"},
			{"/c/#x", "/c/"},
			{"/%61#b", "/%61"},
		} {
			got, want := m.DecidePath(c.path), m.DecidePath(c.same)
			if got != want {
				t.Errorf("%s: DecidePath(%q) = %+v, want DecidePath(%q) = %+v", sem, c.path, got, c.same, want)
			}
			if got, want := m.Decide("http://example.com"+c.path), m.Decide("http://example.com"+c.same); got != want {
				t.Errorf("%s: Decide(%q) = %+v, want %+v", sem, c.path, got, want)
			}
		}
	}
}

// TestMatcher_SameMatcherPerAgent: Matcher returns the one cached matcher of
// an agent whichever agent was asked for last (the one-entry shortcut in
// front of the cache must never answer for another agent).
func TestMatcher_SameMatcherPerAgent(t *testing.T) {
	r := engine.Compile(allocBody, engine.Options{})
	g, b := r.Matcher("Googlebot"), r.Matcher("bingbot")
	if g == b {
		t.Fatal("two agents with different groups share a matcher")
	}
	for i := 0; i < 4; i++ {
		if r.Matcher("Googlebot") != g || r.Matcher("bingbot") != b {
			t.Fatalf("round %d: Matcher no longer returns the cached matchers", i)
		}
		if !r.Allowed("Googlebot", "/private/x") || r.Allowed("bingbot", "/private/x") {
			t.Fatalf("round %d: a decision used the other agent's rules", i)
		}
	}
	if m := r.Matcher("Googlebot", "bingbot"); m == g || m == b {
		t.Error("a two-token matcher is one of the one-token matchers")
	}
	if a := testing.AllocsPerRun(100, func() { r.Allowed("Googlebot", "/a"); r.Allowed("bingbot", "/a") }); a != 0 {
		t.Errorf("Allowed with alternating cached agents allocates %v", a)
	}
}

// TestConcurrentLazyStates decides different URL streams from 8 goroutines
// on one fresh matcher, so that they build its states at the same time (and,
// with a small cache, clear it under each other), and compares every answer
// with the reference matcher. Run with -race: the scan reads transitions
// that other goroutines are writing.
func TestConcurrentLazyStates(t *testing.T) {
	const goroutines = 8
	files, urlsPer := 12, 150
	if testing.Short() {
		files, urlsPer = 4, 60
	}
	for f := 0; f < files; f++ {
		body := gen.Robots(40+f*25, int64(f), true)
		urls := gen.URLs(body, goroutines*urlsPer, int64(f))
		for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
			want := make([]reference.Result, len(urls))
			for i, u := range urls {
				want[i] = reference.Decide(body, []string{"Googlebot"}, u, sem)
			}
			// The default options (the linear engine's tries, then the
			// DFA); the DFA from the first URL with its default cache and
			// with a tiny one that empties; no DFA (the linear engine, and
			// its piece matcher, from a shared scratch pool); the piece
			// matcher alone.
			for _, o := range []struct{ cache, warmUp int }{{0, 0}, {0, -1}, {2 << 10, -1}, {-1, 0}, {-1, -1}} {
				m := engine.Compile(body, engine.Options{Semantics: sem, CacheBytes: o.cache, WarmUp: o.warmUp}).Matcher("Googlebot")
				var wg sync.WaitGroup
				for g := 0; g < goroutines; g++ {
					wg.Add(1)
					go func(g int) {
						defer wg.Done()
						bad := 0
						// Each goroutine starts at another place of the list and
						// walks it with its own stride: different streams.
						for k := 0; k < len(urls); k++ {
							i := (g*len(urls)/goroutines + k*(2*g+1)) % len(urls)
							got := m.Decide(urls[i])
							if got.Allowed != want[i].Allowed || got.Rule.Line != want[i].Line {
								if bad++; bad <= 3 {
									t.Errorf("file %d %s cache %d warm-up %d goroutine %d: Decide(%q) = allowed %v line %d, reference allowed %v line %d",
										f, sem, o.cache, o.warmUp, g, urls[i], got.Allowed, got.Rule.Line, want[i].Allowed, want[i].Line)
								}
							}
						}
					}(g)
				}
				wg.Wait()
			}
		}
	}
}

// TestDecide_LongPathDecidedOnPrefix: a path whose canonical form may not
// fit the stack buffer is normalised first in part (some 85 bytes), and
// the rest only when that part does not decide. Escapes placed across the
// cut, and rules deciding before, at and after it, must give the
// reference's answers in every semantics.
func TestDecide_LongPathDecidedOnPrefix(t *testing.T) {
	var rules strings.Builder
	rules.WriteString("User-agent: *\nDisallow: /a\nAllow: /aA\n")
	for n := 76; n <= 92; n++ {
		fmt.Fprintf(&rules, "Disallow: /b%s\nAllow: /b%sA\nDisallow: /c%s$\n", strings.Repeat("x", n), strings.Repeat("x", n), strings.Repeat("x", n))
	}
	body := []byte(rules.String())
	var urls []string
	for _, head := range []string{"/a", "/b", "/c"} {
		for at := 78; at <= 90; at++ {
			for _, esc := range []string{"%41", "%4", "%", "%%41", "%e2%82%ac", "*", "$", "\xc3\xa9"} {
				p := head + strings.Repeat("x", at-len(head)) + esc
				urls = append(urls, "https://example.com"+p, "https://example.com"+p+strings.Repeat("x", 300), "https://example.com"+p+"A"+strings.Repeat("y", 300))
			}
		}
	}
	for _, sem := range []compile.Semantics{compile.RFC9309, compile.Google, compile.Koster1996} {
		m := engine.Compile(body, engine.Options{Semantics: sem}).Matcher("bot")
		for _, u := range urls {
			got, want := m.Decide(u), reference.Decide(body, []string{"bot"}, u, sem)
			if got.Allowed != want.Allowed || got.Rule.Line != want.Line {
				t.Errorf("%s %.120q: allowed %v by line %d, reference %v by line %d", sem, u, got.Allowed, got.Rule.Line, want.Allowed, want.Line)
			}
		}
	}
}

// TestMatcher_WideRuleRefs checks a selection of more than 32,767 rules,
// whose matcher keeps each pattern's rule in 32 bits rather than 16: the
// deciding rule's line, and Google's index.htm rule (a negative ref), come
// out as with few rules.
func TestMatcher_WideRuleRefs(t *testing.T) {
	for _, n := range []int{100, 40000} {
		var b strings.Builder
		b.WriteString("User-agent: *\n")
		for i := range n {
			fmt.Fprintf(&b, "Disallow:/%d/\n", i)
		}
		b.WriteString("Allow:/7/index.htm\n")
		m := engine.Compile([]byte(b.String()), engine.Options{Semantics: engine.Google, MaxFileSize: 1 << 20}).Matcher("Googlebot")
		last := n - 1
		if d := m.Decide(fmt.Sprintf("https://example.com/%d/x", last)); d.Allowed || d.Rule.Line != last+2 {
			t.Errorf("%d rules: /%d/x decided %+v, want the disallow on line %d", n, last, d, last+2)
		}
		if d := m.Decide("https://example.com/7/"); !d.Allowed || d.Reason != engine.ReasonIndexHTM || d.Rule.Line != n+2 {
			t.Errorf("%d rules: /7/ decided %+v, want the index.htm rule of line %d", n, d, n+2)
		}
		if !m.Allowed("https://example.com/7/") || m.Allowed("https://example.com/7/x") {
			t.Errorf("%d rules: Allowed disagrees with Decide", n)
		}
	}
}

// TestMatcher_CacheKeyPerTokenList: every list of tokens has a cached
// matcher of its own, whatever bytes the tokens hold (a NUL, a length
// byte, the whole key of another list), and it decides as a fresh Robots'
// matcher for that list does, whichever list was asked for first.
func TestMatcher_CacheKeyPerTokenList(t *testing.T) {
	body := []byte("User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /y\n\nUser-agent: *\nDisallow: /z\n")
	lists := [][]string{
		{}, {""}, {"", ""}, {"*"},
		{"a", "b"}, {"a\x00b"}, {"\x00a\x00b"}, {"a", "\x00b"}, {"a\x00", "b"},
		{"\x01a\x01b"}, {"\x01a", "\x01b"}, {"a", "b", ""}, {"", "a", "b"},
		{"a"}, {"b"}, {"b", "a"}, {"a", "a"}, {"\x02ab"}, {"ab"}, {"\xff\x00"},
		{"Googlebot/2.1 (+http://www.google.com/bot.html)"}, {"a b"}, {"a", " b"},
	}
	for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
		for _, order := range []string{"forward", "backward"} {
			r := engine.Compile(body, engine.Options{Semantics: sem})
			seen := map[*engine.Matcher]int{}
			for k := range lists {
				i := k
				if order == "backward" {
					i = len(lists) - 1 - k
				}
				m := r.Matcher(lists[i]...)
				if j, ok := seen[m]; ok {
					t.Errorf("%s %s: Matcher(%q) is the cached matcher of Matcher(%q)", sem, order, lists[i], lists[j])
				}
				seen[m] = i
				fresh := engine.Compile(body, engine.Options{Semantics: sem}).Matcher(lists[i]...)
				for _, p := range []string{"/x", "/y", "/z", "/w"} {
					if got, want := m.Decide(p), fresh.Decide(p); got != want {
						t.Errorf("%s %s: Matcher(%q).Decide(%q) = %+v, a fresh one's %+v", sem, order, lists[i], p, got, want)
					}
				}
			}
			for i, l := range lists {
				if m := r.Matcher(l...); seen[m] != i {
					t.Errorf("%s %s: Matcher(%q) asked again returns another matcher", sem, order, l)
				}
			}
		}
	}
}
