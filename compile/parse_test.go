package compile

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
)

// recorder is a handler that writes every call as one short line, so that a
// test of Scan is a list of strings.
type recorder struct{ events []string }

func (r *recorder) UserAgent(line int, value string) {
	r.events = append(r.events, fmt.Sprintf("%d user-agent %q", line, value))
}

func (r *recorder) Rule(line int, kind RuleKind, value string) {
	r.events = append(r.events, fmt.Sprintf("%d %s %q", line, kind, value))
}

func (r *recorder) Sitemap(line int, value string) {
	r.events = append(r.events, fmt.Sprintf("%d sitemap %q", line, value))
}

func (r *recorder) Extension(line int, key, value string) {
	r.events = append(r.events, fmt.Sprintf("%d ext %q %q", line, key, value))
}

func (r *recorder) Usage(line int, value string) {
	r.events = append(r.events, fmt.Sprintf("%d content-usage %q", line, value))
}

func (r *recorder) Blank(line int) { r.events = append(r.events, fmt.Sprintf("%d blank", line)) }

func (r *recorder) Unreadable(line int) {
	r.events = append(r.events, fmt.Sprintf("%d unreadable", line))
}

func (r *recorder) Diagnostic(d Diagnostic) {
	r.events = append(r.events, fmt.Sprintf("%d diag %s", d.Line, d.Kind))
}

func scanEvents(body string, opts Options) ([]string, scanResult) {
	var r recorder
	res := scan([]byte(body), opts, &r)
	return r.events, res
}

type scanCase struct {
	name  string
	body  string
	want  []string
	lines int // expected scanResult.Lines; -1: not checked
}

func runScanCases(t *testing.T, cases []scanCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, res := scanEvents(tc.body, Options{})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Scan(%q) events (-want +got):\n%s", tc.body, diff)
			}
			if tc.lines >= 0 && res.Lines != tc.lines {
				t.Errorf("Scan(%q).Lines = %d, want %d", tc.body, res.Lines, tc.lines)
			}
		})
	}
}

// RFC 9309 section 2.2 (formal syntax: NL = %x0D / %x0A / %x0D.0A) and
// docs/SEMANTICS.md section 1.1: lines end at LF, CR LF or a lone CR; a last
// line without an end counts.
func TestRFC9309_ScanLineEnds(t *testing.T) {
	runScanCases(t, []scanCase{
		{"empty", "", nil, 0},
		{"lf", "user-agent: a\ndisallow: /x\n", []string{`1 user-agent "a"`, `2 disallow "/x"`}, 2},
		{"crlf", "user-agent: a\r\ndisallow: /x\r\n", []string{`1 user-agent "a"`, `2 disallow "/x"`}, 2},
		{"lone cr", "user-agent: a\rdisallow: /x\r", []string{`1 user-agent "a"`, `2 disallow "/x"`}, 2},
		{"mixed", "user-agent: a\rallow: /y\r\ndisallow: /x\nsitemap: s", []string{
			`1 user-agent "a"`, `2 allow "/y"`, `3 disallow "/x"`, `4 sitemap "s"`}, 4},
		{"last line without end", "user-agent: a\ndisallow: /x", []string{`1 user-agent "a"`, `2 disallow "/x"`}, 2},
		{"blank lines", "\n\r\n\r \t\n", []string{"1 blank", "2 blank", "3 blank", "4 blank"}, 4},
		{"cr cr lf is a blank line between", "a: b\r\r\nc: d", []string{
			`1 diag unknown-key`, `1 ext "a" "b"`, "2 blank", `3 diag unknown-key`, `3 ext "c" "d"`}, 3},
		{"lf cr is two line ends", "\n\r", []string{"1 blank", "2 blank"}, 2},
	})
}

// Google's robots.cc (the parser skips a UTF-8 byte-order mark, also a
// truncated one, at the very start only) and docs/SEMANTICS.md section 1.1.
func TestGoogle_ScanByteOrderMark(t *testing.T) {
	runScanCases(t, []scanCase{
		{"bom", "\xEF\xBB\xBFuser-agent: a", []string{`1 user-agent "a"`}, 1},
		{"bom only", "\xEF\xBB\xBF", nil, 0},
		{"truncated ef bb", "\xEF\xBBuser-agent: a", []string{`1 user-agent "a"`}, 1},
		{"truncated ef", "\xEFuser-agent: a", []string{`1 user-agent "a"`}, 1},
		{"bom then blank", "\xEF\xBB\xBF\nallow: /", []string{"1 blank", `2 allow "/"`}, 2},
		{"bom on line 2 is ordinary bytes", "allow: /\n\xEF\xBB\xBFuser-agent: a", []string{
			`1 allow "/"`, `2 diag unknown-key`, `2 ext "\ufeffuser-agent" "a"`}, 2},
		{"two boms", "\xEF\xBB\xBF\xEF\xBB\xBFuser-agent: a", []string{
			`1 diag unknown-key`, `1 ext "\ufeffuser-agent" "a"`}, 1},
	})
}

// RFC 9309 section 2.2.3 (special characters: '#' designates an end of line
// comment) and docs/SEMANTICS.md section 1.1: a comment starts anywhere, also
// in a value; a comment-only line is not blank.
func TestRFC9309_ScanComments(t *testing.T) {
	runScanCases(t, []scanCase{
		{"comment line", "# hello: world", nil, 1},
		{"indented comment", "  \t# x", nil, 1},
		{"end of line", "disallow: /a # why", []string{`1 disallow "/a"`}, 1},
		{"inside value", "disallow: /a#b", []string{`1 disallow "/a"`}, 1},
		{"value only comment", "disallow: # nothing", []string{`1 disallow ""`}, 1},
		{"in key", "disal#low: /a", []string{`1 diag missing-colon`, `1 unreadable`}, 1},
		{"user-agent", "user-agent: Googlebot # the crawler", []string{`1 user-agent "Googlebot"`}, 1},
	})
}

// RFC 9309 section 2.2 (formal syntax: *WS key *WS ":" *WS value) and
// docs/SEMANTICS.md section 1.2: split at the first colon, trim spaces and tabs,
// keys case-insensitive, values as written.
func TestRFC9309_ScanKeyValue(t *testing.T) {
	runScanCases(t, []scanCase{
		{"spaces and tabs", " \tDisallow \t: \t/a b \t", []string{`1 disallow "/a b"`}, 1},
		{"no spaces", "disallow:/a", []string{`1 disallow "/a"`}, 1},
		{"first colon", "Disallow: /a:b:c", []string{`1 disallow "/a:b:c"`}, 1},
		{"key case", "DISALLOW: /A\nuSeR-aGeNt: FooBot\nALLOW: /B\nSITEMAP: https://x/S", []string{
			`1 disallow "/A"`, `2 user-agent "FooBot"`, `3 allow "/B"`, `4 sitemap "https://x/S"`}, 4},
		{"empty value", "disallow:", []string{`1 disallow ""`}, 1},
		{"empty key", ": /a", []string{`1 diag missing-colon`, `1 unreadable`}, 1},
		{"sitemap url", "Sitemap: https://example.com/sitemap.xml", []string{
			`1 sitemap "https://example.com/sitemap.xml"`}, 1},
		{"other whitespace is not trimmed", "disallow: /a\v", []string{"1 disallow \"/a\\v\""}, 1},
	})
}

// Google's robots.cc (a missing colon is accepted when the line has exactly
// two words) and docs/SEMANTICS.md section 1.2.
func TestGoogle_ScanMissingColon(t *testing.T) {
	runScanCases(t, []scanCase{
		{"two words", "Disallow /x", []string{`1 diag missing-colon`, `1 disallow "/x"`}, 1},
		{"two words with tabs", "user-agent\t\tFooBot  ", []string{`1 diag missing-colon`, `1 user-agent "FooBot"`}, 1},
		{"three words", "Disallow /x /y", []string{`1 diag missing-colon`, `1 unreadable`}, 1},
		{"one word", "Disallow", []string{`1 diag missing-colon`, `1 unreadable`}, 1},
		{"unknown key", "foo bar", []string{`1 diag missing-colon`, `1 diag unknown-key`, `1 ext "foo" "bar"`}, 1},
		{"known extension", "crawl-delay 5", []string{`1 diag missing-colon`, `1 ext "crawl-delay" "5"`}, 1},
		{"text", "This is not a robots.txt file", []string{`1 diag missing-colon`, `1 unreadable`}, 1},
	})
}

