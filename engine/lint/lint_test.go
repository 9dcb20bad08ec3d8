package lint_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/engine/lint"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
)

// found is a finding without its message: what the table checks.
type found struct {
	Line int
	Kind lint.Kind
}

func check(body string, sem compile.Semantics) []found {
	f := compile.Parse([]byte(body), compile.Options{Semantics: sem, Diagnostics: true})
	var out []found
	for _, x := range lint.Check(f) {
		out = append(out, found{x.Line, x.Kind})
	}
	return out
}

var lintCases = []struct {
	name string
	sem  compile.Semantics
	body string
	want []found
}{
	{"clean", compile.RFC9309, "User-agent: *\nDisallow: /x\nAllow: /x/y\n", nil},
	{"missing slash", compile.RFC9309, "User-agent: *\nDisallow: private\nDisallow: https://example.com/x\nAllow: *.css\nDisallow: $\n",
		[]found{{2, lint.MissingSlash}, {3, lint.MissingSlash}, {5, lint.MissingSlash}}},
	{"Koster1996: '*' is no wildcard", compile.Koster1996, "User-agent: *\nDisallow: *.css\n", []found{{2, lint.MissingSlash}}},
	{"RFC9309: an escaped slash is no slash", compile.RFC9309, "User-agent: *\nDisallow: %2Fa\n", []found{{2, lint.MissingSlash}}},

	// RFC 9309 section 2.2.2: the longest match wins, allow on a tie.
	{"RFC9309: duplicate", compile.RFC9309, "User-agent: *\nDisallow: /a\nDisallow: /a\n", []found{{3, lint.DuplicateRule}}},
	{"RFC9309: same pattern, allow wins the tie", compile.RFC9309, "User-agent: *\nAllow: /a\nDisallow: /a\n", []found{{3, lint.ShadowedRule}}},
	{"RFC9309: same pattern, allow wins the tie, whatever the order", compile.RFC9309, "User-agent: *\nDisallow: /a\nAllow: /a\n", []found{{2, lint.ShadowedRule}}},
	{"RFC9309: trailing star, longer wins", compile.RFC9309, "User-agent: *\nAllow: /a\nDisallow: /a*\n", []found{{2, lint.ShadowedRule}}},
	{"RFC9309: star-dollar end", compile.RFC9309, "User-agent: *\nDisallow: /a*$\nAllow: /a**\n", []found{{2, lint.ShadowedRule}}},
	{"RFC9309: padded literal prefix beats a longer literal", compile.RFC9309, "User-agent: *\nDisallow: /ab\nAllow: /a**\n", []found{{2, lint.ShadowedRule}}},
	{"RFC9309: padded prefix, wildcard rule", compile.RFC9309, "User-agent: *\nDisallow: /a*b\nAllow: /a***\n", []found{{2, lint.ShadowedRule}}},
	{"RFC9309: allow * beats disallow /", compile.RFC9309, "User-agent: *\nDisallow: /\nAllow: *\n", []found{{2, lint.ShadowedRule}}},
	{"RFC9309: a shorter prefix never shadows", compile.RFC9309, "User-agent: *\nDisallow: /a\nAllow: /ab\nAllow: /a*\n", []found{{2, lint.ShadowedRule}}},
	{"RFC9309: same length prefix of the other kind, disallow loses", compile.RFC9309, "User-agent: *\nAllow: /a*\nDisallow: /ab\n", []found{{3, lint.ShadowedRule}}},
	{"RFC9309: same length prefix, allow wins", compile.RFC9309, "User-agent: *\nDisallow: /a*\nAllow: /ab\n", nil},
	{"RFC9309: different wildcards are not compared", compile.RFC9309, "User-agent: *\nDisallow: /*b\nAllow: /ab\n", nil},
	{"RFC9309: anchored is not a prefix", compile.RFC9309, "User-agent: *\nDisallow: /a$\nAllow: /a\n", nil},
	{"RFC9309: equal after normalisation", compile.RFC9309, "User-agent: *\nDisallow: /%7Ea\nDisallow: /~a\n", []found{{3, lint.DuplicateRule}}},
	{"RFC9309: merged groups of one crawler", compile.RFC9309, "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /x\n", []found{{5, lint.DuplicateRule}}},
	{"RFC9309: a rule live for one of its crawlers is not reported", compile.RFC9309, "User-agent: a\nAllow: /x\n\nUser-agent: a\nUser-agent: b\nDisallow: /x\n", nil},
	{"RFC9309: dead for every crawler of the group", compile.RFC9309, "User-agent: a\nAllow: /x\n\nUser-agent: b\nAllow: /x\n\nUser-agent: a\nUser-agent: b\nDisallow: /x\n",
		[]found{{9, lint.ShadowedRule}}},
	{"RFC9309: names are compared ignoring case", compile.RFC9309, "User-agent: A\nDisallow: /x\n\nUser-agent: a/2.0\nDisallow: /x\n", []found{{5, lint.DuplicateRule}}},
	{"RFC9309: different crawlers are not merged", compile.RFC9309, "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /x\n", nil},
	{"RFC9309: a missing-slash rule shadows nothing", compile.RFC9309, "User-agent: *\nDisallow: x\nDisallow: x\n", []found{{2, lint.MissingSlash}, {3, lint.MissingSlash}}},

	// Google: '$' inside a pattern is a literal; index.htm allows are kept.
	{"Google: index.htm allow is never reported", compile.Google, "User-agent: *\nAllow: /d/index.html\nAllow: /d/index.html\n", nil},
	{"Google: duplicate", compile.Google, "User-agent: *\nDisallow: /a$b\nDisallow: /a$b\n", []found{{3, lint.DuplicateRule}}},

	// Koster 1996: the first match wins.
	{"Koster1996: earlier prefix", compile.Koster1996, "User-agent: *\nDisallow: /a\nAllow: /a/b\nAllow: /b\nDisallow: /b\n",
		[]found{{3, lint.ShadowedRule}, {5, lint.ShadowedRule}}},
	{"Koster1996: later prefix does not shadow", compile.Koster1996, "User-agent: *\nAllow: /a/b\nDisallow: /a\n", nil},
	{"Koster1996: duplicate", compile.Koster1996, "User-agent: *\nDisallow: /a\nDisallow: /a\n", []found{{3, lint.DuplicateRule}}},

	// docs/SEMANTICS.md section 2.1: sitemap and unknown lines do not end a
	// group.
	{"joined by a crawl-delay", compile.RFC9309, "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n", []found{{3, lint.JoinedGroup}}},
	{"joined by a sitemap", compile.RFC9309, "User-agent: *\nSitemap: https://example.com/s.xml\nUser-agent: b\nDisallow: /\n", []found{{3, lint.JoinedGroup}}},
	{"joined by an unreadable line", compile.RFC9309, "User-agent: a\nthis is not a directive\nUser-agent: b\nDisallow: /\n", []found{{3, lint.JoinedGroup}}},
	{"joined by an HTML line", compile.RFC9309, "User-agent: a\n<br>\nUser-agent: b\nDisallow: /\n", []found{{3, lint.JoinedGroup}}},
	{"joined twice, reported once", compile.RFC9309, "User-agent: a\nHost: h\nUser-agent: b\nSitemap: s\nUser-agent: c\nDisallow: /\n", []found{{3, lint.JoinedGroup}}},
	{"Koster1996: a blank line ends the record", compile.Koster1996, "User-agent: a\nCrawl-delay: 5\n\nUser-agent: b\nDisallow: /\n", nil},
	{"Koster1996: a dropped record joins nothing", compile.Koster1996, "User-agent: a\nSitemap: s\nUser-agent: b\n\nUser-agent: *\nDisallow: /\n", nil},
	{"comments and blank lines join as meant", compile.RFC9309, "User-agent: a\n# b too\n\nUser-agent: b\nDisallow: /\n", nil},
	{"an empty disallow ends the group", compile.RFC9309, "User-agent: a\nCrawl-delay: 5\nDisallow:\nUser-agent: b\nDisallow: /\n", nil},

	{"replaces global with a crawl-delay", compile.RFC9309, "User-agent: *\nDisallow: /admin/\n\nUser-agent: Bingbot\nCrawl-delay: 10\n", []found{{4, lint.ReplacesGlobal}}},
	{"replaces global: crawl-delay and empty disallow is deliberate", compile.RFC9309, "User-agent: *\nDisallow: /admin/\n\nUser-agent: Slurp\nCrawl-delay: 10\nDisallow:\n", nil},
	{"replaces global: empty disallow mid-file is deliberate", compile.RFC9309, "User-agent: Mediapartners-Google\nDisallow:\nCrawl-delay: 20\n\nUser-agent: *\nDisallow: /cgi-bin\n", nil},
	{"replaces global: a comment is no empty disallow", compile.RFC9309, "User-agent: *\nDisallow: /admin/\n\nUser-agent: Bingbot\n# slow down\nCrawl-delay: 10\n", []found{{4, lint.ReplacesGlobal}}},
	{"replaces global: nor is a blank line", compile.RFC9309, "User-agent: *\nDisallow: /admin/\n\nUser-agent: Bingbot\nCrawl-delay: 10\n\n", []found{{4, lint.ReplacesGlobal}}},
	{"replaces global: Koster1996, a record ended by a blank line", compile.Koster1996, "User-agent: *\nDisallow: /admin/\n\nUser-agent: Bingbot\nCrawl-delay: 10\n\nUser-agent: x\nDisallow: /x\n", []found{{4, lint.ReplacesGlobal}}},
	{"replaces global: Koster1996, an empty disallow is deliberate", compile.Koster1996, "User-agent: *\nDisallow: /admin/\n\nUser-agent: Bingbot\nCrawl-delay: 10\nDisallow:\n\nUser-agent: x\nDisallow: /x\n", nil},
	{"replaces global: merged groups, one with an empty disallow", compile.RFC9309, "User-agent: *\nDisallow: /admin/\n\nUser-agent: Bingbot\nCrawl-delay: 10\nDisallow:\n\nUser-agent: bingbot\nCrawl-delay: 5\n", nil},
	{"replaces global: several crawlers, one finding", compile.RFC9309, "User-agent: *\nDisallow: /admin/\n\nUser-agent: MJ12bot\nCrawl-delay: 10\n\nUser-agent: Pinterest\nCrawl-delay: 1\n", []found{{4, lint.ReplacesGlobal}, {7, lint.JoinedGroup}}},
	{"own rules are deliberate", compile.RFC9309, "User-agent: *\nDisallow: /admin/\n\nUser-agent: Googlebot\nAllow: /\nCrawl-delay: 1\n", nil},
	{"an empty disallow alone is deliberate", compile.RFC9309, "User-agent: *\nDisallow: /admin/\n\nUser-agent: Mediapartners-Google\nDisallow:\n", nil},
	{"nothing to replace", compile.RFC9309, "User-agent: *\nAllow: /\n\nUser-agent: Bingbot\nCrawl-delay: 10\n", nil},

	{"invalid extension values", compile.RFC9309, "User-agent: *\nRequest-rate: fast\nVisit-time: morning\nClean-param: a /x /y\nContent-Signal: ai-train\nHost: a b\nCrawl-delay: soon\nRequest-rate: 1/10s\n",
		[]found{{2, lint.InvalidValue}, {3, lint.InvalidValue}, {4, lint.InvalidValue}, {5, lint.InvalidValue}, {6, lint.InvalidValue}}},
}

