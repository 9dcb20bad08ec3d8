package engine_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

// headerCase is one row of testdata/useragents/headers.tsv.
type headerCase struct {
	line   int
	about  string // the comment line above the row
	header string
	tokens []string
}

func readHeaders(t *testing.T) []headerCase {
	t.Helper()
	f, err := os.Open("../testdata/useragents/headers.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []headerCase
	sc := bufio.NewScanner(f)
	about := ""
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "#"):
			about = strings.TrimSpace(l[1:])
			continue
		case l == "":
			continue
		}
		header, toks, ok := strings.Cut(l, "\t")
		if !ok {
			t.Fatalf("headers.tsv:%d: no tab", n)
		}
		c := headerCase{line: n, about: about, header: header}
		if toks != "-" {
			c.tokens = strings.Fields(toks)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestProductTokens_Headers(t *testing.T) {
	cases := readHeaders(t)
	if len(cases) < 40 {
		t.Fatalf("only %d headers in the table", len(cases))
	}
	for _, c := range cases {
		got := engine.ProductTokens(c.header)
		if diff := cmp.Diff(c.tokens, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("headers.tsv:%d (%s): ProductTokens(%q) (-want +got):\n%s", c.line, c.about, c.header, diff)
		}
	}
}

func TestProductTokens_Bounded(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 1000; i++ {
		b.WriteString("bot")
		b.WriteByte(byte('a' + i%26))
		b.WriteByte(byte('a' + i/26%26))
		b.WriteString("bot/1.0 ")
	}
	if got := engine.ProductTokens(b.String()); len(got) != engine.MaxProductTokens {
		t.Errorf("got %d tokens, want MaxProductTokens = %d", len(got), engine.MaxProductTokens)
	}
	// Duplicates, in any case, count once.
	got := engine.ProductTokens("Googlebot/2.1 (compatible; googlebot; GOOGLEBOT/2.1)")
	if diff := cmp.Diff([]string{"Googlebot"}, got); diff != "" {
		t.Errorf("duplicates (-want +got):\n%s", diff)
	}
	// Unbalanced parentheses and stray separators do not confuse it.
	for _, h := range []string{"(((", ")))", ";;,,", "Mozilla/5.0 (compatible; Googlebot/2.1", "))Googlebot((", "/", "//"} {
		engine.ProductTokens(h)
	}
	if got := engine.ProductTokens("))Googlebot(("); len(got) != 1 || got[0] != "Googlebot" {
		t.Errorf(`"))Googlebot((": got %q`, got)
	}
}

func TestAppendProductTokens_NoAllocation(t *testing.T) {
	h := "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36"
	buf := make([]string, 0, engine.MaxProductTokens)
	var got []string
	allocs := testing.AllocsPerRun(100, func() {
		got = engine.AppendProductTokens(buf[:0], h)
	})
	if allocs != 0 {
		t.Errorf("AppendProductTokens: %v allocations, want 0", allocs)
	}
	if len(got) != 1 || got[0] != "bingbot" {
		t.Errorf("got %q", got)
	}
}

func TestFallbackTokens(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Googlebot-Image", []string{"Googlebot-Image", "Googlebot"}},
		{"AdsBot-Google-Mobile", []string{"AdsBot-Google-Mobile", "AdsBot-Google", "AdsBot"}},
		{"bingbot", []string{"bingbot"}},
		{"Googlebot-Image/1.0", []string{"Googlebot-Image", "Googlebot"}}, // cut first
		{"a--b", []string{"a--b", "a"}},
		{"-x", []string{"-x"}},
		{"x-", []string{"x-", "x"}},
		{"*", nil},
		{"", nil},
		{"360Spider", nil},
	} {
		got := engine.FallbackTokens(c.in)
		if diff := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("FallbackTokens(%q) (-want +got):\n%s", c.in, diff)
		}
	}
}

