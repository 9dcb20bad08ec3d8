package lint_test

import (
	"strings"
	"testing"

	"github.com/dunglas/httpsfv"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/engine/lint"
)

// The drafts' sections are numbered as in ietf-wg-aipref/drafts at
// 7ca0afc (2026-08-19): draft-ietf-aipref-vocab section 5.1 Combining
// Preferences, 6.2 Preference Labels, 6.5 Processing Algorithm, 6.5.1
// Multiple Preferences; draft-ietf-aipref-attach section 3 (the robots.txt
// Content-Usage rule) and 3.1 (its semantics).

// usageCase is a file, the findings Report gives it and words their
// messages must hold.
type usageCase struct {
	name string
	sem  compile.Semantics
	body string
	want []found
	says []string // each in some finding's message
}

func checkUsage(t *testing.T, cases []usageCase) {
	t.Helper()
	for _, c := range cases {
		f := compile.Parse([]byte(c.body), compile.Options{Semantics: c.sem, Diagnostics: true})
		all := lint.Report(f)
		var got []found
		var msgs []string
		for _, x := range all {
			got = append(got, found{x.Line, x.Kind})
			msgs = append(msgs, x.Message)
		}
		if diff := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: %s (-want +got):\n%s\nfindings: %q", c.name, c.sem, diff, all)
			continue
		}
		said := strings.Join(msgs, "\n")
		for _, s := range c.says {
			if !strings.Contains(said, s) {
				t.Errorf("%s: findings say %q, want them to mention %q", c.name, said, s)
			}
		}
	}
}

// A file whose content-usage lines are all well formed, in groups, and
// agree where they tie, has no finding (draft-ietf-aipref-attach section 3
// example; unknown keys and parameters are no mistake, vocab section 6.4).
func TestAIPref_CleanUsageHasNoFinding(t *testing.T) {
	body := "User-agent: *\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n" +
		"Content-Usage: /both/ train-ai=y, search=y;note=\"x\", future-key=n\nContent-Usage: /both/ train-ai=y # same\n\n" +
		"User-agent: ExampleBot\nAllow: /\nContent-Usage: search=n\n"
	for _, sem := range []compile.Semantics{compile.RFC9309, compile.Google, compile.Koster1996} {
		checkUsage(t, []usageCase{{"clean", sem, body, nil, nil}})
	}
}

// vocab section 6.5: a statement is parsed as an RFC 9651 Dictionary; when
// that fails every category is unknown. attach section 3.2: a path starts
// with '/', else the whole value is the statement.
func TestAIPref_StatementNotDictionary(t *testing.T) {
	checkUsage(t, []usageCase{
		{"members without commas", compile.RFC9309, "User-agent: *\nContent-Usage: train-ai=n search=y\n",
			[]found{{2, lint.UsageSyntax}}, []string{`at "search=y"; members are separated by commas`}},
		{"path without a slash", compile.RFC9309, "User-agent: *\nContent-Usage: *.pdf train-ai=n\n",
			[]found{{2, lint.UsageSyntax}}, []string{"a path starts with '/'"}},
		{"trailing comma", compile.Google, "User-agent: *\nContent-Usage: /a train-ai=n,\n",
			[]found{{2, lint.UsageSyntax}}, []string{"every category is unknown"}},
		{"a path and no statement", compile.RFC9309, "User-agent: *\nContent-Usage: /private/\n",
			[]found{{2, lint.UsageSyntax}}, []string{"path (/private/) but no statement"}},
	})
}

