package compile

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const selectBody = `# line 1
User-agent: *
Disallow: /global1
Crawl-delay: 1

User-agent: FooBot/2.1
User-agent: barbot
Disallow: /foo1

User-agent: *
Allow: /global2

User-agent: foobot
Allow: /foo2
Crawl-delay: 2

User-agent: EmptyBot
Disallow:

User-agent: *foo
User-agent: Baz Qux
Disallow: /baz

User-agent: Googlebot-Image
Disallow: /images
User-agent: Googlebot2
Disallow: /google
`

type selectCase struct {
	name   string
	tokens []string
	match  MatchKind
	groups []int
	rules  []string // "line value"
	exts   []string
}

func selectCases() []selectCase {
	global := selectCase{match: MatchGlobal, groups: []int{0, 2}, rules: []string{"3 /global1", "11 /global2"}, exts: []string{"4 1"}}
	withName := func(name string, tokens ...string) selectCase {
		c := global
		c.name, c.tokens = name, tokens
		return c
	}
	return []selectCase{
		{name: "specific groups merged in file order", tokens: []string{"FooBot"}, match: MatchSpecific,
			groups: []int{1, 3}, rules: []string{"8 /foo1", "14 /foo2"}, exts: []string{"15 2"}},
		{name: "case-insensitive", tokens: []string{"FOOBOT"}, match: MatchSpecific,
			groups: []int{1, 3}, rules: []string{"8 /foo1", "14 /foo2"}, exts: []string{"15 2"}},
		{name: "second agent of a group", tokens: []string{"BarBot"}, match: MatchSpecific,
			groups: []int{1}, rules: []string{"8 /foo1"}},
		{name: "specific group without rules replaces *", tokens: []string{"emptybot"}, match: MatchSpecific,
			groups: []int{4}},
		{name: "value cut at white space", tokens: []string{"baz"}, match: MatchSpecific,
			groups: []int{5}, rules: []string{"22 /baz"}},
		{name: "value cut at a digit", tokens: []string{"googlebot"}, match: MatchSpecific,
			groups: []int{7}, rules: []string{"27 /google"}},
		{name: "any of several tokens", tokens: []string{"Googlebot-Image", "Googlebot"}, match: MatchSpecific,
			groups: []int{6, 7}, rules: []string{"25 /images", "27 /google"}},
		{name: "tokens of several groups", tokens: []string{"barbot", "baz"}, match: MatchSpecific,
			groups: []int{1, 5}, rules: []string{"8 /foo1", "22 /baz"}},
		{name: "invalid token next to a valid one", tokens: []string{"Googlebot/2.1", "baz"}, match: MatchSpecific,
			groups: []int{5}, rules: []string{"22 /baz"}},
		withName("no group names the token", "OtherBot"),
		withName("no tokens"),
		withName("prefix of a name is not the name", "Foo"),
		withName("name is not a prefix of the token", "FooBotX"),
		withName("invalid token", "FooBot/2.1"),
		withName("star is not a token", "*"),
		withName("*foo names nothing", "*foo"),
		withName("empty token", ""),
		withName("qux is not the name", "Qux"),
	}
}

// RFC 9309 section 2.2.1 (the matching groups' rules are combined; matching
// is case-insensitive; otherwise the "*" groups) and Google's "order of
// precedence for user agents"; docs/SEMANTICS.md section 2.3.
func TestRFC9309_Select(t *testing.T) {
	f := Parse([]byte(selectBody), Options{})
	for _, tc := range selectCases() {
		t.Run(tc.name, func(t *testing.T) {
			sel := f.Select(tc.tokens...)
			got := selectCase{name: tc.name, tokens: tc.tokens, match: sel.Match, groups: sel.Groups}
			for _, r := range sel.Rules.Slice() {
				got.rules = append(got.rules, strconv.Itoa(r.Line)+" "+r.Value)
			}
			for _, e := range sel.Extensions.Slice() {
				got.exts = append(got.exts, strconv.Itoa(e.Line)+" "+e.Value)
			}
			if diff := cmp.Diff(tc, got, cmp.AllowUnexported(selectCase{})); diff != "" {
				t.Errorf("Select(%q) (-want +got):\n%s", tc.tokens, diff)
			}
		})
	}
}

// TestSelectInto checks that SelectInto selects as Select does, with the
// selected groups' indexes in the buffer it is given when they fit, and
// nil when none is selected.
func TestSelectInto(t *testing.T) {
	f := Parse([]byte(selectBody), Options{})
	for _, tc := range selectCases() {
		var buf [1]int
		got, want := f.SelectInto(buf[:0], tc.tokens...), f.Select(tc.tokens...)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("SelectInto(%q) (-Select +SelectInto):\n%s", tc.tokens, diff)
		}
		if inBuf := len(got.Groups) > 0 && &got.Groups[0] == &buf[0]; inBuf != (len(got.Groups) == 1) {
			t.Errorf("SelectInto(%q): %d groups, in the buffer: %v", tc.tokens, len(got.Groups), inBuf)
		}
	}
	if sel := Parse([]byte("User-agent: a\nDisallow: /"), Options{}).SelectInto(make([]int, 0, 4), "b"); sel.Groups != nil || sel.Match != MatchNone {
		t.Errorf("SelectInto with nothing selected = %+v, want no groups", sel)
	}
}