// googlePrecedence is the example of "Order of precedence for user agents"
// in Google's robots.txt documentation (and its older specification): groups 1, 2
// and 3 at lines 1, 4 and 7.
const googlePrecedence = `user-agent: googlebot-news
disallow: /group1

user-agent: *
disallow: /group2

user-agent: googlebot
disallow: /group3
`

// group returns which of the example's groups decided path for m.
func group(m *engine.Matcher, path string) int {
	d := m.Decide(path)
	return map[int]int{2: 1, 5: 2, 8: 3}[d.Rule.Line]
}

// TestGoogle_UserAgentPrecedence_MatcherChain checks the table of Google's
// specification ("Order of precedence for user agents"): only the most
// specific group applies; Googlebot Image has no group of its own and falls
// back to googlebot's; Googlebot News follows only group 1 (also when it
// crawls images); other crawlers follow "*".
func TestGoogle_UserAgentPrecedence_MatcherChain(t *testing.T) {
	r := engine.Compile([]byte(googlePrecedence), engine.Options{Semantics: engine.Google})
	for _, c := range []struct {
		crawler string
		chain   []string
		want    map[string]int // path -> the group that decides it (0: none)
	}{
		{"Googlebot News", engine.FallbackTokens("Googlebot-News"), map[string]int{"/group1": 1, "/group2": 0, "/group3": 0}},
		{"Googlebot (web)", engine.FallbackTokens("Googlebot"), map[string]int{"/group1": 0, "/group2": 0, "/group3": 3}},
		{"Googlebot Image", engine.FallbackTokens("Googlebot-Image"), map[string]int{"/group1": 0, "/group2": 0, "/group3": 3}},
		{"Googlebot News (images)", []string{"Googlebot-News", "Googlebot-Image", "Googlebot"}, map[string]int{"/group1": 1, "/group3": 0}},
		{"Storebot", engine.FallbackTokens("Storebot-Google"), map[string]int{"/group1": 0, "/group2": 2, "/group3": 0}},
		{"Otherbot", []string{"Otherbot"}, map[string]int{"/group2": 2}},
	} {
		m := r.MatcherChain(c.chain...)
		for path, want := range c.want {
			if got := group(m, path); got != want {
				t.Errorf("%s %q: %s decided by group %d, want group %d", c.crawler, c.chain, path, got, want)
			}
		}
	}
}

// TestRFC9309_Matcher_MergesEveryToken checks that Matcher, unlike
// MatcherChain, applies every group naming any of the tokens (docs/SEMANTICS.md
// section 2.4; RFC 9309 section 2.2.1 merges the groups of one crawler).
func TestRFC9309_Matcher_MergesEveryToken(t *testing.T) {
	r := engine.Compile([]byte(googlePrecedence), engine.Options{})
	m := r.Matcher(engine.FallbackTokens("Googlebot-News")...)
	if g1, g3 := group(m, "/group1"), group(m, "/group3"); g1 != 1 || g3 != 3 {
		t.Errorf("Matcher(Googlebot-News, Googlebot): groups %d and %d decide, want 1 and 3 merged", g1, g3)
	}
	// With a group for only one token of the chain, both agree.
	r = engine.Compile([]byte("user-agent: googlebot\ndisallow: /g\nuser-agent: *\ndisallow: /\n"), engine.Options{})
	chain := engine.FallbackTokens("Googlebot-Image")
	if a, b := r.Matcher(chain...).Decide("/g"), r.MatcherChain(chain...).Decide("/g"); a != b {
		t.Errorf("Matcher %+v, MatcherChain %+v", a, b)
	}
}