// Google's robots.cc (keys recognised by case-insensitive prefix, with
// frequent typos) and docs/SEMANTICS.md section 1.2.
func TestGoogle_ScanKeyPrefixAndTypos(t *testing.T) {
	runScanCases(t, []scanCase{
		{"canonical", "user-agent: a\nallow: /a\ndisallow: /d\nsitemap: s", []string{
			`1 user-agent "a"`, `2 allow "/a"`, `3 disallow "/d"`, `4 sitemap "s"`}, 4},
		{"useragent", "UserAgent: a", []string{`1 diag typo`, `1 user-agent "a"`}, 1},
		{"user agent", "User Agent: a", []string{`1 diag typo`, `1 user-agent "a"`}, 1},
		{"user-agentx", "user-agentx: a", []string{`1 diag typo`, `1 user-agent "a"`}, 1},
		{"user-agents", "User-Agents: a", []string{`1 diag typo`, `1 user-agent "a"`}, 1},
		{"allowed", "Allowed: /a", []string{`1 diag typo`, `1 allow "/a"`}, 1},
		{"disallowed", "disallowed: /a", []string{`1 diag typo`, `1 disallow "/a"`}, 1},
		{"dissallow", "Dissallow: /a", []string{`1 diag typo`, `1 disallow "/a"`}, 1},
		{"dissalow", "dissalow: /a", []string{`1 diag typo`, `1 disallow "/a"`}, 1},
		{"disalow", "DISALOW: /a", []string{`1 diag typo`, `1 disallow "/a"`}, 1},
		{"diasllow", "diasllow: /a", []string{`1 diag typo`, `1 disallow "/a"`}, 1},
		{"disallaw", "disallaw: /a", []string{`1 diag typo`, `1 disallow "/a"`}, 1},
		{"site-map", "Site-map: s", []string{`1 diag typo`, `1 sitemap "s"`}, 1},
		{"sitemaps", "sitemaps: s", []string{`1 diag typo`, `1 sitemap "s"`}, 1},
		{"key with words", "disallow this: /a", []string{`1 diag typo`, `1 disallow "/a"`}, 1},
		{"not a prefix", "disalloww: /a\nuser_agent: b\nallo: /c", []string{
			`1 diag typo`, `1 disallow "/a"`,
			`2 diag unknown-key`, `2 ext "user_agent" "b"`,
			`3 diag unknown-key`, `3 ext "allo" "/c"`}, 3},
		{"leading junk", "-disallow: /a", []string{`1 diag unknown-key`, `1 ext "-disallow" "/a"`}, 1},
	})
}

// RFC 9309 section 2.2.4 (other records: clients MAY interpret other
// records) and docs/SEMANTICS.md section 6: other keys are extensions, key
// lower-cased; only keys that are not well-known extensions are reported as
// unknown.
func TestRFC9309_ScanOtherRecords(t *testing.T) {
	var body strings.Builder
	var want []string
	for i, k := range knownExtensions {
		fmt.Fprintf(&body, "%s: v%d\n", strings.ToUpper(k[:1])+k[1:], i)
		if k == usageKey { // a line of its own (docs/SEMANTICS.md section 7)
			want = append(want, fmt.Sprintf("%d content-usage \"v%d\"", i+1, i))
			continue
		}
		want = append(want, fmt.Sprintf("%d ext %q \"v%d\"", i+1, k, i))
	}
	n := len(knownExtensions)
	body.WriteString("X-Robots-Tag: none\nfoo:\n")
	want = append(want,
		fmt.Sprintf("%d diag unknown-key", n+1), fmt.Sprintf("%d ext \"x-robots-tag\" \"none\"", n+1),
		fmt.Sprintf("%d diag unknown-key", n+2), fmt.Sprintf("%d ext \"foo\" \"\"", n+2))
	runScanCases(t, []scanCase{{"all", body.String(), want, n + 2}})
}

// Google's robots.cc (kMaxLineLen = 2083 * 8) and docs/SEMANTICS.md section
// 1.3: at most MaxLineLength bytes of a line are kept and still parsed; a NUL
// byte ends the line's content.
func TestGoogle_ScanLineLimits(t *testing.T) {
	long := "disallow: /" + strings.Repeat("a", MaxLineLength)
	kept := long[len("disallow: "):MaxLineLength]
	events, _ := scanEvents(long+"\nallow: /b", Options{})
	want := []string{"1 diag line-too-long", fmt.Sprintf("1 disallow %q", kept), `2 allow "/b"`}
	if diff := cmp.Diff(want, events); diff != "" {
		t.Errorf("long line (-want +got):\n%s", diff)
	}
	exact := "disallow: /" + strings.Repeat("a", MaxLineLength-len("disallow: /"))
	events, _ = scanEvents(exact, Options{})
	if diff := cmp.Diff([]string{fmt.Sprintf("1 disallow %q", exact[10:])}, events); diff != "" {
		t.Errorf("line of exactly MaxLineLength bytes (-want +got):\n%s", diff)
	}

	runScanCases(t, []scanCase{
		{"nul ends content", "disallow: /a\x00/b\nallow: /c", []string{
			`1 diag not-utf8`, `1 disallow "/a"`, `2 allow "/c"`}, 2},
		{"nul line is not blank", "\x00 junk", []string{`1 diag not-utf8`}, 1},
		{"nul cuts key", "disal\x00low: /a", []string{`1 diag not-utf8`, `1 diag missing-colon`, `1 unreadable`}, 1},
	})
}

// RFC 9309 section 2.5 (a parsing limit of at least 500 KiB) and
// docs/SEMANTICS.md section 1.3: only the first EffectiveMaxFileSize bytes are
// read. DiagTruncated is reported at the line in which reading stopped: the
// last line read when the limit falls inside it, the line after it when the
// limit falls on a line end.
func TestRFC9309_ScanSizeLimit(t *testing.T) {
	line := "disallow: /0123456789\n" // 22 bytes
	body := strings.Repeat(line, DefaultMaxFileSize/len(line)+1)
	if len(body) <= DefaultMaxFileSize {
		t.Fatal("body too short")
	}
	var r recorder
	res := scan([]byte(body), Options{}, &r)
	full := DefaultMaxFileSize / len(line)
	if want := (scanResult{Size: DefaultMaxFileSize, Truncated: true, Lines: full + 1}); res != want {
		t.Errorf("Scan = %+v, want %+v", res, want)
	}
	tail := r.events[len(r.events)-2:]
	partial := line[:DefaultMaxFileSize-full*len(line)]
	wantTail := []string{fmt.Sprintf("%d disallow %q", full+1, partial[len("disallow: "):]),
		fmt.Sprintf("%d diag truncated", full+1)}
	if diff := cmp.Diff(wantTail, tail); diff != "" {
		t.Errorf("tail (-want +got):\n%s", diff)
	}

	// The limit on a line end: truncation is reported on the next line.
	body = strings.Repeat("#234567\n", DefaultMaxFileSize/8) + "disallow: /"
	events, res := scanEvents(body, Options{})
	if want := (scanResult{Size: DefaultMaxFileSize, Truncated: true, Lines: DefaultMaxFileSize / 8}); res != want {
		t.Errorf("Scan = %+v, want %+v", res, want)
	}
	if diff := cmp.Diff([]string{fmt.Sprintf("%d diag truncated", DefaultMaxFileSize/8+1)}, events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}

	// A larger limit reads more; a smaller one is ignored.
	for _, tc := range []struct {
		max  int
		want scanResult
	}{
		{0, scanResult{Size: DefaultMaxFileSize, Truncated: true, Lines: DefaultMaxFileSize / 8}},
		{100, scanResult{Size: DefaultMaxFileSize, Truncated: true, Lines: DefaultMaxFileSize / 8}},
		{len(body), scanResult{Size: len(body), Lines: DefaultMaxFileSize/8 + 1}},
		{2 * len(body), scanResult{Size: len(body), Lines: DefaultMaxFileSize/8 + 1}},
	} {
		if got := scan([]byte(body), Options{MaxFileSize: tc.max}, &recorder{}); got != tc.want {
			t.Errorf("MaxFileSize %d: Scan = %+v, want %+v", tc.max, got, tc.want)
		}
	}
}

