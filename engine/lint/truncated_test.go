package lint_test

import (
	"strings"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine/lint"
)

// upTo returns head, then lines of filler, then tail from byte at on: the
// filler's last line is cut or lengthened so that tail starts exactly at
// byte at.
func upTo(head, filler string, at int, tail string) string {
	var b strings.Builder
	b.WriteString(head)
	for b.Len()+len(filler) <= at {
		b.WriteString(filler)
	}
	switch n := at - b.Len(); {
	case n == 1:
		b.WriteString("\n")
	case n > 1:
		b.WriteString("#" + strings.Repeat("x", n-2) + "\n")
	}
	return b.String() + tail
}

// kinds returns the kinds of the findings, in order.
func kinds(fs []lint.Finding) string {
	var k []string
	for _, f := range fs {
		k = append(k, string(f.Kind))
	}
	return strings.Join(k, " ")
}

// TestReportBody_TruncatedOnlyWhenTheCutDropsRules: issue 49 found that
// lint of a large HTML page reported html-page and a truncation "the rules
// after them do not count" about rules that do not exist. Given the body,
// the cut (RFC 9309 section 2.5 allows reading only the first 500 KiB) is
// reported only when it drops or shortens a user-agent, allow or disallow
// line; Report, which has no body, reports every cut.
func TestReportBody_TruncatedOnlyWhenTheCutDropsRules(t *testing.T) {
	limit := compile.DefaultMaxFileSize
	html := upTo("<!DOCTYPE html>\n<html><body>\n", "<div class=\"x\"><p>Some text, and more text.</p></div>\n", limit+100_000, "</body></html>\n")
	rules := "User-agent: *\nDisallow: /private/\n"
	comments := "# a comment that says nothing of rules\n"
	for _, tc := range []struct {
		name, body string
		want       string // the kinds ReportBody gives
	}{
		{"an HTML page longer than the limit", html, "html-page"},
		{"comments and blank lines past the limit", upTo(rules, comments, limit+50_000, "\n\n# the end\n"), ""},
		{"the cut at a line's end, comments after", upTo(rules, comments, limit, "# more\n"), ""},
		{"a disallow line past the limit", upTo(rules, comments, limit+1000, "Disallow: /late/\n"), "truncated"},
		{"a disallow line past the limit, misspelt", upTo(rules, comments, limit+1000, "Dissallow: /late/\n"), "truncated"},
		{"a user-agent line past the limit", upTo(rules, comments, limit+1000, "User-agent: LateBot\n"), "truncated"},
		{"the cut through a rule's pattern", upTo(rules, comments, limit-len("Disallow: /a"), "Disallow: /abcdefgh\n# more\n"), "truncated"},
		{"the cut through a rule's key", upTo(rules, comments, limit-5, "Disallow: /a\n# more\n"), "truncated missing-colon"},
		{"the cut through a comment", upTo(rules, comments, limit-5, "# a comment\n# more\n"), ""},
		{"the cut at a rule's line end", upTo(rules, comments, limit-len("Disallow: /a"), "Disallow: /a\n# more\n"), ""},
		{"an HTML page with a rule past the limit", html + "Disallow: /x\n", "html-page truncated"},
	} {
		f := compile.Parse([]byte(tc.body), compile.Options{Diagnostics: true})
		if !f.Truncated {
			t.Fatalf("%s: the body of %d bytes was not cut", tc.name, len(tc.body))
		}
		if got := kinds(lint.ReportBody(f, []byte(tc.body))); got != tc.want {
			t.Errorf("%s: ReportBody gives %q, want %q", tc.name, got, tc.want)
		}
		if got := kinds(lint.Report(f)); !strings.Contains(got, "truncated") {
			t.Errorf("%s: Report gives %q, want truncated (it cannot see past the cut)", tc.name, got)
		}
		if got := kinds(lint.ReportBody(f, []byte(tc.body)[:f.Size])); !strings.Contains(got, "truncated") {
			t.Errorf("%s: ReportBody with nothing past the cut gives %q, want truncated", tc.name, got)
		}
	}
}
