package page_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seed-275a9bd5/robotstxt/internal/reference"
)

// Bounds on a fuzz input, so that an input is decided in well under a
// millisecond and a failure is short enough to read.
const (
	fuzzMaxHeader = 2048
	fuzzMaxHTML   = 16 << 10
	fuzzMaxRobots = 2048
)

// FuzzPage compares the package with the reference on any response:
// header field lines ("Name: value", one a line), HTML, the crawler's
// tokens (apart by spaces) and a robots.txt ("" for none). It is seeded
// with the conformance table.
func FuzzPage(f *testing.F) {
	cases, err := reference.LoadPageConformance(tablePath)
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if c.TDMFile == nil && c.MaxHTML == 0 {
			f.Add(strings.Join(c.Header, "\n"), []byte(c.HTML), strings.Join(c.Agents, " "), c.Robots)
		}
	}
	f.Fuzz(func(t *testing.T, header string, html []byte, agents, robots string) {
		if len(header) > fuzzMaxHeader || len(html) > fuzzMaxHTML || len(robots) > fuzzMaxRobots {
			return
		}
		var lines []string
		for _, l := range strings.Split(header, "\n") {
			if name, _, ok := strings.Cut(l, ":"); ok && validFieldName(strings.TrimSpace(name)) && !strings.ContainsAny(l, "\r\x00") {
				lines = append(lines, l)
			}
		}
		c := reference.PageCase{Name: "fuzz", Source: "fuzz", Agents: strings.Fields(agents), Header: lines, HTML: string(html)}
		if robots != "" {
			c.Robots, c.URL = robots, "https://example.com/page"
		}
		got := jsonAnswer(readCase(t, c))
		want := reference.Page(c.Input())
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("page.Read differs from the reference (-reference +package):\n%s\nreproducer: header=%q html=%q agents=%q robots=%q", diff, lines, html, c.Agents, robots)
		}
	})
}

// validFieldName reports whether s is an HTTP field name (RFC 9110's
// token): a header a server can send.
func validFieldName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"(),/:;<=>?@[\\]{}", c) >= 0 {
			return false
		}
	}
	return true
}

// pieces are the alphabet TestDifferential_PageSmallAlphabet writes
// values in: directives, agents, dates and their parts, separators.
var pieces = []string{
	"noindex", "nofollow", "none", "nosnippet", "noarchive", "nocache", "noimageindex", "notranslate",
	"indexifembedded", "noai", "noimageai", "all", "index", "googlebot", "GoogleBot", "otherbot",
	"max-snippet", "max-image-preview", "max-video-preview", "unavailable_after", ":", ",", ", ", " ",
	"-1", "0", "20", "standard", "none", "large", "Wed", "Sunday", "03 Dec 2025 13:09:53 GMT",
	"25 Jun 2010 15:00:00 PST", "06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "2020-09-21",
	"2025-12-03T13:09:53+01:00", "T10:00", "Z", "+0200", "EDT", "CET", "\t",
}

// TestDifferential_PageSmallAlphabet compares the package with the
// reference on header lines and meta contents written from pieces, where
// random bytes rarely reach: agents, valued directives, dates cut by
// commas.
func TestDifferential_PageSmallAlphabet(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	rnd := uint64(1)
	next := func(k int) int {
		rnd ^= rnd << 13
		rnd ^= rnd >> 7
		rnd ^= rnd << 17
		return int(rnd % uint64(k))
	}
	value := func() string {
		var b strings.Builder
		for range 1 + next(8) {
			b.WriteString(pieces[next(len(pieces))])
		}
		return b.String()
	}
	agents := [][]string{{"Googlebot"}, {"otherbot", "Googlebot"}, {}}
	for range n {
		var lines []string
		for range next(3) {
			lines = append(lines, "X-Robots-Tag: "+value())
		}
		html := ""
		for range next(3) {
			name := []string{"robots", "googlebot", "otherbot"}[next(3)]
			html += `<meta name="` + name + `" content="` + value() + "\">\n"
		}
		c := reference.PageCase{Agents: agents[next(len(agents))], Header: lines, HTML: html}
		got, want := jsonAnswer(readCase(t, c)), reference.Page(c.Input())
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("page.Read differs from the reference (-reference +package):\n%s\nreproducer: header=%q html=%q agents=%q", diff, lines, html, c.Agents)
		}
	}
}

// datePieces are the alphabet TestDifferential_PageDates writes dates in.
var datePieces = []string{
	"Wed", "wednesday", "Sun", ",", " ", "  ", "\t", "03", "3", "6", "31", "30", "29", "02", "2025", "1994", "94", "00", "2000", "2100",
	"Dec", "feb", "Nov", "JUN", "-", ":", "13", "09", "53", "60", "24", "23", "GMT", "pst", "UT", "Z", "z", "CET", "+0100", "-0530",
	"+01:00", "+01", "T", "t", ".", "5", "123456789", "1234567890",
}

// TestDifferential_PageDates compares the package's and the reference's
// reading of unavailable_after dates written from datePieces, and of ISO
// dates with a few bytes changed.
func TestDifferential_PageDates(t *testing.T) {
	n := 50000
	if testing.Short() {
		n = 5000
	}
	rnd := uint64(7)
	next := func(k int) int {
		rnd ^= rnd << 13
		rnd ^= rnd >> 7
		rnd ^= rnd << 17
		return int(rnd % uint64(k))
	}
	dates := 0
	seeds := []string{"2025-12-03T13:09:53+01:00", "2020-09-21", "2020-02-29T10:00:00.5Z", "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"}
	for i := range n {
		var date string
		if i%2 == 0 {
			var b strings.Builder
			for range 1 + next(9) {
				b.WriteString(datePieces[next(len(datePieces))])
			}
			date = b.String()
		} else {
			d := []byte(seeds[next(len(seeds))])
			for range 1 + next(2) {
				d[next(len(d))] = "0123456789:-+TZ ,."[next(18)]
			}
			date = string(d)
		}
		c := reference.PageCase{Agents: []string{"a"}, Header: []string{"X-Robots-Tag: unavailable_after: " + date}}
		got, want := jsonAnswer(readCase(t, c)), reference.Page(c.Input())
		if got.UnavailableAfter != want.UnavailableAfter {
			t.Fatalf("unavailable_after: %q: package %q, reference %q", date, got.UnavailableAfter, want.UnavailableAfter)
		}
		if got.UnavailableAfter != "" {
			dates++
		}
	}
	if dates < n/20 {
		t.Errorf("only %d of %d inputs were dates: the test checks little", dates, n)
	}
}