// RFC 9309 section 2.3.1.5 (parsing errors: crawlers SHOULD try to parse
// each line and MUST use the parseable rules) and docs/SEMANTICS.md section
// 1.3: invalid UTF-8 never stops parsing; the line is read and reported.
func TestRFC9309_ScanNotUTF8(t *testing.T) {
	runScanCases(t, []scanCase{
		{"latin-1 value", "user-agent: a\ndisallow: /caf\xE9\nallow: /b", []string{
			`1 user-agent "a"`, `2 diag not-utf8`, "2 disallow \"/caf\\xe9\"", `3 allow "/b"`}, 3},
		{"valid utf-8", "disallow: /café", []string{`1 disallow "/café"`}, 1},
		{"utf-16 bom", "\xFF\xFEu\x00", []string{`1 diag not-utf8`, `1 diag not-utf8`, `1 diag missing-colon`, `1 unreadable`}, 1},
	})
}

// docs/SEMANTICS.md section 1.4 (every line that is not understood is reported):
// lines that look like HTML never become directives (a server that sends an
// error page for robots.txt). No source defines this; it is our linter's.
func TestScan_HTML(t *testing.T) {
	runScanCases(t, []scanCase{
		{"tag", "<html>", []string{`1 diag html`, `1 unreadable`}, 1},
		{"indented", "  <a href=\"http://x/\">Disallow: /</a>", []string{`1 diag html`, `1 unreadable`}, 1},
		{"tag in key", "foo <b>disallow</b>: /", []string{`1 diag html`, `1 unreadable`}, 1},
		{"closing in key", "b>user-agent: *", []string{`1 diag html`, `1 unreadable`}, 1},
		{"two words", "<p> x", []string{`1 diag html`, `1 unreadable`}, 1},
		{"html in value is fine", "disallow: /<script>", []string{`1 disallow "/<script>"`}, 1},
	})
}

// TestScan_ValuesShareTheCopy checks that Scan copies the body once: values
// stay valid after the caller reuses its buffer.
func TestScan_ValuesShareTheCopy(t *testing.T) {
	body := []byte("user-agent: a\ndisallow: /x")
	f := parseDiag(body, Options{})
	copy(body, strings.Repeat("z", len(body)))
	if got := f.Groups[0].Rules.At(0).Value; got != "/x" {
		t.Errorf("value after the body was overwritten = %q, want /x", got)
	}
}

// TestScan_Linear: the scanner reads each byte at most once a search for a
// line end ('\n', '\r') or a '#' (docs/SEMANTICS.md section 1: linear in
// the bytes read), on the bodies that would make a search from each line's
// start quadratic: lone CRs before one LF at the end, one '#' at the end
// after many lines, lines that are only '#', no line end at all.
func TestScan_Linear(t *testing.T) {
	n := DefaultMaxFileSize / 5
	for name, body := range map[string]string{
		"lone CRs":      strings.Repeat("a: b\r", n-1) + "\n",
		"hash at end":   strings.Repeat("a: b\n", n-1) + "#",
		"hashes":        strings.Repeat("#\r\n", n),
		"CR LF and #":   strings.Repeat("a: b # c\r\n", n/2),
		"no line end":   strings.Repeat("a", 5*n),
		"lone LF at 0":  "\n" + strings.Repeat("a: b\r", n-1),
		"CRs then hash": strings.Repeat("\r", 5*n-1) + "#",
	} {
		s, _ := view([]byte(body), Options{})
		sc := scanner{h: &countHandler{}, s: s}
		res := sc.scan(false)
		if res.Lines == 0 || sc.searched > 3*len(s) {
			t.Errorf("%s: %d lines of %d bytes, the searches read %d bytes (at most %d)", name, res.Lines, len(s), sc.searched, 3*len(s))
		}
	}
}

// countHandler counts calls and keeps nothing.
type countHandler struct{ n int }

func (c *countHandler) UserAgent(int, string)         { c.n++ }
func (c *countHandler) Rule(int, RuleKind, string)    { c.n++ }
func (c *countHandler) Sitemap(int, string)           { c.n++ }
func (c *countHandler) Extension(int, string, string) { c.n++ }
func (c *countHandler) Usage(int, string)             { c.n++ }
func (c *countHandler) Blank(int)                     { c.n++ }
func (c *countHandler) Unreadable(int)                { c.n++ }
func (c *countHandler) Diagnostic(Diagnostic)         { c.n++ }

// Helpers that build the expected File.

func rule(sem Semantics, kind RuleKind, value string, line int) Rule {
	return Rule{Kind: kind, Pattern: NormalizePattern(value, sem), Value: value, Line: line}
}

func agent(value string, line int) Agent {
	return Agent{Name: AgentName(value), Value: value, Line: line}
}

func ext(key, value string, line int) Extension { return Extension{Key: key, Value: value, Line: line} }

// diagKinds returns "line kind" for every diagnostic of f.
func diagKinds(f *File) []string {
	var out []string
	for _, d := range f.Diagnostics {
		out = append(out, fmt.Sprintf("%d %s", d.Line, d.Kind))
	}
	return out
}

type parseCase struct {
	name   string
	body   string
	groups []Group
	diags  []string // "line kind"
	joins  []Join
}

func runParseCases(t *testing.T, sem Semantics, cases []parseCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := parseDiag([]byte(tc.body), Options{Semantics: sem})
			if diff := cmp.Diff(tc.groups, f.Groups); diff != "" {
				t.Errorf("Parse(%q, %v) groups (-want +got):\n%s", tc.body, sem, diff)
			}
			if diff := cmp.Diff(tc.diags, diagKinds(f)); diff != "" {
				t.Errorf("Parse(%q, %v) diagnostics (-want +got):\n%s", tc.body, sem, diff)
			}
			if diff := cmp.Diff(tc.joins, f.Joins); diff != "" {
				t.Errorf("Parse(%q, %v) joins (-want +got):\n%s", tc.body, sem, diff)
			}
		})
	}
}

