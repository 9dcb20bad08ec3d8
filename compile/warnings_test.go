package compile

import (
	"strings"
	"testing"
	"unicode/utf16"
)

func utf16LE(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = append(b, 0xFF, 0xFE)
	}
	for _, r := range utf16.Encode([]rune(s)) {
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

// TestParse_Warnings: the whole-file warnings live in the parse (issue 31:
// they were only the command line's), one of each kind at most, with the
// line that shows them; the files that are fine have none.
func TestParse_Warnings(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /store/\n"
	var big strings.Builder
	big.WriteString("User-agent: *\n")
	for big.Len() <= DefaultMaxFileSize {
		big.WriteString("Disallow: /x/\n")
	}
	latin1 := "User-agent: *\n"
	for i := 0; i < 27; i++ {
		latin1 += "Disallow: /caf\xe9-\xe0/\n"
	}
	for _, c := range []struct {
		name string
		body string
		kind WarningKind
		line int
		want string // in the message
	}{
		{"utf16 with a mark", string(utf16LE(rules, true)), WarnUTF16, 1, "the file is UTF-16 text, not UTF-8 as RFC 9309 requires"},
		{"utf16 without", string(utf16LE(rules, false)), WarnUTF16, 1, "convert it: iconv -f UTF-16 -t UTF-8"},
		{"binary", "User-agent: *\nDisallow: /a\n\x00\x01\x02\n", WarnBinary, 3, "the file is not a text file (it holds NUL bytes"},
		{"latin-1", latin1, WarnNotUTF8, 2, "the file is mostly not UTF-8 (27 of 28 lines)"},
		{"html", "\n<!DOCTYPE html>\n<html><body>404</body></html>\n", WarnHTML, 2, "the file looks like an HTML page (line 2), not a robots.txt"},
		{"json", "{\n  \"error\": \"not found\",\n  \"status\": 404\n}\n", WarnJSON, 1, "the file looks like a JSON document (line 1)"},
		{"truncated", big.String(), WarnTruncated, 36572, "the file is longer than 512000 bytes: only the first 512000 bytes (to line 36572) were read"},
		{"no user-agent", "# rules\nDisallow: /a\nDisallow: /b\nCrawl-delay: 5\n", WarnNoUserAgent, 2, "every URL is allowed (its 2 rules and 1 other line before any user-agent line are ignored)"},
		{"no user-agent, one rule", "Disallow: /a\n", WarnNoUserAgent, 1, "(its 1 rule before any user-agent line is ignored)"},
		{"no user-agent, no rule", "Sitemap: https://example.com/s.xml\n", WarnNoUserAgent, 1, "the file has no user-agent line, so no rule applies to any crawler: every URL is allowed"},
	} {
		f := Parse([]byte(c.body), Options{})
		if len(f.Warnings) != 1 || f.Warnings[0].Kind != c.kind || f.Warnings[0].Line != c.line || !strings.Contains(f.Warnings[0].Message, c.want) {
			t.Errorf("%s: warnings %q, want one %s at line %d with %q", c.name, f.Warnings, c.kind, c.line, c.want)
		}
	}
	for _, body := range []string{"", "# only comments\n\n", rules, rules + "<!-- generated -->\n", "User-agent: *\nDisallow: /caf\xe9\n"} {
		if f := Parse([]byte(body), Options{}); f.Warnings != nil {
			t.Errorf("%q: warnings %q, want none", body, f.Warnings)
		}
	}
}
