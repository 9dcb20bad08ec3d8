package reference

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

const conformancePath = "../../testdata/conformance.json"

// minTableExpectations is the least number of (case, semantics) expectations
// the JSON table must hold.
const minTableExpectations = 250

func loadTable(t *testing.T) []Case {
	t.Helper()
	cases, err := LoadConformance(conformancePath)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// runConformance runs the whole table for sem against the reference matcher.
func runConformance(t *testing.T, sem compile.Semantics) {
	RunConformance(t, conformancePath, sem, func(c Case) Outcome {
		f := Parse(c.Body(), sem)
		got := DecideFile(f, c.Agents, c.URL)
		u := UsageDecided(f, c.Agents, c.URL, got).WithHeader(c.Header...)
		return Outcome{Allowed: got.Allowed, Line: got.Line, Usage: u.String(),
			Why: fmt.Sprintf("%s %q, reason %s; usage lines %d %d", got.Kind, got.Pattern, got.Reason, u.TrainAILine, u.SearchLine)}
	})
}

func TestRFC9309_ConformanceTable(t *testing.T)    { runConformance(t, compile.RFC9309) }
func TestGoogle_ConformanceTable(t *testing.T)     { runConformance(t, compile.Google) }
func TestKoster1996_ConformanceTable(t *testing.T) { runConformance(t, compile.Koster1996) }

func TestConformanceTable_Counts(t *testing.T) {
	count := func(cases []Case) (map[string]int, int) {
		per := make(map[string]int)
		total := 0
		for _, c := range cases {
			for key := range c.Expect {
				per[key]++
				total++
			}
		}
		return per, total
	}
	table := loadTable(t)
	per, total := count(table)
	usage := 0
	for _, c := range table {
		for _, e := range c.Expect {
			if e.Usage != "" {
				usage++
			}
		}
	}
	t.Logf("testdata/conformance.json: %d cases, %d expectations: rfc9309 %d, google %d, koster1996 %d; %d with usage preferences",
		len(table), total, per["rfc9309"], per["google"], per["koster1996"], usage)
	built := BuiltCases()
	bper, btotal := count(built)
	t.Logf("Go-built cases: %d cases, %d expectations: rfc9309 %d, google %d, koster1996 %d",
		len(built), btotal, bper["rfc9309"], bper["google"], bper["koster1996"])
	if total < minTableExpectations {
		t.Errorf("the table has %d expectations, want at least %d", total, minTableExpectations)
	}
	for _, sem := range []compile.Semantics{compile.RFC9309, compile.Google, compile.Koster1996} {
		if per[sem.String()] == 0 {
			t.Errorf("the table has no %s expectations", sem)
		}
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		// Prefix matching, empty pattern, pattern longer than the path.
		{"", "", true},
		{"", "/", true},
		{"", "/anything", true},
		{"/", "/", true},
		{"/a", "/ab", true},
		{"/a", "/", false},
		{"/abc", "/ab", false},
		{"/abc*", "/ab", false},
		{"/ab", "/AB", false},
		// '*' runs: none, one, many bytes, '/' included.
		{"*", "", true},
		{"/*", "/", true},
		{"/a*b", "/ab", true},
		{"/a*b", "/axxb", true},
		{"/a*b", "/axxc", false},
		{"/a*b", "/a/x/b", true},
		{"/a*b*c", "/abc", true},
		{"/a*b*c", "/aXbYcZ", true},
		{"/a*b*c", "/acb", false},
		{"/**", "/", true},
		{"/a**b", "/ab", true},
		{"*.gif", "/x/y.gif", true},
		{"/*/x", "/x", false},
		// '$' anchors only as the last byte.
		{"$", "", true},
		{"$", "/", false},
		{"/$", "/", true},
		{"/$", "/a", false},
		{"/a$", "/a", true},
		{"/a$", "/ab", false},
		{"/a*$", "/abc", true},
		{"/*.php$", "/a.php", true},
		{"/*.php$", "/a.php?x", false},
		{"/*.php$", "/a.php.php", true},
		{"/a$b", "/a$b", true},
		{"/a$b", "/a$bc", true},
		{"/a$b", "/a", false},
		{"/a$$", "/a$", true},
		{"/a$$", "/a$x", false},
		{"/a%24", "/a%24", true},
	}
	for _, tt := range tests {
		if got := Match(tt.pattern, tt.path); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

// TestMatch_Polynomial checks that Match does not backtrack: a pattern of 50
// stars that cannot match a 2000-byte path would take exponential time in a
// backtracking matcher. Not timed; it must simply finish.
func TestMatch_Polynomial(t *testing.T) {
	path := "/" + strings.Repeat("a", 2000)
	pattern := "/" + strings.Repeat("a*", 50) + "b"
	if Match(pattern, path) {
		t.Errorf("Match(%q, 2000 a's) = true, want false", pattern)
	}
	if Match(pattern+"$", path) {
		t.Errorf("Match(%q$, 2000 a's) = true, want false", pattern)
	}
	if !Match("/"+strings.Repeat("*a", 50)+"$", path) {
		t.Errorf("Match(50 *a then $, 2000 a's) = false, want true")
	}
}

func TestDecide_Reasons(t *testing.T) {
	tests := []struct {
		name string
		body string
		url  string
		sem  compile.Semantics
		want Result
	}{
		{"RFC9309 robots.txt", "User-agent: *\nDisallow: /\n", "/robots.txt", compile.RFC9309,
			Result{Allowed: true, Reason: ReasonRobotsTxt}},
		{"Google robots.txt is a rule", "User-agent: *\nDisallow: /\n", "/robots.txt", compile.Google,
			Result{Allowed: false, Line: 2, Kind: compile.Disallow, Pattern: "/", Reason: ReasonRule}},
		{"Google index.htm", "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n", "/d/", compile.Google,
			Result{Allowed: true, Line: 3, Kind: compile.Allow, Pattern: "/d/$", Reason: ReasonIndexHTM}},
		{"Google index.htm file itself", "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n", "/d/index.html", compile.Google,
			Result{Allowed: true, Line: 3, Kind: compile.Allow, Pattern: "/d/index.html", Reason: ReasonRule}},
		{"no match", "User-agent: *\nDisallow: /x\n", "/y", compile.RFC9309,
			Result{Allowed: true, Reason: ReasonNoMatch}},
		{"Koster1996 first match", "User-agent: *\nDisallow: /tmp\nAllow: /tmp/ok\n", "/tmp/ok", compile.Koster1996,
			Result{Allowed: false, Line: 2, Kind: compile.Disallow, Pattern: "/tmp", Reason: ReasonRule}},
		{"Koster1996 no match", "User-agent: *\nDisallow: /tmp\n", "/x", compile.Koster1996,
			Result{Allowed: true, Reason: ReasonNoMatch}},
	}
	for _, tt := range tests {
		got := Decide([]byte(tt.body), []string{"bot"}, tt.url, tt.sem)
		if got != tt.want {
			t.Errorf("%s: Decide(%q, %q, %s) = %+v, want %+v", tt.name, tt.body, tt.url, tt.sem, got, tt.want)
		}
	}
}

func TestDecidePath_NoURLExtraction(t *testing.T) {
	// DecidePath takes an extracted path: it must not apply URL extraction
	// (a Google host-first reading would turn "a/b" into "/b"), but it cuts
	// at '#', puts a '/' in front and normalises, as engine's DecidePath.
	f := Parse([]byte("User-agent: *\nDisallow: /b\n"), compile.Google)
	if got := DecidePath(f, []string{"bot"}, "/a/b"); !got.Allowed {
		t.Errorf("DecidePath(/a/b) = %+v, want allowed", got)
	}
	if got := DecidePath(f, []string{"bot"}, "b#x"); got.Allowed || got.Line != 2 {
		t.Errorf("DecidePath(b#x) = %+v, want disallowed by line 2", got)
	}
	if got := DecideFile(f, []string{"bot"}, "a/b"); got.Allowed || got.Line != 2 {
		t.Errorf("DecideFile(a/b) = %+v, want disallowed by line 2", got)
	}
	r := Parse([]byte("User-agent: *\nDisallow: /~b\n"), compile.RFC9309)
	if got := DecidePath(r, []string{"bot"}, "/%7eb"); got.Allowed || got.Line != 2 {
		t.Errorf("RFC9309 DecidePath(/%%7eb) = %+v, want disallowed by line 2", got)
	}
}

func TestLoadConformance_Rejects(t *testing.T) {
	valid := `{"name": "n", "source": "s", "robots": "User-agent: *", "agents": ["a"], "url": "/", "expect": {"google": {"allowed": true, "line": 0}}}`
	tests := []struct {
		name, json string
	}{
		{"no name", `[{"source": "s", "robots": "x", "agents": ["a"], "url": "/", "expect": {"google": {"allowed": true}}}]`},
		{"no source", `[{"name": "n", "robots": "x", "agents": ["a"], "url": "/", "expect": {"google": {"allowed": true}}}]`},
		{"no agents", `[{"name": "n", "source": "s", "robots": "x", "agents": [], "url": "/", "expect": {"google": {"allowed": true}}}]`},
		{"no url", `[{"name": "n", "source": "s", "robots": "x", "agents": ["a"], "expect": {"google": {"allowed": true}}}]`},
		{"no body", `[{"name": "n", "source": "s", "agents": ["a"], "url": "/", "expect": {"google": {"allowed": true}}}]`},
		{"both bodies", `[{"name": "n", "source": "s", "robots": "x", "robots_quoted": "\"x\"", "agents": ["a"], "url": "/", "expect": {"google": {"allowed": true}}}]`},
		{"bad quoted body", `[{"name": "n", "source": "s", "robots_quoted": "x\\xff", "agents": ["a"], "url": "/", "expect": {"google": {"allowed": true}}}]`},
		{"unknown semantics", `[{"name": "n", "source": "s", "robots": "x", "agents": ["a"], "url": "/", "expect": {"bing": {"allowed": true}}}]`},
		{"semantics key case", `[{"name": "n", "source": "s", "robots": "x", "agents": ["a"], "url": "/", "expect": {"Google": {"allowed": true}}}]`},
		{"no expectations", `[{"name": "n", "source": "s", "robots": "x", "agents": ["a"], "url": "/", "expect": {}}]`},
		{"unknown field", `[{"name": "n", "source": "s", "robots": "x", "agents": ["a"], "url": "/", "expected": {}, "expect": {"google": {"allowed": true}}}]`},
		{"duplicate name", "[" + valid + "," + valid + "]"},
		{"bad usage", `[{"name": "n", "source": "s", "robots": "x", "agents": ["a"], "url": "/", "expect": {"google": {"allowed": true, "usage": "train-ai=no search=y"}}}]`},
		{"usage categories out of order", `[{"name": "n", "source": "s", "robots": "x", "agents": ["a"], "url": "/", "expect": {"google": {"allowed": true, "usage": "search=y train-ai=n"}}}]`},
		{"usage - when allowed", `[{"name": "n", "source": "s", "robots": "x", "agents": ["a"], "url": "/", "expect": {"google": {"allowed": true, "usage": "-"}}}]`},
		{"header without usage", `[{"name": "n", "source": "s", "robots": "x", "agents": ["a"], "url": "/", "content_usage_header": ["train-ai=n"], "expect": {"google": {"allowed": true}}}]`},
		{"usage when disallowed", `[{"name": "n", "source": "s", "robots": "x", "agents": ["a"], "url": "/", "expect": {"google": {"allowed": false, "line": 1, "usage": "train-ai=unknown search=unknown"}}}]`},
		{"not json", `[{`},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		path := filepath.Join(dir, "table.json")
		if err := os.WriteFile(path, []byte(tt.json), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadConformance(path); err == nil {
			t.Errorf("%s: LoadConformance accepted %s", tt.name, tt.json)
		}
	}
	path := filepath.Join(dir, "ok.json")
	ok := `[` + valid + `, {"name": "empty", "source": "s", "robots_quoted": "\"\"", "agents": ["a"], "url": "/", "expect": {"rfc9309": {"allowed": true, "line": 0, "usage": "train-ai=unknown search=unknown"}, "google": {"allowed": false, "line": 1, "usage": "-"}}}]`
	if err := os.WriteFile(path, []byte(ok), 0o644); err != nil {
		t.Fatal(err)
	}
	cases, err := LoadConformance(path)
	if err != nil {
		t.Fatalf("LoadConformance rejected a valid table: %v", err)
	}
	if len(cases) != 2 || string(cases[0].Body()) != "User-agent: *" || len(cases[1].Body()) != 0 {
		t.Errorf("LoadConformance = %+v, want the two cases with their bodies", cases)
	}
}

// TestExtractPath checks the reference's reading of URLs against the
// examples of docs/SEMANTICS.md section 3.3.
func TestExtractPath(t *testing.T) {
	const r, g, k = compile.RFC9309, compile.Google, compile.Koster1996
	tests := []struct {
		url      string
		rfc, ggl string // Koster1996 reads URLs as RFC9309 does
	}{
		{"https://example.com/a?b#c", "/a?b", "/a?b"},
		{"https://example.com", "/", "/"},
		{"http://u:p@[::1]:8080/x", "/x", "/x"},
		{"//example.com/a", "/a", "/a"},
		{"/a?b", "/a?b", "/a?b"},
		{"/a?b#c", "/a?b", "/a?b"},
		{"/", "/", "/"},
		{"www.example.com/private", "/private", "/private"},
		{"example.com:8080/a", "/a", "/a"},
		{"www.example.com?q", "/?q", "/?q"},
		{"mailto:a@b", "/", "/"},
		{"foo", "/", "/"},
		{"", "/", "/"},
		{"a#b/c", "/", "/"},
		{"http://a.com;x/y", "/y", "/;x/y"},
		{"http://a.com?x", "/?x", "/?x"},
		{"http://a.com#x/y", "/", "/"},
		{"HTTP://a.com/b", "/b", "/b"},
		{"a/b", "/b", "/b"},
		{"//a/b", "/b", "/b"},
		{"//a", "/", "/"},
		{"http://a.com/%7E/*$", "/%7E/*$", "/%7E/*$"},
		{"s3+x-y.z://h/p", "/p", "/p"},
		{"1x://h/p", "/p", "/p"},
	}
	for _, tt := range tests {
		for _, c := range []struct {
			sem  compile.Semantics
			want string
		}{{r, tt.rfc}, {k, tt.rfc}, {g, tt.ggl}} {
			if got := ExtractPath(tt.url, c.sem); got != c.want {
				t.Errorf("ExtractPath(%q, %s) = %q, want %q", tt.url, c.sem, got, c.want)
			}
		}
	}
}

// TestNormalized checks the reference's percent-normalisation of patterns
// and paths against docs/SEMANTICS.md sections 3.1 and 3.2.
func TestNormalized(t *testing.T) {
	const r, g, k = compile.RFC9309, compile.Google, compile.Koster1996
	type normCase struct {
		in   string
		sem  compile.Semantics
		want string
	}
	patterns := []normCase{
		{"/%7Ejoe", r, "/~joe"},
		{"/%7ejoe", g, "/%7Ejoe"},
		{"/%7Ejoe", k, "/~joe"},
		{"/a%2fb", r, "/a%2Fb"},
		{"/a%2fb", g, "/a%2Fb"},
		{"/%41%62", r, "/Ab"},
		{"/\xc3\xbc", r, "/%C3%BC"},
		{"/\xc3\xbc", g, "/%C3%BC"},
		{"/%c3%bc", r, "/%C3%BC"},
		{"/a$b", r, "/a%24b"},
		{"/a$b", g, "/a$b"},
		{"/a$", r, "/a$"},
		{"/a$$", r, "/a%24$"},
		{"/a*b*", r, "/a*b*"},
		{"/a*$", k, "/a%2A%24"},
		{"/a-%2A", r, "/a-%2A"},
		{"/%zz%", r, "/%zz%"},
		{"/%%41", r, "/%%41"},
		{"/%4%41", r, "/%4%41"},
		{"/%4%42", g, "/%4%42"},
		{"/%%7e", r, "/%~"},
		{"/%x%41", r, "/%xA"},
	}
	for _, tt := range patterns {
		if got := NormalizedPattern(tt.in, tt.sem); got != tt.want {
			t.Errorf("NormalizedPattern(%q, %s) = %q, want %q", tt.in, tt.sem, got, tt.want)
		}
		if again := NormalizedPattern(tt.want, tt.sem); again != tt.want {
			t.Errorf("NormalizedPattern(%q, %s) = %q: not idempotent", tt.want, tt.sem, again)
		}
	}
	paths := []normCase{
		{"/%7Ejoe", r, "/~joe"},
		{"/%7Ejoe", k, "/~joe"},
		{"/%7ejoe", g, "/%7ejoe"},
		{"/%62az", g, "/%62az"},
		{"/a-*", r, "/a-%2A"},
		{"/a$", r, "/a%24"},
		{"/a*$", k, "/a%2A%24"},
		{"/\xc3\xbc?q=%2f", r, "/%C3%BC?q=%2F"},
		{"/\xc3\xbc", g, "/\xc3\xbc"},
		{"/robots%2etxt", r, "/robots.txt"},
	}
	for _, tt := range paths {
		if got := NormalizedPath(tt.in, tt.sem); got != tt.want {
			t.Errorf("NormalizedPath(%q, %s) = %q, want %q", tt.in, tt.sem, got, tt.want)
		}
	}
}

// matchTable is Match by the plain dynamic programme: row[j] reports
// whether the pattern bytes seen so far match path[:j]. O(pattern*path).
func matchTable(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	row := make([]bool, len(path)+1)
	next := make([]bool, len(path)+1)
	row[0] = true
	for i := 0; i < len(pattern); i++ {
		p := pattern[i]
		for j := 0; j <= len(path); j++ {
			if p == '*' {
				// '*' matches nothing (row[j]) or one more byte (next[j-1]).
				next[j] = row[j] || (j > 0 && next[j-1])
			} else {
				next[j] = j > 0 && row[j-1] && path[j-1] == p
			}
		}
		row, next = next, row
	}
	if anchored {
		return row[len(path)]
	}
	for _, ok := range row {
		if ok {
			return true
		}
	}
	return false
}

// TestMatch_AgreesWithTable compares Match, which takes the first
// occurrence of each literal part, with the dynamic programme over every
// (pattern, path) position, on random patterns and paths over small
// alphabets (where parts overlap and repeat).
func TestMatch_AgreesWithTable(t *testing.T) {
	r := rand.New(rand.NewSource(9309))
	for k := 0; k < 200000; k++ {
		var pb, ib strings.Builder
		for n := r.Intn(9); n > 0; n-- {
			pb.WriteByte("ab*$/"[r.Intn(5)])
		}
		if r.Intn(3) == 0 {
			pb.WriteByte('$')
		}
		for n := r.Intn(12); n > 0; n-- {
			ib.WriteByte("ab$/"[r.Intn(4)])
		}
		p, in := pb.String(), ib.String()
		if got, want := Match(p, in), matchTable(p, in); got != want {
			t.Fatalf("Match(%q, %q) = %v, the table says %v", p, in, got, want)
		}
	}
}