// groupingCases hold for RFC9309 and Google alike.
func groupingCases(sem Semantics) []parseCase {
	d := func(v string, line int) Rule { return rule(sem, Disallow, v, line) }
	a := func(v string, line int) Rule { return rule(sem, Allow, v, line) }
	return []parseCase{
		{name: "one group", body: "user-agent: a\ndisallow: /x\nallow: /y",
			groups: []Group{{Agents: agentsOf(agent("a", 1)), Rules: rulesOf(d("/x", 2), a("/y", 3))}}},
		{name: "consecutive user-agents share rules",
			body: "user-agent: a\nuser-agent: b\ndisallow: /x\nuser-agent: c\nallow: /y",
			groups: []Group{
				{Agents: agentsOf(agent("a", 1), agent("b", 2)), Rules: rulesOf(d("/x", 3))},
				{Agents: agentsOf(agent("c", 4)), Rules: rulesOf(a("/y", 5))},
			}},
		{name: "blank comment sitemap unknown between user-agents",
			body: "user-agent: a\n\n# c\nsitemap: s\nfoo: bar\nuser-agent: b\ndisallow: /x",
			groups: []Group{{Agents: agentsOf(agent("a", 1), agent("b", 6)),
				Rules: rulesOf(d("/x", 7)), Extensions: extsOf(ext("foo", "bar", 5))}},
			diags: []string{"5 unknown-key"},
			joins: []Join{{Group: 0, Agent: 1, Line: 4, Key: "sitemap"}}},
		{name: "blank line does not end a group",
			body:   "user-agent: a\ndisallow: /x\n\n\ndisallow: /y",
			groups: []Group{{Agents: agentsOf(agent("a", 1)), Rules: rulesOf(d("/x", 2), d("/y", 5))}}},
		{name: "empty disallow separates and is not stored",
			body: "user-agent: a\ndisallow:\nuser-agent: b\ndisallow: /x",
			groups: []Group{
				{Agents: agentsOf(agent("a", 1)), EmptyRuleLine: 2},
				{Agents: agentsOf(agent("b", 3)), Rules: rulesOf(d("/x", 4))},
			}},
		{name: "empty allow separates too",
			body:   "user-agent: a\nallow: # none\nuser-agent: b",
			groups: []Group{{Agents: agentsOf(agent("a", 1)), EmptyRuleLine: 2}, {Agents: agentsOf(agent("b", 3))}}},
		{name: "crawl-delay does not separate",
			body: "user-agent: a\ncrawl-delay: 5\nuser-agent: b\ndisallow: /x",
			groups: []Group{{Agents: agentsOf(agent("a", 1), agent("b", 3)),
				Rules: rulesOf(d("/x", 4)), Extensions: extsOf(ext("crawl-delay", "5", 2))}},
			joins: []Join{{Group: 0, Agent: 1, Line: 2, Key: "crawl-delay"}}},
		{name: "rules before the first user-agent",
			body:   "disallow: /x\nallow:\ncrawl-delay: 1\nuser-agent: a\ndisallow: /y",
			groups: []Group{{Agents: agentsOf(agent("a", 4)), Rules: rulesOf(d("/y", 5))}},
			diags:  []string{"1 rule-outside-group", "2 rule-outside-group", "3 rule-outside-group"}},
		{name: "extensions after rules stay in the group",
			body: "user-agent: a\ndisallow: /x\nhost: example.com\nclean-param: ref /x\nrequest-rate: 1/5",
			groups: []Group{{Agents: agentsOf(agent("a", 1)), Rules: rulesOf(d("/x", 2)), Extensions: extsOf(
				ext("host", "example.com", 3), ext("clean-param", "ref /x", 4), ext("request-rate", "1/5", 5))}}},
		{name: "last group without rules",
			body:   "user-agent: a\ndisallow: /x\nuser-agent: b",
			groups: []Group{{Agents: agentsOf(agent("a", 1)), Rules: rulesOf(d("/x", 2))}, {Agents: agentsOf(agent("b", 3))}}},
		{name: "typo key still separates",
			body: "user-agent: a\ndisalow: /x\nuseragent: b\nallow: /y",
			groups: []Group{
				{Agents: agentsOf(agent("a", 1)), Rules: rulesOf(d("/x", 2))},
				{Agents: agentsOf(agent("b", 3)), Rules: rulesOf(a("/y", 4))},
			},
			diags: []string{"2 typo", "3 typo"}},
		{name: "invalid user-agents",
			body: "user-agent:\nuser-agent: *foo\nuser-agent: /x\nuser-agent: Foo Bar\ndisallow: /",
			groups: []Group{{Agents: agentsOf(agent("", 1), agent("*foo", 2), agent("/x", 3), agent("Foo Bar", 4)),
				Rules: rulesOf(d("/", 5))}},
			diags: []string{"1 invalid-value", "2 invalid-value", "3 invalid-value"}},
		{name: "bad crawl-delay is kept",
			body: "user-agent: a\ncrawl-delay: soon\ncrawl-delay: -1\ncrawl-delay: 0.5",
			groups: []Group{{Agents: agentsOf(agent("a", 1)), Extensions: extsOf(
				ext("crawl-delay", "soon", 2), ext("crawl-delay", "-1", 3), ext("crawl-delay", "0.5", 4))}},
			diags: []string{"2 invalid-value", "3 invalid-value"}},
		{name: "html lines are not directives",
			body:   "<html>\n<body>User-agent: *\nDisallow: /\n</body>",
			groups: nil,
			diags:  []string{"1 html", "2 html", "3 rule-outside-group", "4 html"}},
	}
}

// RFC 9309 section 2.1 (protocol definition: a group is one or more
// user-agent lines followed by rules), 2.2 (ABNF: rule = ... (path-pattern /
// empty-pattern)) and 2.2.2 (rules outside any group are ignored);
// docs/SEMANTICS.md sections 2.1 and 6.
func TestRFC9309_ParseGroups(t *testing.T) {
	runParseCases(t, RFC9309, groupingCases(RFC9309))
}

// Google's "grouping of lines and rules" and robots.cc (a user-agent line
// after a rule, even an empty one, starts a new group): same as RFC9309.
func TestGoogle_ParseGroups(t *testing.T) {
	runParseCases(t, Google, groupingCases(Google))
}

// Koster 1996 section 3.2 (records separated by blank lines) and Python's
// urllib.robotparser (a record without rules before the blank line is
// dropped; rules after a blank line belong to no record); docs/SEMANTICS.md
// section 2.1.
func TestKoster1996_ParseRecords(t *testing.T) {
	sem := Koster1996
	d := func(v string, line int) Rule { return rule(sem, Disallow, v, line) }
	runParseCases(t, sem, []parseCase{
		{name: "records separated by blank lines",
			body: "user-agent: a\ndisallow: /x\n\nuser-agent: b\ndisallow: /y\n",
			groups: []Group{
				{Agents: agentsOf(agent("a", 1)), Rules: rulesOf(d("/x", 2))},
				{Agents: agentsOf(agent("b", 4)), Rules: rulesOf(d("/y", 5))},
			}},
		{name: "blank line ends the record, rules after it are outside",
			body:   "user-agent: a\ndisallow: /x\n\ndisallow: /y\ncrawl-delay: 3",
			groups: []Group{{Agents: agentsOf(agent("a", 1)), Rules: rulesOf(d("/x", 2))}},
			diags:  []string{"4 rule-outside-group", "5 rule-outside-group"}},
		{name: "user-agent then blank line: record dropped",
			body:   "user-agent: a\n\nuser-agent: *\ndisallow: /",
			groups: []Group{{Agents: agentsOf(agent("*", 3)), Rules: rulesOf(d("/", 4))}},
			diags:  []string{"2 rule-outside-group"}},
		{name: "classic mistake",
			body:  "user-agent: *\n\ndisallow: /",
			diags: []string{"2 rule-outside-group", "3 rule-outside-group"}},
		{name: "record with only an extension is kept",
			body: "user-agent: a\ncrawl-delay: 10\n\nuser-agent: b\ndisallow: /",
			groups: []Group{
				{Agents: agentsOf(agent("a", 1)), Extensions: extsOf(ext("crawl-delay", "10", 2))},
				{Agents: agentsOf(agent("b", 4)), Rules: rulesOf(d("/", 5))},
			}},
		{name: "empty disallow keeps the record",
			body:   "user-agent: a\ndisallow:\n\nuser-agent: b",
			groups: []Group{{Agents: agentsOf(agent("a", 1)), EmptyRuleLine: 2}, {Agents: agentsOf(agent("b", 4))}}},
		{name: "comment lines do not end a record",
			body:   "user-agent: a\n# note\nuser-agent: b\n#\ndisallow: /x",
			groups: []Group{{Agents: agentsOf(agent("a", 1), agent("b", 3)), Rules: rulesOf(d("/x", 5))}}},
		{name: "white-space line is blank",
			body:   "user-agent: a\ndisallow: /x\n \t\ndisallow: /y",
			groups: []Group{{Agents: agentsOf(agent("a", 1)), Rules: rulesOf(d("/x", 2))}},
			diags:  []string{"4 rule-outside-group"}},
		{name: "user-agent after rules without blank starts a new record",
			body: "user-agent: a\ndisallow: /x\nuser-agent: b\ndisallow: /y",
			groups: []Group{
				{Agents: agentsOf(agent("a", 1)), Rules: rulesOf(d("/x", 2))},
				{Agents: agentsOf(agent("b", 3)), Rules: rulesOf(d("/y", 4))},
			}},
		{name: "leading and repeated blank lines",
			body:   "\n\nuser-agent: a\ndisallow: /x\n\n\n\n",
			groups: []Group{{Agents: agentsOf(agent("a", 3)), Rules: rulesOf(d("/x", 4))}}},
	})
}

// RFC 9309 section 2.2.1 (product-token = identifier / "*", identifier =
// 1*(%x2d / %x41-5a / %x5f / %x61-7a)) and Google's robots.cc
// (ExtractUserAgent, the global agent "*" followed by white space);
// docs/SEMANTICS.md section 2.2.
func TestRFC9309_AgentName(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"Googlebot", "Googlebot"},
		{"Googlebot/2.1", "Googlebot"},
		{"Googlebot2", "Googlebot"},
		{"Foo Bar", "Foo"},
		{"Googlebot-Image", "Googlebot-Image"},
		{"my_bot", "my_bot"},
		{"*", "*"},
		{"* foo", "*"},
		{"*\tfoo", "*"},
		{"*\vfoo", "*"},
		{"*\f", "*"},
		{"*\x85", ""},
		{"*\x00", ""},
		{"*foo", ""},
		{"*/1.0", ""},
		{"", ""},
		{"/x", ""},
		{"Bot\xe9", "Bot"},
	} {
		if got := AgentName(tc.value); got != tc.want {
			t.Errorf("AgentName(%q) = %q, want %q", tc.value, got, tc.want)
		}
	}
}