// RFC 9309 section 2.2.1: "If no group satisfies either condition, or no
// groups are present at all, no rules apply."
func TestRFC9309_SelectNone(t *testing.T) {
	for _, body := range []string{"", "# nothing", "User-agent: a\nDisallow: /", "Disallow: /\nSitemap: x"} {
		f := Parse([]byte(body), Options{})
		sel := f.Select("OtherBot")
		if sel.Match != MatchNone || sel.Groups != nil || sel.Rules.Len() != 0 || sel.Extensions.Len() != 0 {
			t.Errorf("Parse(%q).Select = %+v, want MatchNone and nothing", body, sel)
		}
	}
}

// Koster 1996 section 3.2.1 (the record with "*" is the default record) and
// Python's urllib.robotparser: a dropped record does not hide "*".
func TestKoster1996_SelectDroppedRecord(t *testing.T) {
	f := Parse([]byte("User-agent: FooBot\n\nUser-agent: *\nDisallow: /"), Options{Semantics: Koster1996})
	sel := f.Select("FooBot")
	if sel.Match != MatchGlobal || sel.Rules.Len() != 1 {
		t.Errorf("Select(FooBot) = %+v, want the * record", sel)
	}
	f = Parse([]byte("User-agent: FooBot\n\nUser-agent: *\nDisallow: /"), Options{Semantics: RFC9309})
	if sel := f.Select("FooBot"); sel.Match != MatchSpecific || sel.Rules.Len() != 1 {
		t.Errorf("RFC9309 Select(FooBot) = %+v, want the shared group", sel)
	}
}

// RFC 9309 section 2.2.1: "The product token MUST contain only a-zA-Z_-
// characters."
func TestRFC9309_ValidToken(t *testing.T) {
	for _, tc := range []struct {
		tok  string
		want bool
	}{
		{"Googlebot", true},
		{"Googlebot-Image", true},
		{"my_bot", true},
		{"-", true},
		{"", false},
		{"*", false},
		{"Googlebot/2.1", false},
		{"Bot2", false},
		{"Foo Bar", false},
		{"Bot\xe9", false},
	} {
		if got := ValidToken(tc.tok); got != tc.want {
			t.Errorf("ValidToken(%q) = %v, want %v", tc.tok, got, tc.want)
		}
	}
}

// TestSelect_DoesNotAlias checks that what a caller does with the rules of
// a Selection never writes into the File: Slice is a copy.
func TestSelect_DoesNotAlias(t *testing.T) {
	f := Parse([]byte("User-agent: a\nDisallow: /1\nUser-agent: b\nDisallow: /2"), Options{})
	for _, tok := range []string{"a", "b"} {
		rs := f.Select(tok).Rules.Slice()
		rs[0].Value = "/evil"
		_ = append(rs, Rule{Value: "/evil"})
	}
	if got := f.Groups[0].Rules.At(0).Value + " " + f.Groups[1].Rules.At(0).Value; got != "/1 /2" {
		t.Errorf("the groups' rules = %q after changing the selections' copies", got)
	}
}

// RFC 9309 section 2.2.1 (case-insensitive match of the product token) and
// docs/SEMANTICS.md sections 2.2 and 2.3: Agent.Names is the one rule that
// says which user-agent lines name a crawler.
func TestRFC9309_AgentNames(t *testing.T) {
	for _, tc := range []struct {
		value, tok string
		want       bool
	}{
		{"Googlebot", "Googlebot", true},
		{"Googlebot", "googlebot", true},
		{"googlebot/2.1", "GOOGLEBOT", true},
		{"Googlebot2", "Googlebot", true},
		{"MJ12bot", "MJ", true},
		{"Googlebot-Image", "Googlebot", false},
		{"Googlebot", "Googlebot-Image", false},
		{"Googlebot", "Googlebot/2.1", false},
		{"Googlebot", "", false},
		{"*", "*", false},
		{"*", "Googlebot", false},
		{"*foo", "", false},
		{"", "", false},
		{"/x", "", false},
		{"k", "\u212A", false}, // the Kelvin sign folds to k, but is no token byte
	} {
		a := Agent{Name: AgentName(tc.value), Value: tc.value}
		if got := a.Names(tc.tok); got != tc.want {
			t.Errorf("Agent(%q).Names(%q) = %v, want %v", tc.value, tc.tok, got, tc.want)
		}
		g := Group{Agents: agentsOf(Agent{Name: "other", Value: "other"}, a)}
		if got := g.Names(tc.tok); got != tc.want {
			t.Errorf("Group(other, %q).Names(%q) = %v, want %v", tc.value, tc.tok, got, tc.want)
		}
		if got, want := g.IsGlobal(), a.Name == "*"; got != want {
			t.Errorf("Group(other, %q).IsGlobal() = %v, want %v", tc.value, got, want)
		}
	}
}

// TestSelect_Names checks that Select selects exactly the groups that
// Group.Names says name a token, and the "*" groups (Group.IsGlobal) when
// there are none.
func TestSelect_Names(t *testing.T) {
	f := Parse([]byte(selectBody), Options{})
	for _, tc := range selectCases() {
		var want []int
		for i := range f.Groups {
			for _, tok := range tc.tokens {
				if f.Groups[i].Names(tok) {
					want = append(want, i)
					break
				}
			}
		}
		if want == nil {
			for i := range f.Groups {
				if f.Groups[i].IsGlobal() {
					want = append(want, i)
				}
			}
		}
		if got := f.Select(tc.tokens...).Groups; !cmp.Equal(want, got) {
			t.Errorf("Select(%q).Groups = %v, want %v", tc.tokens, got, want)
		}
	}
}