func TestCheck(t *testing.T) {
	for _, c := range lintCases {
		t.Run(c.name, func(t *testing.T) {
			got := check(c.body, c.sem)
			if diff := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); diff != "" {
				f := compile.Parse([]byte(c.body), compile.Options{Semantics: c.sem, Diagnostics: true})
				t.Errorf("%s (-want +got):\n%s\nfindings: %q", c.sem, diff, lint.Check(f))
			}
			verifyDead(t, c.name, []byte(c.body), c.sem)
		})
	}
}

func TestReport_MergesDiagnostics(t *testing.T) {
	f := compile.Parse([]byte("User-agent: *\nFoo: bar\nDisallow: x\nCrawl-delay: soon\n"), compile.Options{Diagnostics: true})
	got := lint.Report(f)
	want := []lint.Finding{
		{Line: 2, Kind: "unknown-key"},
		{Line: 3, Kind: lint.MissingSlash},
		{Line: 4, Kind: "invalid-value"},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(lint.Finding{}, "Message")); diff != "" {
		t.Errorf("Report (-want +got):\n%s", diff)
	}
	for _, x := range got {
		if x.Message == "" {
			t.Errorf("%v: no message", x)
		}
	}
}

// pathsFor returns paths that a rule's pattern matches: its '*'s filled
// and its '$' dropped, with and without a suffix, and shortened.
func pathsFor(r compile.Rule) []string {
	var out []string
	p := strings.TrimSuffix(r.Pattern, "$")
	for _, fill := range []string{"", "x", "/q/"} {
		u := strings.ReplaceAll(p, "*", fill)
		for _, v := range []string{u, u + "x", u + "/index.html", u[:len(u)/2]} {
			if !strings.HasPrefix(v, "/") {
				v = "/" + v
			}
			out = append(out, v)
		}
	}
	return out
}

