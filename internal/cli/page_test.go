package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seed-275a9bd5/robotstxt/internal/reference"
)

// pageArgs returns the page command's arguments for a conformance case,
// its files written to a temporary folder: the tdmrep.json rule of a case
// is the file's rule of that number, the ones before it matching nothing.
func pageArgs(t *testing.T, c reference.PageCase) []string {
	args := []string{"page", "--format", "json"}
	for _, a := range c.Agents {
		args = append(args, "--agent", a)
	}
	for _, h := range c.Header {
		args = append(args, "--header", h)
	}
	if c.HTML != "" {
		args = append(args, "--html", writeFile(t, "page.html", c.HTML))
	}
	url := c.URL
	if c.Robots != "" {
		args = append(args, "--robots", writeFile(t, "robots.txt", c.Robots))
	}
	if f := c.TDMFile; f != nil {
		var rules []string
		for i := 1; i < f.Rule; i++ {
			rules = append(rules, fmt.Sprintf(`{"location": "/nowhere-%d", "tdm-reservation": 1}`, i))
		}
		rules = append(rules, fmt.Sprintf(`{"location": "/", "tdm-reservation": %d, "tdm-policy": %q}`, f.Reservation, f.Policy))
		args = append(args, "--tdmrep", writeFile(t, "tdmrep.json", "["+strings.Join(rules, ",")+"]"))
		if url == "" {
			url = "https://example.com/page"
		}
	}
	if url != "" {
		args = append(args, "--url", url)
	}
	return args
}

// TestPage_Conformance runs the page-signals conformance table through
// the command: its JSON output is the answer each case requires.
func TestPage_Conformance(t *testing.T) {
	cases, err := reference.LoadPageConformance("../../testdata/page/conformance.json")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if c.MaxHTML != 0 {
			continue // the command reads DefaultMaxHTMLBytes
		}
		n++
		args := pageArgs(t, c)
		status, out, errs := cli(t, "", args...)
		if status != exitOK || errs != "" {
			t.Errorf("%s: %q: status %d, stderr %q", c.Name, args, status, errs)
			continue
		}
		var got reference.PageAnswer
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Errorf("%s: output %q: %v", c.Name, out, err)
			continue
		}
		want := c.Expect.Answer()
		if want.Decided == nil {
			got.Decided = nil
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (%s): robotstxt %q (-want +got):\n%s", c.Name, c.Source, args, diff)
		}
	}
	if n < 100 {
		t.Errorf("only %d cases ran", n)
	}
}

func TestPage_Text(t *testing.T) {
	robots := writeFile(t, "robots.txt", "User-agent: *\nContent-Usage: train-ai=y\nContent-Signal: search=yes, ai-input=no, use=reference\n")
	html := writeFile(t, "page.html", "<html><head>\n<meta name=googlebot content='max-snippet:20, noai'>\n<meta name=tdm-reservation content=1>\n<meta name=tdm-policy content=https://example.com/p.json>\n</head></html>")
	status, out, errs := cli(t, "", "page", "--agent", "Googlebot", "--header", "X-Robots-Tag: noindex, unavailable_after: 25 Jun 2010 15:00:00 PST",
		"--html", html, "--robots", robots, "--url", "https://example.com/a")
	if status != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	want := `index:             no (X-Robots-Tag line 1)
follow:            yes
archive:           yes
snippet:           20 (meta line 2 (Googlebot))
image_preview:     large
video_preview:     -1 (no limit)
image_index:       yes
translate:         yes
index_if_embedded: no
unavailable_after: 2010-06-25T23:00:00Z (X-Robots-Tag line 1)
noai:              yes (meta line 2 (Googlebot))
noimageai:         no
ai_train:          n (meta line 2 (Googlebot))
  content_usage:       y (robots.txt Content-Usage line 2)
  noai:                n (meta line 2 (Googlebot))
  tdmrep:              n (tdm-reservation meta line 3)
search:            y (robots.txt Content-Signal line 3)
  content_signal:      y (robots.txt Content-Signal line 3)
tdm_reservation:   1 (tdm-reservation meta line 3)
tdm_policy:        https://example.com/p.json
ai_input:          n (robots.txt Content-Signal line 3)
use:               reference (robots.txt Content-Signal line 3)
`
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	// A disallowed URL.
	robots = writeFile(t, "robots.txt", "User-agent: *\nDisallow: /\n")
	status, out, _ = cli(t, "", "page", "--agent", "Googlebot", "--header", "X-Robots-Tag: noindex", "--robots", robots, "--url", "https://example.com/a")
	if status != 0 || !strings.HasPrefix(out, "disallowed: ") {
		t.Errorf("disallowed: status %d, output %q", status, out)
	}
}

func TestPage_Usage(t *testing.T) {
	html := writeFile(t, "page.html", "<p>")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"page", "--html", html}, "--agent TOKEN is required"},
		{[]string{"page", "--agent", "a", "--header", "no colon"}, "want a field line Name: value"},
		{[]string{"page", "--agent", "a", "--header", "Bad Name: x"}, "want a field line Name: value"},
		{[]string{"page", "--agent", "a", "--robots", html}, "need --url URL"},
		{[]string{"page", "--agent", "a", "--url", "https://example.com/"}, "--url is read with --robots or --tdmrep only"},
		{[]string{"page", "--agent", "a", "--format", "xml"}, `--format "xml": want text or json`},
		{[]string{"page", "--agent", "a", "--html", "no-such-file"}, "cannot read the HTML"},
		{[]string{"page", "--agent", "a", "--tdmrep", html, "--url", "/"}, "not a JSON array"},
		{[]string{"page", "--agent", "a", "extra"}, `unexpected argument "extra"`},
	} {
		status, out, errs := cli(t, "", c.args...)
		if status != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", c.args, status, out, errs, c.want)
		}
	}
	if status, out, _ := cli(t, "", "help", "page"); status != 0 || !strings.HasPrefix(out, "Usage: robotstxt page") {
		t.Errorf("help page: %d %q", status, out)
	}
	// The HTML from standard input.
	status, out, _ := cli(t, "<meta name=robots content=noindex>", "page", "--agent", "a", "--html", "-", "--format", "json")
	if status != 0 || !strings.Contains(out, `"index":false`) {
		t.Errorf("--html -: status %d, output %q", status, out)
	}
}

// TestAbuse_PageHTML: HTML past the limit is cut, not read whole, and a
// hostile page (deep nesting, a tag that never ends, binary bytes) gives
// an answer.
func TestAbuse_PageHTML(t *testing.T) {
	for name, html := range map[string]string{
		"past the limit": strings.Repeat("<div>", 16<<20/5+1) + "<meta name=robots content=noindex>",
		"unended tag":    "<meta name=robots content=\"noindex" + strings.Repeat("x", 1<<20),
		"binary":         "\x00\xff\xfe<meta\x00 name=robots content=noindex>",
	} {
		status, out, errs := cli(t, html, "page", "--agent", "a", "--html", "-", "--format", "json")
		if status != exitOK || errs != "" {
			t.Errorf("%s: status %d, stderr %q", name, status, errs)
			continue
		}
		var got struct {
			Index     bool `json:"index"`
			Truncated bool `json:"truncated"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if name == "past the limit" && (!got.Truncated || !got.Index) {
			t.Errorf("%s: %s; want truncated, and the tag past the limit unread", name, out)
		}
	}
}