// Google's robots.cc (HandleUserAgent) takes a value of '*' followed by any
// byte C's isspace accepts as the global agent: "User-agent: *\vx" is the
// global group there, so it is here, in every semantics (docs/SEMANTICS.md
// section 2.2). Only the byte after the '*' is read so: the value itself is
// still trimmed of spaces and tabs alone (section 1).
func TestGoogle_StarFollowedByIsspace(t *testing.T) {
	for _, c := range []string{" ", "\t", "\v", "\f"} {
		for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
			body := "User-agent: *" + c + "x\nDisallow: /x\n"
			f := parseDiag([]byte(body), Options{Semantics: sem})
			if len(f.Groups) != 1 || !f.Groups[0].IsGlobal() {
				t.Errorf("%v: %q: want one global group, got %+v", sem, body, f.Groups)
			}
		}
	}
	f := parseDiag([]byte("User-agent: *\x1cx\nDisallow: /x\n"), Options{Semantics: Google})
	if len(f.Groups) != 1 || f.Groups[0].IsGlobal() {
		t.Errorf("'*' then 0x1C (not isspace): want one group, not global, got %+v", f.Groups)
	}
}

// docs/SEMANTICS.md section 2.1: a sitemap, an extension or an unreadable
// line between two user-agent lines does not end the group; File.Joins
// says which line joined them, so that a linter need not find it again.
// Blank and comment lines are no Joins, and a rule line (empty or not) ends
// the group.
func TestParse_Joins(t *testing.T) {
	for _, tc := range []struct {
		name string
		sem  Semantics
		body string
		want []Join
	}{
		{"none", RFC9309, "user-agent: a\nuser-agent: b\ndisallow: /", nil},
		{"blank and comment", RFC9309, "user-agent: a\n\n# c\nuser-agent: b\ndisallow: /", nil},
		{"sitemap", RFC9309, "user-agent: a\nsitemap: s\nuser-agent: b", []Join{{0, 1, 2, "sitemap"}}},
		{"first line only", RFC9309, "user-agent: a\n# c\nhost: h\ncrawl-delay: 1\nuser-agent: b", []Join{{0, 1, 3, "host"}}},
		{"unreadable", RFC9309, "user-agent: a\nnot a directive\nuser-agent: b", []Join{{0, 1, 2, ""}}},
		{"html", RFC9309, "user-agent: a\n<br>\nuser-agent: b", []Join{{0, 1, 2, ""}}},
		{"without colon, read as a sitemap", RFC9309, "user-agent: a\nsitemap s\nuser-agent: b", []Join{{0, 1, 2, "sitemap"}}},
		{"unknown key", RFC9309, "user-agent: a\nFoo: bar\nuser-agent: b", []Join{{0, 1, 2, "foo"}}},
		{"user-agent without colon joins nothing", RFC9309, "user-agent: a\nuser-agent b", nil},
		{"each pair", RFC9309, "user-agent: a\nsitemap: s\nuser-agent: b\nuser-agent: c\nx\nuser-agent: d",
			[]Join{{0, 1, 2, "sitemap"}, {0, 3, 5, ""}}},
		{"later group", RFC9309, "user-agent: a\ndisallow:\nuser-agent: b\ncrawl-delay: 1\nuser-agent: c",
			[]Join{{1, 1, 4, "crawl-delay"}}},
		{"a rule ends the group", RFC9309, "user-agent: a\ncrawl-delay: 1\ndisallow: /\nuser-agent: b", nil},
		{"lines outside every group", RFC9309, "sitemap: s\ncrawl-delay: 1\nuser-agent: a", nil},
		{"Google: the same", Google, "user-agent: a\nsitemap: s\nuser-agent: b", []Join{{0, 1, 2, "sitemap"}}},
		{"Koster1996: the same", Koster1996, "user-agent: a\nsitemap: s\nuser-agent: b\ndisallow: /", []Join{{0, 1, 2, "sitemap"}}},
		{"Koster1996: a blank line ends the record", Koster1996, "user-agent: a\ncrawl-delay: 1\n\nuser-agent: b", nil},
		{"Koster1996: a dropped record's joins go with it", Koster1996,
			"user-agent: a\nsitemap: s\nuser-agent: b\n\nuser-agent: c\nx\nuser-agent: d\ndisallow: /",
			[]Join{{0, 1, 6, ""}}},
	} {
		f := parseDiag([]byte(tc.body), Options{Semantics: tc.sem})
		if diff := cmp.Diff(tc.want, f.Joins); diff != "" {
			t.Errorf("%s: Parse(%q, %v).Joins (-want +got):\n%s", tc.name, tc.body, tc.sem, diff)
		}
		for _, j := range f.Joins {
			if a := f.Groups[j.Group].Agents; j.Agent < 1 || a.At(j.Agent-1).Line >= j.Line || j.Line >= a.At(j.Agent).Line {
				t.Errorf("%s: join %+v is not between two user-agent lines of its group", tc.name, j)
			}
		}
	}
}

// docs/SEMANTICS.md section 3.1: an empty rule is no rule, but the group
// keeps the line of its first one.
func TestParse_EmptyRuleLine(t *testing.T) {
	f := parseDiag([]byte("user-agent: a\ndisallow: /x\nallow:\ndisallow:\nuser-agent: b\ndisallow: /y\n"), Options{})
	if got := []int{f.Groups[0].EmptyRuleLine, f.Groups[1].EmptyRuleLine}; !cmp.Equal(got, []int{3, 0}) {
		t.Errorf("EmptyRuleLine = %v, want [3 0]", got)
	}
	f = parseDiag([]byte("disallow:\nuser-agent: a\n"), Options{})
	if f.Groups[0].EmptyRuleLine != 0 {
		t.Errorf("an empty rule outside every group: EmptyRuleLine = %d, want 0", f.Groups[0].EmptyRuleLine)
	}
}

// docs/SEMANTICS.md section 6: sitemaps are global, in file order, duplicates
// kept, as written; they may come anywhere.
func TestRFC9309_ParseSitemaps(t *testing.T) {
	body := "Sitemap: https://a/1.xml\nuser-agent: a\nsitemap: https://a/2.xml # c\ndisallow: /\n" +
		"site-map: https://a/1.xml\n\nSitemap:   HTTPS://A/Ünï.xml"
	for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
		f := parseDiag([]byte(body), Options{Semantics: sem})
		want := []Sitemap{{"https://a/1.xml", 1}, {"https://a/2.xml", 3}, {"https://a/1.xml", 5}, {"HTTPS://A/Ünï.xml", 7}}
		if diff := cmp.Diff(want, f.Sitemaps.Slice()); diff != "" {
			t.Errorf("%v: sitemaps (-want +got):\n%s", sem, diff)
		}
		if len(f.Groups) != 1 || f.Groups[0].Extensions.Len() != 0 {
			t.Errorf("%v: groups = %+v, want one group without extensions", sem, f.Groups)
		}
	}
}

// TestParse_Rule checks the fields of a Rule: the pattern is normalised for
// the semantics, the value kept as written.
func TestParse_Rule(t *testing.T) {
	body := "user-agent: a\ndisallow: /caf\xc3\xa9/%7ejoe/*.php$ # c\n"
	for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
		f := parseDiag([]byte(body), Options{Semantics: sem})
		value := "/caf\xc3\xa9/%7ejoe/*.php$"
		want := []Rule{{Kind: Disallow, Pattern: NormalizePattern(value, sem), Value: value, Line: 2}}
		if diff := cmp.Diff(want, f.Groups[0].Rules.Slice()); diff != "" {
			t.Errorf("%v: rules (-want +got):\n%s", sem, diff)
		}
		if f.Groups[0].Rules.At(0).Pattern == value {
			t.Errorf("%v: pattern %q was not normalised", sem, value)
		}
	}
}