// verifyDead checks the findings that say a rule never decides against the
// engine: for every crawler the rule's group applies to, no path made from
// the rule's pattern (the paths it matches, and some it does not) is
// decided by it. It returns the number of rules checked.
func verifyDead(t *testing.T, name string, body []byte, sem compile.Semantics) int {
	t.Helper()
	r := engine.Compile(body, engine.Options{Semantics: sem})
	f := r.File()
	dead := map[int]lint.Finding{}
	for _, x := range lint.Check(f) {
		switch x.Kind {
		case lint.DuplicateRule, lint.ShadowedRule, lint.MissingSlash:
			dead[x.Line] = x
		}
	}
	n := 0
	for _, g := range f.Groups {
		for i := range g.Rules.Len() {
			rule := g.Rules.At(i)
			x, ok := dead[rule.Line]
			if !ok {
				continue
			}
			n++
			var agents []string
			for _, a := range g.Agents.Slice() {
				switch {
				case a.IsGlobal():
					agents = append(agents, "zzunnamedlintbot")
				case compile.ValidToken(a.Name):
					agents = append(agents, a.Name)
				}
			}
			for _, a := range agents {
				m := r.Matcher(a)
				for _, p := range pathsFor(rule) {
					if d := m.DecidePath(p); d.Rule.Line == rule.Line {
						t.Errorf("%s (%s): agent %s path %q decided by line %d, which lint says %s: %s",
							name, sem, a, p, d.Rule.Line, x.Kind, x.Message)
					}
				}
			}
		}
	}
	return n
}