func TestMatcherChain_NoGroupNamesAny(t *testing.T) {
	r := engine.Compile([]byte("user-agent: a\ndisallow: /a\nuser-agent: *\ndisallow: /x\n"), engine.Options{})
	m := r.MatcherChain("b-c", "b")
	if d := m.Decide("/x"); d.Allowed || d.Rule.Line != 4 {
		t.Errorf("want the * group, got %+v", d)
	}
	if d := engine.AllowAll(engine.Options{}).MatcherChain("a").Decide("/x"); !d.Allowed {
		t.Errorf("AllowAll: %+v", d)
	}
	// Strings that are not tokens name nothing in Google; in RFC9309 they
	// are read as headers, whose token a names group 1.
	rg := engine.Compile([]byte("user-agent: a\ndisallow: /a\nuser-agent: *\ndisallow: /x\n"), engine.Options{Semantics: engine.Google})
	if d := rg.MatcherChain("a/1", "a b").Decide("/a"); !d.Allowed {
		t.Errorf("Google: strings that are not tokens selected a group: %+v", d)
	}
	if d := r.MatcherChain("b/1", "a/1").Decide("/a"); d.Allowed || d.Rule.Line != 2 {
		t.Errorf("RFC9309: a/1 did not stand for a in the chain: %+v", d)
	}
}

func TestMatcherChain_CachedNoAllocation(t *testing.T) {
	r := engine.Compile([]byte(googlePrecedence), engine.Options{})
	r.MatcherChain("Googlebot-Image", "Googlebot")
	allocs := testing.AllocsPerRun(100, func() { r.MatcherChain("Googlebot-Image", "Googlebot") })
	if allocs != 0 {
		t.Errorf("MatcherChain: %v allocations once cached, want 0", allocs)
	}
}

// crawlerList is one entry of the crawler-user-agents package's JSON list.
type crawlerList struct {
	Pattern   string   `json:"pattern"`
	Instances []string `json:"instances"`
}

// TestProductTokens_CrawlerUserAgents reads the list of real crawler headers
// of the npm package crawler-user-agents, when ROBOTSTXT_CRAWLER_USER_AGENTS
// names its crawler-user-agents.json (scripts/useragents.sh fetches it; its
// data is not copied into this repository). Nearly every header must yield a
// token, and for a crawler whose pattern is a plain name ("Googlebot\/",
// "bingbot") one that overlaps that name cut to [A-Za-z_-]. Some headers
// cannot be read by any rule (a host name or a bare URL as the header, the
// name only inside a URL), so a few percent may miss; each miss is logged.
func TestProductTokens_CrawlerUserAgents(t *testing.T) {
	path := os.Getenv("ROBOTSTXT_CRAWLER_USER_AGENTS")
	if path == "" {
		t.Skip("ROBOTSTXT_CRAWLER_USER_AGENTS is not set (see scripts/useragents.sh)")
	}
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var list []crawlerList
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	plain := regexp.MustCompile(`^\^?([A-Za-z][A-Za-z0-9_-]*)(\\/|/)?$`)
	headers, named, none, wrong := 0, 0, 0, 0
	for _, e := range list {
		want := ""
		if m := plain.FindStringSubmatch(e.Pattern); m != nil {
			want = cutToken(m[1])
		}
		for _, h := range e.Instances {
			headers++
			got := engine.ProductTokens(h)
			switch {
			case len(got) == 0:
				none++
				t.Logf("no token: pattern %q: %q", e.Pattern, h)
			case want != "":
				named++
				if !overlapsFold(got, want) {
					wrong++
					t.Logf("want %q: pattern %q: got %q from %q", want, e.Pattern, got, h)
				}
			}
		}
	}
	t.Logf("%d headers of %d crawlers: %d without a token; %d with a plain-name pattern, %d of them without that name",
		headers, len(list), none, named, wrong)
	// The list has headers no rule can read (a bare "Mozilla/5.0", URLs as
	// headers); a few percent may miss.
	if none*100 > headers*5 || wrong*100 > named*3 {
		t.Errorf("too many misses: %d of %d without a token, %d of %d without the pattern's name", none, headers, wrong, named)
	}
}