// TestParse_FileFields checks Size, Truncated, Lines and Semantics.
func TestParse_FileFields(t *testing.T) {
	type fields struct {
		Semantics Semantics
		Size      int
		Truncated bool
		Lines     int
	}
	for _, tc := range []struct {
		body string
		opts Options
		want fields
	}{
		{"", Options{}, fields{}},
		{"\xEF\xBB\xBF", Options{Semantics: Google}, fields{Semantics: Google, Size: 3}},
		{"a: b\n\n", Options{Semantics: Koster1996}, fields{Semantics: Koster1996, Size: 6, Lines: 2}},
		{"user-agent: a\r\ndisallow: /", Options{}, fields{Size: 26, Lines: 2}},
	} {
		f := parseDiag([]byte(tc.body), tc.opts)
		got := fields{f.Semantics, f.Size, f.Truncated, f.Lines}
		if got != tc.want {
			t.Errorf("Parse(%q): %+v, want %+v", tc.body, got, tc.want)
		}
	}
	big := strings.Repeat("user-agent: a\ndisallow: /x\n", DefaultMaxFileSize/10)
	f := parseDiag([]byte(big), Options{})
	if f.Size != DefaultMaxFileSize || !f.Truncated || f.Lines == 0 {
		t.Errorf("big file: Size %d Truncated %v Lines %d", f.Size, f.Truncated, f.Lines)
	}
	if last := f.Diagnostics[len(f.Diagnostics)-1]; last.Kind != DiagTruncated {
		t.Errorf("big file: last diagnostic %v, want truncated", last)
	}
}

// TestRFC9309_ParseDiagnostics checks docs/SEMANTICS.md section 1.4 (RFC
// 9309 section 2.3.1.5: parse every line, use what can be parsed): every line
// that is not understood is reported with its line number, what a Diagnostic
// holds, and that the diagnostics are sorted by line.
func TestRFC9309_ParseDiagnostics(t *testing.T) {
	body := "disallow: /x\nuser-agent: a\ndisalow: /y # c\ncrawl-delay: soon\n" +
		strings.Repeat("z", 1000) + "\nfoo bar baz\n"
	f := parseDiag([]byte(body), Options{})
	want := []Diagnostic{
		{Line: 1, Kind: DiagRuleOutsideGroup, Text: "disallow: /x"},
		{Line: 3, Kind: DiagTypo, Text: "disalow: /y # c"},
		{Line: 4, Kind: DiagInvalidValue, Text: "crawl-delay: soon"},
		{Line: 5, Kind: DiagMissingColon, Text: strings.Repeat("z", maxDiagText)},
		{Line: 6, Kind: DiagMissingColon, Text: "foo bar baz"},
	}
	var got []Diagnostic
	for _, d := range f.Diagnostics {
		if d.Message == "" {
			t.Errorf("%v: empty message", d)
		}
		d.Message = ""
		got = append(got, d)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func TestCutText(t *testing.T) {
	s := strings.Repeat("a", maxDiagText-1) + "é" // é straddles the cut
	if got := cutText(s); got != s[:maxDiagText-1] {
		t.Errorf("cutText cut a rune: len %d", len(got))
	}
	if got := cutText("short"); got != "short" {
		t.Errorf("cutText(short) = %q", got)
	}
}

func TestParseCrawlDelay(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"10", 10 * time.Second, true},
		{"0", 0, true},
		{"0.5", 500 * time.Millisecond, true},
		{".5", 500 * time.Millisecond, true},
		{"5.", 5 * time.Second, true},
		{"1.0000000019", time.Second + 1, true},
		{"007", 7 * time.Second, true},
		{"99999999999999999999999", math.MaxInt64, true},
		{"9223372036.9", math.MaxInt64, true},
		{"", 0, false},
		{".", 0, false},
		{"-1", 0, false},
		{"+1", 0, false},
		{"NaN", 0, false},
		{"inf", 0, false},
		{"1e1", 0, false},
		{"0x10", 0, false},
		{"5s", 0, false},
		{"5 seconds", 0, false},
		{"1,5", 0, false},
		{"1.2.3", 0, false},
		{" 5", 0, false},
	} {
		got, ok := ParseCrawlDelay(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseCrawlDelay(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// largeBody returns a deterministic robots.txt of n rules in groups of 25,
// with wildcards, end anchors, escapes and comments.
func largeBody(n int) []byte {
	var b strings.Builder
	b.WriteString("# generated\nSitemap: https://example.com/sitemap.xml\n\n")
	words := []string{"search", "cart", "account", "api", "static", "print", "tag", "user"}
	for i := 0; i < n; i++ {
		if i%25 == 0 {
			fmt.Fprintf(&b, "\nUser-agent: Bot%c%c\nUser-agent: *\nCrawl-delay: %d\n", 'A'+i/25%26, 'a'+i%26, i%7)
		}
		w := words[i%len(words)]
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "Disallow: /%s/%d/\n", w, i)
		case 1:
			fmt.Fprintf(&b, "Disallow: /*/%s?id=%d*\n", w, i)
		case 2:
			fmt.Fprintf(&b, "Allow: /%s/%d/*.html$\n", w, i)
		case 3:
			fmt.Fprintf(&b, "Disallow: /%s/%%7E%d/ # old\n", w, i)
		default:
			fmt.Fprintf(&b, "allow: /%s-%d$\n", w, i)
		}
	}
	return []byte(b.String())
}

// TestParse_Allocs checks the allocation budget: about one allocation per
// rule at most (in practice: the copy of the body, the slices' growth, and
// the patterns that need normalising).
func TestParse_Allocs(t *testing.T) {
	const n = 500
	body := largeBody(n)
	for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
		var f *File
		allocs := testing.AllocsPerRun(20, func() { f = Parse(body, Options{Semantics: sem}) })
		rules := 0
		for _, g := range f.Groups {
			rules += g.Rules.Len()
		}
		if rules != n {
			t.Fatalf("%v: %d rules, want %d", sem, rules, n)
		}
		t.Logf("%v: %.0f allocations for %d rules", sem, allocs, rules)
		if allocs > n {
			t.Errorf("%v: Parse allocates %.0f times for %d rules, want at most %d", sem, allocs, rules, n)
		}
	}
}

// TestRuleKind_String checks that the zero RuleKind is NoRule and that Parse
// gives every rule Allow or Disallow, never NoRule (docs/SEMANTICS.md
// section 4.5).
func TestRuleKind_String(t *testing.T) {
	var zero RuleKind
	for k, want := range map[RuleKind]string{zero: "none", NoRule: "none", Disallow: "disallow", Allow: "allow", 7: "RuleKind(7)"} {
		if got := k.String(); got != want {
			t.Errorf("RuleKind(%d).String() = %q, want %q", uint8(k), got, want)
		}
	}
	f := parseDiag([]byte("User-agent: *\nDisallow: /a\nAllow: /b\nDisalow: /c\n"), Options{})
	want := []RuleKind{Disallow, Allow, Disallow}
	for i, r := range f.Groups[0].Rules.Slice() {
		if r.Kind != want[i] {
			t.Errorf("rule %d (line %d): kind %v, want %v", i, r.Line, r.Kind, want[i])
		}
	}
}

// TestParse_ShortLinesAllocateLittle checks that lines that cannot be the
// records their first letter suggests are not allocated for: a group of
// 500 KiB of allow and disallow lines with empty values (which keep no
// rule) costs Parse about what the body's size does, not room for tens of
// thousands of rules (48 bytes each).
func TestParse_ShortLinesAllocateLittle(t *testing.T) {
	for _, line := range []string{"allow:\n", "disallow:\n", "Disallow: \r\n", "a\n"} {
		body := []byte("user-agent: *\n" + strings.Repeat(line, DefaultMaxFileSize/len(line)))[:DefaultMaxFileSize]
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f := Parse(body, Options{Diagnostics: true})
		runtime.ReadMemStats(&after)
		// "a" lines are no directive: each has its diagnostic (48 bytes,
		// its text, and the copies of the growing list, asked for by
		// Options.Diagnostics), which MaxDiagnostics bounds.
		budget := uint64(len(body)) + 192*uint64(len(f.Diagnostics)) + 64<<10
		if got := after.TotalAlloc - before.TotalAlloc; got > budget {
			t.Errorf("%q lines: Parse allocated %d bytes for a %d-byte body (%d diagnostics), want at most %d", line, got, len(body), len(f.Diagnostics), budget)
		}
	}
}

// TestParse_DiagnosticsCapped checks MaxDiagnostics: a file of lines that
// are no directive keeps the first MaxDiagnostics diagnostics and one
// DiagTooMany that counts the rest, from the first line it left out; a cut
// file still ends with its DiagTruncated; and the file's warnings still see
// every line that is not UTF-8.
func TestParse_DiagnosticsCapped(t *testing.T) {
	const lines = 5000
	f := parseDiag([]byte("user-agent: *\n"+strings.Repeat("a\n", lines)), Options{})
	if got := len(f.Diagnostics); got != MaxDiagnostics+1 {
		t.Fatalf("%d diagnostics, want %d", got, MaxDiagnostics+1)
	}
	last := f.Diagnostics[MaxDiagnostics]
	wantMsg := strconv.Itoa(lines-MaxDiagnostics) + " more diagnostics"
	if last.Kind != DiagTooMany || last.Line != MaxDiagnostics+2 || !strings.HasPrefix(last.Message, wantMsg) {
		t.Errorf("last diagnostic %+v, want too-many at line %d starting %q", last, MaxDiagnostics+2, wantMsg)
	}
	if f.Diagnostics[MaxDiagnostics-1].Line != MaxDiagnostics+1 {
		t.Errorf("the last kept diagnostic is at line %d, want %d", f.Diagnostics[MaxDiagnostics-1].Line, MaxDiagnostics+1)
	}

	cut := parseDiag([]byte("user-agent: *\n"+strings.Repeat("a\n", DefaultMaxFileSize)), Options{})
	n := len(cut.Diagnostics)
	if n != MaxDiagnostics+2 || cut.Diagnostics[n-2].Kind != DiagTooMany || cut.Diagnostics[n-1].Kind != DiagTruncated {
		t.Errorf("a cut file: %d diagnostics ending %v, %v; want %d ending too-many, truncated", n, cut.Diagnostics[n-2].Kind, cut.Diagnostics[n-1].Kind, MaxDiagnostics+2)
	}

	latin1 := parseDiag([]byte(strings.Repeat("Disallow: /caf\xe9\n", 3*MaxDiagnostics)), Options{})
	found := false
	for _, w := range latin1.Warnings {
		found = found || w.Kind == WarnNotUTF8
	}
	if !found || len(latin1.Diagnostics) > MaxDiagnostics+1 {
		t.Errorf("%d lines not UTF-8: warnings %v, %d diagnostics; want not-utf8 among the warnings, at most %d diagnostics", 3*MaxDiagnostics, latin1.Warnings, len(latin1.Diagnostics), MaxDiagnostics+1)
	}
}

// rulesOf returns rs as a File's Rules hold them, for the tables' groups.
func rulesOf(rs ...Rule) Rules {
	return Rules{runOf(rs, func(at int, r Rule) (rec, string) {
		if r.Pattern == r.Value {
			return ruleRec(at, r.Line, r.Kind, len(r.Value), 0), r.Value
		}
		return ruleRec(at, r.Line, r.Kind, len(r.Value), len(r.Pattern)), r.Value + r.Pattern
	})}
}

// agentsOf returns as as a File's Agents hold them.
func agentsOf(as ...Agent) Agents {
	return Agents{runOf(as, func(at int, a Agent) (rec, string) {
		return agentRec(at, a.Line, a.Value, a.Name), a.Value
	})}
}

// extsOf returns es as a File's Extensions hold them.
func extsOf(es ...Extension) Extensions {
	return Extensions{runOf(es, func(at int, e Extension) (rec, string) {
		return extRec(at, e.Line, e.Key, e.Value), e.Key + e.Value
	})}
}

// runOf returns the records that rec makes of xs, each given the offset
// in the text of the string it adds to it, and the text.
func runOf[T any](xs []T, rec func(at int, x T) (rec, string)) run {
	d := &records{}
	for _, x := range xs {
		r, s := rec(len(d.text), x)
		d.recs, d.text = append(d.recs, r), d.text+s
	}
	return run{d: d, n: uint32(len(xs))}
}

// TestParse_OneText checks that every string a File holds of the body is a
// part of its one text (the rules' text too), also when the text outgrew
// its first guess and moved while parsing (keep, finishData): a string left
// viewing an older array would hold that array as well.
func TestParse_OneText(t *testing.T) {
	dense := strings.Repeat("Disallow:/caf\xc3\xa9-"+strings.Repeat("x", 40)+"\n", 200)
	for name, body := range map[string]string{
		"plain": "User-agent: a\nCrawl-delay: 5\nDisallow: /x\nSitemap: https://e.com/s.xml\nUser-agent: b\nAllow: /y\n",
		// Values are almost all of the body, and rewritten patterns add
		// more: the text outgrows the 5/8 guess more than once.
		"dense":  "User-agent:a\n" + dense,
		"joined": "User-agent: a\nFoo: bar\nUser-agent: b\nSitemap: /s\nUser-agent: c\nDisallow: /%7e\nNonsense line\n",
	} {
		for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
			f := parseDiag([]byte(body), Options{Semantics: sem})
			base := uintptr(unsafe.Pointer(unsafe.StringData(f.data.text)))
			in := func(what, x string) {
				t.Helper()
				if x == "" {
					return
				}
				if off := uintptr(unsafe.Pointer(unsafe.StringData(x))) - base; off+uintptr(len(x)) > uintptr(len(f.data.text)) {
					t.Errorf("%s %v: %s %q is not a part of the File's text", name, sem, what, x)
				}
			}
			for _, g := range f.Groups {
				if g.Rules.d != &f.data || g.Agents.d != &f.data || g.Extensions.d != &f.data && g.Extensions.n > 0 {
					t.Errorf("%s %v: a group's lines have records of their own", name, sem)
				}
				for _, a := range g.Agents.Slice() {
					in("agent name", a.Name)
					in("agent value", a.Value)
				}
				for i := range g.Rules.Len() {
					in("rule value", g.Rules.At(i).Value)
					in("rule pattern", g.Rules.At(i).Pattern)
				}
				for _, e := range g.Extensions.Slice() {
					in("extension key", e.Key)
					in("extension value", e.Value)
				}
			}
			for _, s := range f.Sitemaps.Slice() {
				in("sitemap", s.URL)
			}
			if got := f.Groups[len(f.Groups)-1].Rules.Len(); name == "dense" && got != 200 {
				t.Errorf("%s %v: %d rules, want 200", name, sem, got)
			}
		}
	}
}