// vocab section 6.5.1: keys with upper-case letters make the whole
// Dictionary fail to parse (RFC 9651 keys are lower case), so every
// category is unknown; lint names the keys.
func TestAIPref_UpperCaseKey(t *testing.T) {
	checkUsage(t, []usageCase{
		{"one key", compile.RFC9309, "User-agent: *\nContent-Usage: Train-AI=n\n",
			[]found{{2, lint.UsageKeyCase}}, []string{`key "Train-AI" has upper-case letters`}},
		{"keys and a parameter, strings left alone", compile.Koster1996, "User-agent: *\nContent-Usage: /a Train-ai=n;Why=\"A,B;C\", search=y\n",
			[]found{{2, lint.UsageKeyCase}}, []string{`keys "Train-ai", "Why" have upper-case letters`, `write train-ai=n;why="A,B;C", search=y`}},
		{"upper case and another mistake", compile.RFC9309, "User-agent: *\nContent-Usage: Train-AI=n search=y\n",
			[]found{{2, lint.UsageSyntax}}, []string{"not an RFC 9651 Dictionary"}},
	})
}

// vocab section 6.2: a category's preference is the Token y or n; any
// other value (section 6.5) leaves it unknown. Unknown keys are ignored.
func TestAIPref_CategoryValueNotYOrN(t *testing.T) {
	checkUsage(t, []usageCase{
		{"a word", compile.RFC9309, "User-agent: *\nContent-Usage: train-ai=yes\n",
			[]found{{2, lint.UsageValue}}, []string{"the Token yes, not the Token y or n: train-ai is unknown where this line decides; write train-ai=y"}},
		{"a String", compile.RFC9309, "User-agent: *\nContent-Usage: train-ai=\"n\"\n",
			[]found{{2, lint.UsageValue}}, []string{`the String "n" (quoted)`}},
		{"a key alone", compile.RFC9309, "User-agent: *\nContent-Usage: train-ai\n",
			[]found{{2, lint.UsageValue}}, []string{"the Boolean true"}},
		{"upper-case Token", compile.RFC9309, "User-agent: *\nContent-Usage: /a search=N\n",
			[]found{{2, lint.UsageValue}}, []string{"Tokens are case-sensitive"}},
		{"both categories, one line", compile.RFC9309, "User-agent: *\nContent-Usage: train-ai=1, search=(y)\n",
			[]found{{2, lint.UsageValue}, {2, lint.UsageValue}}, []string{"train-ai is a number", "search is an inner list"}},
		{"the last of a repeated key counts", compile.RFC9309, "User-agent: *\nContent-Usage: train-ai=n, train-ai\n",
			[]found{{2, lint.UsageValue}}, []string{"Boolean"}},
		{"other keys are not checked", compile.RFC9309, "User-agent: *\nContent-Usage: train-ai=y, ai-train=yes\n", nil, nil},
	})
}

// docs/SEMANTICS.md section 7: a content-usage line outside every group
// belongs to none; Report names it as a content-usage problem, also in a
// file without any user-agent line.
func TestAIPref_UsageOutsideGroup(t *testing.T) {
	checkUsage(t, []usageCase{
		{"before any user-agent line", compile.RFC9309, "Content-Usage: train-ai=n\nUser-agent: *\nDisallow: /x\n",
			[]found{{1, lint.UsageOutsideGroup}}, []string{"content-usage line before any user-agent line: it belongs to no group, so its preferences apply to no crawler"}},
		{"no user-agent line at all", compile.RFC9309, "Content-Usage: train-ai=n\nDisallow: /x\n",
			[]found{{1, "no-user-agent"}, {1, lint.UsageOutsideGroup}}, []string{"every URL is allowed", "apply to no crawler"}},
		{"Koster1996: after a blank line", compile.Koster1996, "User-agent: a\nDisallow: /x\n\nContent-Usage: train-ai=n\n",
			[]found{{4, lint.UsageOutsideGroup}}, []string{"after a blank line ended the record"}},
		{"a rule outside a group keeps its kind", compile.RFC9309, "Disallow: /y\nUser-agent: *\nDisallow: /x\n",
			[]found{{1, "rule-outside-group"}}, nil},
	})
}

