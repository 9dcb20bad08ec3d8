package engine_test

import (
	"bufio"
	"encoding/json"
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
	// Invalid tokens name nothing.
	if d := r.MatcherChain("a/1", "a b").Decide("/a"); !d.Allowed {
		t.Errorf("invalid tokens selected a group: %+v", d)
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