func cutToken(s string) string {
	n := 0
	for n < len(s) && (s[n]|0x20 >= 'a' && s[n]|0x20 <= 'z' || s[n] == '-' || s[n] == '_') {
		n++
	}
	return s[:n]
}

// overlapsFold reports whether a token of list contains s or is contained
// in it, ignoring case: the list's patterns match anywhere in the header
// ("msnbot" matches msnbot-media, "coccoc" matches coccocbot-web).
func overlapsFold(list []string, s string) bool {
	s = strings.ToLower(s)
	for _, t := range list {
		t = strings.ToLower(t)
		if strings.Contains(t, s) || strings.Contains(s, t) {
			return true
		}
	}
	return false
}

// issueRobots is the file of issue 31's first report: a crawler passing a
// version or a whole header got "allowed" where its group disallows.
const issueRobots = "User-agent: Googlebot\nDisallow: /g/\n\nUser-agent: *\nDisallow: /s/\n"

const googlebotHeader = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

// TestRFC9309_AgentNotAToken_ReadAsHeader: in RFC9309 and Koster1996 an
// agent that is not a product token is read as a User-Agent header, its
// product tokens (docs/SEMANTICS.md section 2.3), in every API that takes
// one: Allowed, Matcher, MatcherChain, Explain.
func TestRFC9309_AgentNotAToken_ReadAsHeader(t *testing.T) {
	for _, sem := range []engine.Semantics{engine.RFC9309, engine.Koster1996} {
		r := engine.Compile([]byte(issueRobots), engine.Options{Semantics: sem})
		for _, agent := range []string{"Googlebot/2.1", googlebotHeader, "googlebot/2.1 (+http://www.google.com/bot.html)", "Googlebot2"} {
			if r.Allowed(agent, "https://example.com/g/x") {
				t.Errorf("%s: Allowed(%q, /g/x) = true, want false: the Googlebot group disallows /g/", sem, agent)
			}
			if !r.Allowed(agent, "https://example.com/s/x") {
				t.Errorf("%s: Allowed(%q, /s/x) = false: the \"*\" group applied", sem, agent)
			}
			if got := r.Matcher(agent).Tokens(); len(got) != 1 || !strings.EqualFold(got[0], "Googlebot") {
				t.Errorf("%s: Matcher(%q).Tokens() = %q, want [Googlebot]", sem, agent, got)
			}
			if d := r.MatcherChain(agent, "Otherbot").Decide("/g/x"); d.Allowed {
				t.Errorf("%s: MatcherChain(%q, Otherbot) allowed /g/x", sem, agent)
			}
			e := r.Explain("/g/x", agent)
			if e.Decision.Allowed || !cmp.Equal(e.Given, []string{agent}) || !strings.Contains(strings.ToLower(e.String()), "read as a user-agent header, it stands for googlebot") {
				t.Errorf("%s: Explain(/g/x, %q): given %q\n%s", sem, agent, e.Given, e)
			}
		}
		// A header with no product token stands for none: the "*" group.
		if r.Allowed("Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/120.0", "/s/x") {
			t.Errorf("%s: a browser's header escaped the \"*\" group", sem)
		}
	}
}

// TestGoogle_AgentNotAToken_ComparedAsGiven: Google semantics compares the
// caller's string as given, as Google's library does
// (robots_test.cc, GoogleOnly_AcceptUserAgentUpToFirstSpace: "Foo" obeys
// the group of "User-Agent: Foo Bar", the caller's "Foo Bar" does not), and
// Explain says so.
func TestGoogle_AgentNotAToken_ComparedAsGiven(t *testing.T) {
	r := engine.Compile([]byte("User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n"), engine.Options{Semantics: engine.Google})
	const url = "http://foo.bar/x/y"
	if !r.Allowed("Foo", url) || r.Allowed("Foo Bar", url) {
		t.Errorf("Foo: %v, Foo Bar: %v; Google's library: true, false", r.Allowed("Foo", url), r.Allowed("Foo Bar", url))
	}
	g := engine.Compile([]byte(issueRobots), engine.Options{Semantics: engine.Google})
	for _, agent := range []string{"Googlebot/2.1", googlebotHeader} {
		if !g.Allowed(agent, "/g/x") {
			t.Errorf("Google: Allowed(%q, /g/x) = false; Google's library names no group with it", agent)
		}
		s := g.Explain("/g/x", agent).String()
		if !strings.Contains(s, "Google semantics compares it as given, as Google's library does, so it names no group (pass Googlebot)") {
			t.Errorf("Google: Explain(%q) does not say how the agent was read:\n%s", agent, s)
		}
	}
}