// attach section 3.1: content-usage lines with identical paths and
// conflicting preferences combine by vocab section 5.1, the most
// restrictive winning; lint reports the later line of such a pair.
func TestAIPref_ConflictingTies(t *testing.T) {
	checkUsage(t, []usageCase{
		{"same path", compile.RFC9309, "User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a train-ai=n\n",
			[]found{{3, lint.UsageConflict}}, []string{"line 2 gives train-ai=y for the same path (/a), this line train-ai=n: the two tie and the most restrictive wins"}},
		{"both without a path", compile.Google, "User-agent: *\nContent-Usage: search=n\nContent-Usage: search=y, train-ai=n\n",
			[]found{{3, lint.UsageConflict}}, []string{"line 2 gives search=n with no path either"}},
		{"same normalised path", compile.RFC9309, "User-agent: *\nContent-Usage: /%7Ea train-ai=y\nContent-Usage: /~a train-ai=n\n",
			[]found{{3, lint.UsageConflict}}, nil},
		{"merged groups of one crawler", compile.RFC9309, "User-agent: bot\nContent-Usage: train-ai=n\n\nUser-agent: BOT\nContent-Usage: train-ai=y\n",
			[]found{{5, lint.UsageConflict}}, []string{"(the groups for bot are merged)"}},
		{"reported once for several crawlers", compile.RFC9309, "User-agent: a\nUser-agent: b\nContent-Usage: train-ai=y\nContent-Usage: train-ai=n, search=y\nContent-Usage: search=n\n",
			[]found{{4, lint.UsageConflict}, {5, lint.UsageConflict}}, []string{"line 3", "line 4"}},
		{"different paths do not tie", compile.RFC9309, "User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a* train-ai=n\nContent-Usage: /b train-ai=n\n", nil, nil},
		{"different crawlers", compile.RFC9309, "User-agent: a\nContent-Usage: train-ai=y\n\nUser-agent: b\nContent-Usage: train-ai=n\n", nil, nil},
		{"unknown and n agree", compile.RFC9309, "User-agent: *\nContent-Usage: /a train-ai=maybe\nContent-Usage: /a train-ai=n\n",
			[]found{{2, lint.UsageValue}}, nil},
	})
}

// FuzzUsageStatement checks that any statement is linted without a panic,
// and that a statement with no statement finding gives each category of
// the vocabulary it names y or n, as the engine reads it (vocab section
// 6.5).
func FuzzUsageStatement(f *testing.F) {
	for _, s := range []string{"train-ai=n", "Train-AI=n", "train-ai=n search=y", "train-ai=\"n\"", "train-ai",
		"a;B=\"x\\\"y,z\", Search=(y N);q", "train-ai=n,", "*.pdf train-ai=n", "search=%\"x\", train-ai=:YQ==:", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, stmt string) {
		if strings.ContainsAny(stmt, "\r\n#") {
			return // one line, no comment
		}
		body := "User-agent: *\nContent-Usage: /a " + stmt + "\nContent-Usage: /a " + stmt + ", train-ai=y\n"
		f := compile.Parse([]byte(body), compile.Options{Diagnostics: true})
		statementFinding := false
		for _, x := range lint.Report(f) {
			if x.Message == "" {
				t.Errorf("%q: %v has no message", stmt, x)
			}
			if x.Line == 2 && (x.Kind == lint.UsageSyntax || x.Kind == lint.UsageKeyCase || x.Kind == lint.UsageValue) {
				statementFinding = true
			}
		}
		if statementFinding || len(f.Groups) == 0 || f.GroupUsages(0).Len() == 0 {
			return
		}
		d, err := httpsfv.UnmarshalDictionary([]string{f.GroupUsages(0).Statement(0)})
		if err != nil {
			t.Fatalf("%q: no finding, but the statement does not parse: %v", stmt, err)
		}
		for _, key := range []string{engine.CategoryTrainAI, engine.CategorySearch} {
			if _, named := d.Get(key); named && engine.StatementPreference(key, f.GroupUsages(0).Statement(0)) == engine.UsageUnknown {
				t.Errorf("%q: no finding, but %s is unknown", stmt, key)
			}
		}
	})
}