// TestParse_SharesNothingWithTheNextParse checks that a File shares no
// memory with the builder that made it, whose scratch records and text the
// next parse reuses: a File read before and after other parses is the same.
func TestParse_SharesNothingWithTheNextParse(t *testing.T) {
	dump := func(f *File) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%+v\n", *f)
		for _, g := range f.Groups {
			fmt.Fprintf(&b, "%+v %+v\n", g, g.Rules.Slice())
		}
		return b.String()
	}
	first := "User-agent: a\nCrawl-delay: 1\nDisallow: /a\nAllow: /caf\xc3\xa9\nbad line\nSitemap: /s1\nUser-agent: b\nDisallow: /b\n"
	other := "User-agent: zzzzzz\nfoo: zzz\nDisallow: /zzzzzzzzzzzz\nAllow: /zzzzz\nzzz zzz\nSitemap: /zzzzzz\n"
	for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
		f := parseDiag([]byte(first), Options{Semantics: sem})
		want := dump(f)
		for range 3 {
			Parse([]byte(other), Options{Semantics: sem})
			Parse([]byte(strings.Repeat(other, 50)), Options{Semantics: sem})
		}
		if got := dump(f); got != want {
			t.Errorf("%v: the File changed when other files were parsed:\nbefore:\n%s\nafter:\n%s", sem, want, got)
		}
	}
}