func TestAgentTokens(t *testing.T) {
	for _, c := range []struct {
		sem   engine.Semantics
		agent string
		want  []string
	}{
		{engine.RFC9309, "Googlebot", []string{"Googlebot"}},
		{engine.RFC9309, "", []string{""}},
		{engine.RFC9309, "*", []string{"*"}},
		{engine.RFC9309, "Googlebot/2.1", []string{"Googlebot"}},
		{engine.Koster1996, googlebotHeader, []string{"Googlebot"}},
		{engine.RFC9309, "MJ12bot", []string{"MJ"}},
		{engine.RFC9309, "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0 Safari/537.36", nil},
		{engine.Google, "Googlebot/2.1", []string{"Googlebot/2.1"}},
		{engine.Google, "Foo Bar", []string{"Foo Bar"}},
	} {
		if got := engine.AgentTokens(c.sem, c.agent); !cmp.Equal(got, c.want) {
			t.Errorf("AgentTokens(%s, %q) = %q, want %q", c.sem, c.agent, got, c.want)
		}
	}
}

func TestCheckAgent(t *testing.T) {
	for _, ok := range []string{"Googlebot", "Googlebot-Image", "", "*", "a_b"} {
		if err := engine.CheckAgent(ok); err != nil {
			t.Errorf("CheckAgent(%q) = %v", ok, err)
		}
	}
	for _, c := range []struct{ agent, want string }{
		{"FooBot/1.0", `agent "FooBot/1.0" is not a product token (letters, '-' and '_'), which a robots.txt names crawlers by: pass its product token FooBot, and send the whole string as the User-Agent header`},
		{googlebotHeader, "pass its product token Googlebot, and send the whole string"},
		{"Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/120.0", "it holds none; pass the crawler's token"},
		{"MJ12bot", "pass its product token MJ"},
	} {
		err := engine.CheckAgent(c.agent)
		var ae *engine.AgentError
		if !errors.As(err, &ae) || ae.Agent != c.agent || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckAgent(%q) = %v, want an *AgentError with %q", c.agent, err, c.want)
		}
	}
	if err := engine.CheckAgent(strings.Repeat("x/", 10000)); len(err.Error()) > 600 {
		t.Errorf("the error of a huge agent is %d bytes long", len(err.Error()))
	}
}

// TestFold_ASCIIOnly: the header readers ignore ASCII case and nothing
// more; OR-ing 0x20 would also take a control byte for '.' or '-'.
func TestFold_ASCIIOnly(t *testing.T) {
	for _, tc := range []struct {
		s, sub string
		want   int
	}{
		{"WWW.example", "www.", 0},
		{"www\x0eexample", "www.", -1},
		{"Foo-Bot", "o-bot", 2},
		{"Foo\rBot", "o-bot", -1},
		{"MyCRAWLer", "crawl", 2},
	} {
		if got := engine.IndexFold(tc.s, tc.sub); got != tc.want {
			t.Errorf("indexFold(%q, %q) = %d, want %d", tc.s, tc.sub, got, tc.want)
		}
		if got := engine.HasPrefixFold(tc.s, tc.sub); got != (tc.want == 0) {
			t.Errorf("hasPrefixFold(%q, %q) = %v", tc.s, tc.sub, got)
		}
	}
}
