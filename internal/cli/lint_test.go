package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// lintFindingsRobots has a parser diagnostic (line 3) and lint findings
// (lines 4, 5, 6 and 8: the groups of lines 6 and 8 are one).
const lintFindingsRobots = `User-agent: *
Disallow: /admin/
Foo: bar
Disallow: admin
Disallow: /admin/
User-agent: x
Clean-param: a&b /p
User-agent: Bingbot
Crawl-delay: 5
`

func TestLint_FindingsMergedByLine(t *testing.T) {
	bad := writeFile(t, "robots.txt", lintFindingsRobots)
	status, out, errs := cli(t, "", "lint", bad)
	if status != 1 || errs != "" {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		m := lintLine.FindStringSubmatch(l)
		if m == nil || m[1] != bad {
			t.Fatalf("line %q is not FILE:LINE: KIND: message", l)
		}
		got = append(got, m[2]+" "+m[3])
	}
	want := []string{"3 unknown-key", "4 missing-slash", "5 duplicate-rule", "6 replaces-global", "8 joined-group"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("got %q, want %q\n%s", got, want, out)
	}
}

func TestLint_JSON(t *testing.T) {
	bad := writeFile(t, "robots.txt", lintFindingsRobots)
	clean := writeFile(t, "clean.txt", "User-agent: *\nDisallow: /x\n")
	status, out, errs := cli(t, "", "lint", "--format", "json", clean, bad)
	if status != 1 || errs != "" {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	var got []struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Kind    string `json:"kind"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(got) != 5 || got[0].File != bad || got[0].Line != 3 || got[0].Kind != "unknown-key" || got[4].Kind != "joined-group" || got[4].Message == "" {
		t.Errorf("got %+v", got)
	}
	if !strings.Contains(out, "a&b") && strings.Contains(out, `\u0026`) {
		t.Errorf("HTML-escaped output:\n%s", out)
	}

	status, out, errs = cli(t, "", "lint", "--format", "json", clean)
	if status != 0 || out != "[]\n" || errs != "" {
		t.Errorf("clean file: status %d, output %q, stderr %q", status, out, errs)
	}
	if status, _, errs := cli(t, "", "lint", "--format", "xml", clean); status != 2 || strings.Count(errs, "\n") != 1 {
		t.Errorf("--format xml: status %d, stderr %q", status, errs)
	}
}

// TestLint_CheckAgree: issue 31 found that for a JSON body check warned
// "its 2 rules come before any user-agent line" while lint called the same
// lines unknown keys, one finding each. Both now print the library's one
// warning (engine.Robots.Warnings), lint once.
func TestLint_CheckAgree(t *testing.T) {
	for _, body := range []string{
		"{\n  \"error\": \"not found\",\n  \"status\": 404\n}\n",
		"<!DOCTYPE html>\n<html><body>Not found</body></html>\n",
		"Disallow: /a\nDisallow: /b\n",
		"\xFF\xFEU\x00s\x00e\x00r\x00",
	} {
		robots := writeFile(t, "robots.txt", body)
		_, _, errs := robotstxt(t, "", "check", "--robots", robots, "--agent", "a", "/x")
		status, out, _ := robotstxt(t, "", "lint", robots)
		w := stderrLines(errs)
		findings := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if status != exitProblem || len(w) != 1 || len(findings) != 1 {
			t.Errorf("%q: lint status %d, %d findings %q; check %d warnings %q: want one each", body, status, len(findings), out, len(w), errs)
			continue
		}
		msg := strings.TrimPrefix(w[0], "robotstxt: warning: "+robots+": ")
		if !strings.HasPrefix(findings[0], robots+":") || !strings.HasSuffix(findings[0], ": "+msg) {
			t.Errorf("%q: check says %q, lint %q", body, msg, findings[0])
		}
	}
}

// TestLint_LargeHTMLPageIsOneFinding: issue 49 found that lint of an HTML
// page longer than 500 KiB reported html-page and also a truncation about
// rules that do not exist. It reports html-page alone; a robots.txt whose
// rules go on past the limit is reported truncated.
func TestLint_LargeHTMLPageIsOneFinding(t *testing.T) {
	var page strings.Builder
	page.WriteString("<!DOCTYPE html>\n<html><body>\n")
	for page.Len() < 600<<10 {
		page.WriteString("<div class=\"item\"><p>Some text, and more text.</p></div>\n")
	}
	page.WriteString("</body></html>\n")
	html := writeFile(t, "page.html", page.String())
	status, out, errs := cli(t, "", "lint", html)
	if status != exitProblem || errs != "" || !strings.HasPrefix(out, html+":1: html-page: ") || strings.Count(out, "\n") != 1 {
		t.Errorf("lint of a large HTML page: status %d, stderr %q, output:\n%s\nwant one html-page line", status, errs, out)
	}
	var long strings.Builder
	long.WriteString("User-agent: *\n")
	for i := 0; long.Len() < 600<<10; i++ {
		fmt.Fprintf(&long, "Disallow: /some/path/%d/\n", i)
	}
	status, out, _ = cli(t, long.String(), "lint", "-")
	if status != exitProblem || !strings.Contains(out, ": truncated: ") {
		t.Errorf("lint of a robots.txt cut in its rules: status %d, output:\n%s\nwant a truncated line", status, out)
	}
}