// TestFile_BytesIsWhatItHolds checks that File.Bytes counts what parsed
// files keep, measured as the heap that many of them hold, all kept: within
// a fifth for files of rules, and never a fifth under it for files that
// keep mostly sitemaps, extensions or diagnostics (Bytes counts every
// diagnostic's message, though most are constants). A cache charges each
// file its Bytes.
func TestFile_BytesIsWhatItHolds(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	// held returns the heap the files parsed from bodies hold and the sum
	// of their Bytes.
	held := func(bodies [][]byte) (float64, float64) {
		files := make([]*File, len(bodies))
		before := heap()
		for i, body := range bodies {
			files[i] = Parse(body, Options{})
		}
		grew := float64(heap()) - float64(before)
		counted := 0
		for _, f := range files {
			counted += f.Bytes()
		}
		runtime.KeepAlive(files)
		runtime.KeepAlive(bodies) // freed during the parses, they would hide as much heap
		return grew, float64(counted)
	}
	var rules [][]byte
	for seed := int64(0); seed < 300; seed++ {
		rules = append(rules, gen.Robots([]int{5, 40, 200}[seed%3], seed, seed%2 == 0))
	}
	grew, counted := held(rules)
	t.Logf("files of rules: the heap grew %.0f bytes, Bytes counts %.0f (heap/Bytes %.3f)", grew, counted, grew/counted)
	if r := grew / counted; r < 0.8 || r > 1.2 {
		t.Errorf("files of rules hold %.2f times what Bytes counts, want within a fifth", r)
	}
	var others [][]byte
	for range 20 {
		others = append(others,
			[]byte(strings.Repeat("Sitemap: https://example.com/sitemap-index-0001.xml\n", 200)),
			[]byte("User-agent: a\n"+strings.Repeat("Crawl-delay: 5\nFoo: bar baz\n", 200)),
			[]byte(strings.Repeat("this line is no directive at all\n", 500)))
	}
	grew, counted = held(others)
	t.Logf("other files: the heap grew %.0f bytes, Bytes counts %.0f (heap/Bytes %.3f)", grew, counted, grew/counted)
	if r := grew / counted; r > 1.2 {
		t.Errorf("files of sitemaps, extensions and diagnostics hold %.2f times what Bytes counts, want at most 1.2", r)
	}
}

// TestParseInto checks that ParseInto fills a zero File as Parse makes
// one, and replaces a File with only its exported fields set.
func TestParseInto(t *testing.T) {
	body := []byte("User-agent: a\nDisallow: /x\nCrawl-delay: 2\nSitemap: /s\n")
	var f File
	ParseInto(&f, body, Options{Semantics: Google})
	if diff := cmp.Diff(Parse(body, Options{Semantics: Google}), &f, cmpopts.IgnoreUnexported(File{})); diff != "" {
		t.Errorf("ParseInto differs from Parse (-Parse +ParseInto):\n%s", diff)
	}
	g := File{Semantics: Koster1996, Size: 99}
	ParseInto(&g, body, Options{})
	if g.Semantics != RFC9309 || g.Size != len(body) || g.Groups[0].Rules.Len() != 1 {
		t.Errorf("ParseInto into a File with only exported fields set: %+v", g)
	}
}

// reuseBodies are files that differ in all a File holds, parsed one after
// the other into one File by TestParseInto_Reused and TestParseFor_Reused.
var reuseBodies = []string{
	"User-agent: a\nDisallow: /x\nCrawl-delay: 2\nContent-Usage: /p train-ai=n\nSitemap: /s\n" +
		"User-agent: b\nUser-agent: *\nAllow: /caf\xc3\xa9\nDisallow: /y\nfoo bar baz\n",
	"Disallow: /outside\nUser-agent: b\nAllow: /yyyyyyyy\n<html>\n",
	"",
	"User-agent: *\nUser-agent: a\nDisallow: /\n\nUser-agent: c\nDisallow: /%7ec\nSitemap: /t\nSitemap: /u\n",
}

// TestParseInto_Reused checks that ParseInto into a File parsed before
// gives the File that a fresh parse gives.
func TestParseInto_Reused(t *testing.T) {
	for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
		var f File
		for i := range 2 * len(reuseBodies) {
			body := []byte(reuseBodies[i%len(reuseBodies)])
			opts := Options{Semantics: sem, Diagnostics: i%2 == 0}
			ParseInto(&f, body, opts)
			want := Parse(body, opts)
			if diff := cmp.Diff(want, &f, cmpopts.IgnoreUnexported(File{})); diff != "" {
				t.Errorf("%v: parse %d into a reused File (-fresh +reused):\n%s", sem, i, diff)
			}
			if f.Bytes() != want.Bytes() || !f.Usages().Equal(want.Usages()) {
				t.Errorf("%v: parse %d into a reused File: Bytes %d, Usages %v; fresh: %d, %v", sem, i, f.Bytes(), f.Usages(), want.Bytes(), want.Usages())
			}
		}
	}
}

// TestParseFor_Reused checks that ParseFor into a File parsed before (by
// ParseFor or ParseInto) gives the File and groups that a fresh parse
// gives.
func TestParseFor_Reused(t *testing.T) {
	tokens := [][]string{{"a"}, {"b", "c"}, {}}
	for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
		var f File
		for i := range 2 * len(reuseBodies) {
			body := []byte(reuseBodies[i%len(reuseBodies)])
			opts := Options{Semantics: sem}
			toks := tokens[i%len(tokens)]
			if i%3 == 2 {
				ParseInto(&f, []byte(reuseBodies[(i+1)%len(reuseBodies)]), opts)
			}
			got := ParseFor(&f, body, opts, toks)
			var want File
			wantGroups := ParseFor(&want, body, opts, toks)
			if diff := cmp.Diff(&want, &f, cmpopts.IgnoreUnexported(File{})); diff != "" {
				t.Errorf("%v: ParseFor %d into a reused File (-fresh +reused):\n%s", sem, i, diff)
			}
			if !cmp.Equal(wantGroups, got) || f.Bytes() != want.Bytes() {
				t.Errorf("%v: ParseFor %d into a reused File: groups %v, Bytes %d; fresh: %v, %d", sem, i, got, f.Bytes(), wantGroups, want.Bytes())
			}
			if s, w := f.Select(toks...), want.Select(toks...); !cmp.Equal(w, s) {
				t.Errorf("%v: ParseFor %d into a reused File selects %+v, fresh %+v", sem, i, s, w)
			}
		}
	}
}

// parseDiag is Parse with Options.Diagnostics: it also parses body without
// them and panics when the two Files differ but for their Diagnostics
// (diagnostics are for a linter; they change nothing else).
func parseDiag(body []byte, opts Options) *File {
	opts.Diagnostics = false
	plain := Parse(body, opts)
	opts.Diagnostics = true
	f := Parse(body, opts)
	if plain.Diagnostics != nil {
		panic(fmt.Sprintf("Parse(%q) without Options.Diagnostics has diagnostics", body))
	}
	withDiags := *f
	withDiags.Diagnostics = nil
	if diff := cmp.Diff(plain, &withDiags, cmpopts.IgnoreUnexported(File{})); diff != "" {
		panic(fmt.Sprintf("Parse(%q) with and without Options.Diagnostics (-without +with):\n%s", body, diff))
	}
	return f
}

// TestParse_RepeatedGroupRulesShareText checks that a rule whose value is
// that of the rule at its place in the last group with rules shares its
// text (files often repeat a group's rules for another crawler), and that
// the rules read back as written, with their own lines and kinds.
func TestParse_RepeatedGroupRulesShareText(t *testing.T) {
	rules := "Disallow: /private/\nAllow: /private/press/\nDisallow: /caf\xc3\xa9/\n"
	body := "User-agent: a\n" + rules + "User-agent: b\n" + rules + "Crawl-delay: 1\nUser-agent: c\nAllow: /private/\n" + rules
	for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
		f := parseDiag([]byte(body), Options{Semantics: sem})
		once := len("/private/") + len("/private/press/") + len("/caf\xc3\xa9/") + len(NormalizePattern("/caf\xc3\xa9/", sem))
		// The agents' values, b's crawl-delay, a's rules; b's are all
		// shared; c's are shifted by one: only its first value, the same
		// as b's first, is shared, and it has the other three values of
		// a and b, now at places where they are not.
		want := len("abc") + len("crawl-delay1") + 2*once
		if got := len(f.data.text); got != want {
			t.Errorf("%v: the text holds %d bytes, want %d: %q", sem, got, want, f.data.text)
		}
		for gi, g := range f.Groups {
			for i, r := range g.Rules.Slice() {
				if r.Pattern != NormalizePattern(r.Value, sem) || r.Line < 2 {
					t.Errorf("%v: group %d rule %d read back as %+v", sem, gi, i, r)
				}
			}
		}
		if k := f.Groups[1].Rules.At(1).Kind; k != Allow {
			t.Errorf("%v: a shared rule's kind is %v, want allow", sem, k)
		}
	}
}