// corpusSample is the number of corpus files TestCheck_Corpus checks by
// default.
const corpusSample = 1000

// TestCheck_Corpus runs Check over the corpus of real robots.txt files in
// every semantics and checks every never-decides finding against the
// engine. It skips when there is no corpus (internal/corpus).
func TestCheck_Corpus(t *testing.T) {
	dir := corpus.Dir(t)
	if dir == "" {
		t.Skip("no corpus (set " + corpus.EnvVar + ")")
	}
	files, err := corpus.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Building every matcher of every file in three semantics takes about
	// a minute for the whole corpus: by default the first corpusSample
	// files in name order are checked, all of them with
	// ROBOTSTXT_LINT_CORPUS=all.
	limit := min(len(files), corpusSample)
	switch {
	case os.Getenv("ROBOTSTXT_LINT_CORPUS") == "all":
		limit = len(files)
	case testing.Short():
		limit = min(limit, 100)
	}
	checked := 0
	for _, cf := range files[:limit] {
		body, err := os.ReadFile(cf.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, sem := range []compile.Semantics{compile.RFC9309, compile.Google, compile.Koster1996} {
			checked += verifyDead(t, cf.Name, body, sem)
		}
	}
	t.Logf("%d files, %d never-decides findings verified against the engine", limit, checked)
}

// TestReport_FileLevelProblemOnce: issue 31 found 27 not-utf8 findings for
// one file, and 2,155 html findings over 400 corpus files; a problem of the
// whole file is now one finding, its warning, in place of its per-line
// symptoms.
func TestReport_FileLevelProblemOnce(t *testing.T) {
	latin1 := "User-agent: *\n"
	for i := 0; i < 27; i++ {
		latin1 += "Disallow: /caf\xe9/" + strconv.Itoa(i) + "\n"
	}
	page := "<!DOCTYPE html>\n<html>\n<head><title>Robots</title></head>\n<body>\nWelcome home\n<pre>\nUser-agent: *\nDisalow: /private/\n</pre>\n</body>\n</html>\n"
	for _, c := range []struct {
		name string
		body string
		want []found
	}{
		{"latin-1", latin1, []found{{2, "mostly-not-utf8"}}},
		{"utf16", "\xFF\xFEU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00D\x00i\x00s\x00a\x00l\x00l\x00o\x00w\x00:\x00 \x00/\x00\n\x00", []found{{1, "utf16"}}},
		// The page's rules are read, and the typo on one of them is kept.
		{"html page", page, []found{{1, "html-page"}, {8, "typo"}}},
		{"json", "{\n  \"error\": \"not found\",\n  \"status\": 404\n}\n", []found{{1, "json-document"}}},
		{"no user-agent", "Disallow: /a\nDisallow: /b\n", []found{{1, "no-user-agent"}}},
	} {
		var got []found
		for _, f := range lint.Report(compile.Parse([]byte(c.body), compile.Options{Diagnostics: true})) {
			got = append(got, found{f.Line, f.Kind})
		}
		if !cmp.Equal(got, c.want) {
			t.Errorf("%s: findings %v, want %v", c.name, got, c.want)
		}
	}
	// A cut file: the warning replaces the parser's diagnostic at that line.
	var big strings.Builder
	big.WriteString("User-agent: *\n")
	for big.Len() <= compile.DefaultMaxFileSize {
		big.WriteString("Disallow: /x/\n")
	}
	n := 0
	for _, f := range lint.Report(compile.Parse([]byte(big.String()), compile.Options{Diagnostics: true})) {
		if f.Kind == "truncated" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("a cut file: %d truncated findings, want 1", n)
	}
}
