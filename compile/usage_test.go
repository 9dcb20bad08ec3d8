package compile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// draft-ietf-aipref-attach-05 section 3 (ABNF: "rule =/ content-usage"):
// in RFC9309 a Content-Usage line is a rule, so a user-agent line after it
// starts a new group; in Google and Koster1996 it is a key that is no rule
// and joins the user-agent lines around it (docs/SEMANTICS.md section 7,
// "Which files").
func TestAIPref_UsageLineEndsAgentsInRFC9309Only(t *testing.T) {
	body := "User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /x\n"
	for _, tc := range []struct {
		sem    Semantics
		groups int
	}{{RFC9309, 2}, {Google, 1}, {Koster1996, 1}} {
		f := Parse([]byte(body), Options{Semantics: tc.sem})
		if len(f.Groups) != tc.groups {
			t.Fatalf("%s: %d groups, want %d", tc.sem, len(f.Groups), tc.groups)
		}
		if got := f.GroupUsages(0).Len(); got != 1 {
			t.Errorf("%s: first group has %d usage lines, want 1", tc.sem, got)
		}
		if sel := f.Select("b"); f.SelectedUsages(sel).Len() != map[int]int{1: 1, 2: 0}[tc.groups] {
			t.Errorf("%s: agent b selects %d usage lines", tc.sem, f.SelectedUsages(sel).Len())
		}
		if got := f.Groups[0].Extensions.Len(); got != 0 {
			t.Errorf("%s: the usage line is also an extension", tc.sem)
		}
	}
}

// draft-ietf-aipref-attach-05 section 3.2: a value that starts with '/'
// has a path, which ends at the first SP or HTAB; otherwise the whole value
// is the statement. The path is a pattern normalised as allow/disallow
// patterns are (docs/SEMANTICS.md section 7, "Which rule").
func TestAIPref_UsagePathAndStatement(t *testing.T) {
	body := "User-agent: *\n" +
		"Content-Usage: train-ai=n # comment\n" +
		"Content-Usage: /a/\tsearch=y, train-ai=y\n" +
		"content-usage:/caf\u00e9 train-ai=n\n" +
		"CONTENT-USAGE: /only-a-path\n" +
		"Content-Usage:\n"
	for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
		f := Parse([]byte(body), Options{Semantics: sem})
		got := f.GroupUsages(0).Slice()
		want := []Usage{
			{Pattern: "", Path: "", Statement: "train-ai=n", Value: "train-ai=n", Line: 2},
			{Pattern: "/a/", Path: "/a/", Statement: "search=y, train-ai=y", Value: "/a/\tsearch=y, train-ai=y", Line: 3},
			{Pattern: "/caf%C3%A9", Path: "/caf\u00e9", Statement: "train-ai=n", Value: "/caf\u00e9 train-ai=n", Line: 4},
			{Pattern: "/only-a-path", Path: "/only-a-path", Statement: "", Value: "/only-a-path", Line: 5},
			{Line: 6},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s usages (-want +got):\n%s", sem, diff)
		}
		us := f.GroupUsages(0)
		for i := range us.Len() {
			start, end := us.PatternSpan(i)
			if us.Text()[start:end] != us.Pattern(i) || us.Statement(i) != want[i].Statement {
				t.Errorf("%s line %d: span or statement differ from At", sem, want[i].Line)
			}
		}
	}
}

// Koster1996 patterns hold no wildcard: a usage path's '*' is escaped as
// an allow/disallow pattern's is (docs/SEMANTICS.md section 7, "Paths are
// patterns exactly like allow/disallow patterns of the semantics").
func TestKoster1996_UsagePathIsLiteral(t *testing.T) {
	f := Parse([]byte("User-agent: *\nContent-Usage: /a*$ train-ai=n\n"), Options{Semantics: Koster1996})
	if got, want := f.GroupUsages(0).Pattern(0), NormalizePattern("/a*$", Koster1996); got != want || got == "/a*$" {
		t.Errorf("Koster1996 usage pattern %q, want %q (escaped)", got, want)
	}
}

// docs/SEMANTICS.md section 7: a usage line outside every group belongs
// to none; the parse says so as it says for rules.
func TestAIPref_UsageOutsideGroup(t *testing.T) {
	f := Parse([]byte("Content-Usage: train-ai=n\nUser-agent: *\nDisallow: /x\n"), Options{Diagnostics: true})
	if n := f.GroupUsages(0).Len(); n != 0 {
		t.Errorf("the group holds %d usage lines, want 0", n)
	}
	if len(f.Diagnostics) != 1 || f.Diagnostics[0].Kind != DiagRuleOutsideGroup || f.Diagnostics[0].Line != 1 {
		t.Errorf("diagnostics %v, want one rule-outside-group at line 1", f.Diagnostics)
	}
}

// In Koster1996 a blank line ends the record; a record with a usage line
// and no rule is kept, as one with an extension is.
func TestKoster1996_BlankKeepsRecordWithUsage(t *testing.T) {
	f := Parse([]byte("User-agent: a\nContent-Usage: train-ai=n\n\nUser-agent: b\nDisallow: /\n"), Options{Semantics: Koster1996})
	if len(f.Groups) != 2 || f.GroupUsages(0).Len() != 1 {
		t.Errorf("groups %d, want 2 with the first holding the usage line", len(f.Groups))
	}
}

// Groups merged for one agent merge their usage lines, in file order.
func TestRFC9309_SelectMergesUsages(t *testing.T) {
	f := Parse([]byte("User-agent: a\nContent-Usage: /x train-ai=n\nUser-agent: b\nAllow: /\nUser-agent: a\nContent-Usage: search=y\n"), Options{})
	sel := f.Select("a")
	us := f.SelectedUsages(sel)
	if len(sel.Groups) != 2 || us.Len() != 2 || us.At(0).Line != 2 || us.At(1).Line != 6 {
		t.Errorf("selection %v with usages %v", sel.Groups, us)
	}
	if sel.Rules.Len() != 0 || sel.Extensions.Len() != 0 {
		t.Errorf("selection holds rules %v and extensions %v", sel.Rules, sel.Extensions)
	}
}

// A File keeps its groups' content-usage lines in file order (Usages),
// and GroupUsages finds each group's among them.
func TestAIPref_GroupUsages(t *testing.T) {
	body := "User-agent: a\nContent-Usage: /1 train-ai=n\nDisallow: /x\nContent-Usage: /2 search=y\n\n" +
		"User-agent: b\nDisallow: /y\n\nUser-agent: c\nUser-agent: d\nContent-Usage: /3 train-ai=y\n"
	for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
		f := Parse([]byte(body), Options{Semantics: sem})
		if f.Usages().Len() != 3 {
			t.Fatalf("%s: %d usage lines, want 3", sem, f.Usages().Len())
		}
		var got [][]int
		for gi := range f.Groups {
			var lines []int
			for _, u := range f.GroupUsages(gi).Slice() {
				lines = append(lines, u.Line)
			}
			got = append(got, lines)
		}
		if diff := cmp.Diff([][]int{{2, 4}, nil, {11}}, got); diff != "" {
			t.Errorf("%s: usage lines by group (-want +got):\n%s", sem, diff)
		}
		if us := f.SelectedUsages(f.Select("a", "d")); us.Len() != 3 || us.At(2).Line != 11 {
			t.Errorf("%s: a and d select %v", sem, us)
		}
	}
	if f := Parse([]byte("User-agent: *\nDisallow: /\n"), Options{}); f.Usages().Len() != 0 || f.GroupUsages(0).Len() != 0 {
		t.Error("a file without content-usage lines has some")
	}
}
