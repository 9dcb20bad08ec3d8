package engine_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
)

const extensionsRobots = `User-agent: *
Disallow: /private
Crawl-delay: 2

User-agent: YandexBot
User-agent: SeznamBot
Disallow: /search
Crawl-delay: 1.5
Request-rate: 1/10s 0600-0845
Request-rate: 100/1h
Visit-time: 2200-0600
Host: https://www.example.com
Clean-param: ref&utm_source /articles/
Clean-param: sid
Content-Signal: search=yes, AI-Train=no
Noindex: /drafts
Request-rate: fast
Crawl-delay: 10s

User-agent: SeznamBot
Crawl-delay: 4
`

func TestMatcherExtensions(t *testing.T) {
	r := engine.Compile([]byte(extensionsRobots), engine.Options{})
	got := r.Matcher("YandexBot").Extensions()
	want := engine.Extensions{
		CrawlDelays: []engine.CrawlDelay{{Delay: 1500 * time.Millisecond, Line: 8}},
		RequestRates: []engine.RequestRate{
			{Requests: 1, Per: 10 * time.Second, Window: engine.TimeWindow{Start: 6 * time.Hour, End: 8*time.Hour + 45*time.Minute}, Line: 9},
			{Requests: 100, Per: time.Hour, Line: 10},
		},
		VisitTimes:  []engine.VisitTime{{Window: engine.TimeWindow{Start: 22 * time.Hour, End: 6 * time.Hour}, Line: 11}},
		Hosts:       []engine.Host{{Host: "https://www.example.com", Line: 12}},
		CleanParams: []engine.CleanParam{{Params: []string{"ref", "utm_source"}, Prefix: "/articles/", Line: 13}, {Params: []string{"sid"}, Line: 14}},
		ContentSignals: []engine.ContentSignal{
			{Key: "search", Value: "yes", Line: 15},
			{Key: "ai-train", Value: "no", Line: 15},
		},
		Invalid: []compile.Extension{{Key: "request-rate", Value: "fast", Line: 17}, {Key: "crawl-delay", Value: "10s", Line: 18}},
		Other:   []compile.Extension{{Key: "noindex", Value: "/drafts", Line: 16}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Extensions (-want +got):\n%s", diff)
	}
	if d, ok := got.CrawlDelay(); !ok || d != 1500*time.Millisecond {
		t.Errorf("CrawlDelay() = %v, %v", d, ok)
	}
	if h, ok := got.Host(); !ok || h != "https://www.example.com" {
		t.Errorf("Host() = %q, %v", h, ok)
	}
	if v, ok := got.ContentSignal("AI-train"); !ok || v != "no" {
		t.Errorf(`ContentSignal("AI-train") = %q, %v`, v, ok)
	}
	if _, ok := got.ContentSignal("ai-input"); ok {
		t.Errorf("ContentSignal(ai-input) found")
	}
	// Case is ignored in ASCII only (docs/SEMANTICS.md section 8): the
	// Kelvin sign, which Unicode folds to k, names no key.
	if _, ok := (engine.Extensions{ContentSignals: []engine.ContentSignal{{Key: "k", Value: "no"}}}).ContentSignal("\u212a"); ok {
		t.Errorf("ContentSignal(Kelvin sign) found the key k")
	}
	if iv := got.RequestRates[0].Interval(); iv != 10*time.Second {
		t.Errorf("Interval = %v", iv)
	}

	// Merged groups: the largest crawl-delay wins.
	if d, ok := r.Matcher("SeznamBot").Extensions().CrawlDelay(); !ok || d != 4*time.Second {
		t.Errorf("SeznamBot CrawlDelay() = %v, %v; want 4s, the largest of the merged groups", d, ok)
	}
	// The global group.
	if d, ok := r.Matcher("OtherBot").Extensions().CrawlDelay(); !ok || d != 2*time.Second {
		t.Errorf("OtherBot CrawlDelay() = %v, %v", d, ok)
	}
	// A fixed Robots has none.
	if e := engine.AllowAll(engine.Options{}).Matcher("x").Extensions(); !cmp.Equal(e, engine.Extensions{}) {
		t.Errorf("AllowAll: %+v", e)
	}
}

func TestCrawlDelay_Cap(t *testing.T) {
	r := engine.Compile([]byte("User-agent: *\nCrawl-delay: 86400\n"), engine.Options{})
	e := r.Matcher("x").Extensions()
	if d, ok := e.CrawlDelay(); !ok || d != engine.MaxCrawlDelay {
		t.Errorf("CrawlDelay() = %v, %v; want MaxCrawlDelay", d, ok)
	}
	if d, _ := e.CrawlDelayAtMost(48 * time.Hour); d != 24*time.Hour {
		t.Errorf("CrawlDelayAtMost(48h) = %v", d)
	}
	if e.CrawlDelays[0].Delay != 24*time.Hour {
		t.Errorf("raw delay %v", e.CrawlDelays[0].Delay)
	}
	// Larger than any time.Duration: saturates, then capped.
	e = engine.Compile([]byte("User-agent: *\nCrawl-delay: 99999999999999999999\n"), engine.Options{}).Matcher("x").Extensions()
	if d, ok := e.CrawlDelay(); !ok || d != engine.MaxCrawlDelay {
		t.Errorf("huge: %v, %v", d, ok)
	}
	if _, ok := (engine.Extensions{}).CrawlDelay(); ok {
		t.Error("no crawl-delay reported as one")
	}
}

func TestParseRequestRate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want engine.RequestRate
		ok   bool
	}{
		{"1/10s", engine.RequestRate{Requests: 1, Per: 10 * time.Second}, true},
		{"1/10", engine.RequestRate{Requests: 1, Per: 10 * time.Second}, true},
		{"1 / 10 s", engine.RequestRate{Requests: 1, Per: 10 * time.Second}, true},
		{"30/1m", engine.RequestRate{Requests: 30, Per: time.Minute}, true},
		{"100/1h", engine.RequestRate{Requests: 100, Per: time.Hour}, true},
		{"1000/1d", engine.RequestRate{Requests: 1000, Per: 24 * time.Hour}, true},
		{"1/0.5s", engine.RequestRate{Requests: 1, Per: 500 * time.Millisecond}, true},
		{"1/10s 0600-0845", engine.RequestRate{Requests: 1, Per: 10 * time.Second, Window: engine.TimeWindow{Start: 6 * time.Hour, End: 8*time.Hour + 45*time.Minute}}, true},
		{"1/20s 1800-0600", engine.RequestRate{Requests: 1, Per: 20 * time.Second, Window: engine.TimeWindow{Start: 18 * time.Hour, End: 6 * time.Hour}}, true},
		{"", engine.RequestRate{}, false},
		{"10", engine.RequestRate{}, false},
		{"0/10s", engine.RequestRate{}, false},
		{"1/0s", engine.RequestRate{}, false},
		{"-1/10s", engine.RequestRate{}, false},
		{"1/10x", engine.RequestRate{}, false},
		{"1/10s 0600", engine.RequestRate{}, false},
		{"1/10s 2500-0100", engine.RequestRate{}, false},
		{"1/99999999999999999d", engine.RequestRate{}, false},
	} {
		got, ok := engine.ParseRequestRate(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseRequestRate(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestTimeWindow(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2026, 1, 2, h, m, 0, 0, time.UTC) }
	for _, c := range []struct {
		in          string
		ok          bool
		inside, out []time.Time
	}{
		{"0600-0845", true, []time.Time{at(6, 0), at(8, 44)}, []time.Time{at(5, 59), at(8, 45), at(12, 0)}},
		{"22:00-06:00", true, []time.Time{at(22, 0), at(23, 59), at(0, 0), at(5, 59)}, []time.Time{at(6, 0), at(21, 59)}},
		{"1800-2400", true, []time.Time{at(18, 0), at(23, 59)}, []time.Time{at(0, 0), at(17, 59)}},
		{"0000-2400", true, []time.Time{at(0, 0), at(12, 0)}, nil},
		{"0600-0600", false, nil, nil},
		{"0660-0700", false, nil, nil},
		{"2400-0100", false, nil, nil},
		{"600-845", false, nil, nil},
	} {
		w, ok := engine.ParseTimeWindow(c.in)
		if ok != c.ok {
			t.Errorf("ParseTimeWindow(%q): ok %v", c.in, ok)
			continue
		}
		for _, tm := range c.inside {
			if !w.Contains(tm) {
				t.Errorf("%q does not contain %s", c.in, tm.Format("15:04"))
			}
		}
		for _, tm := range c.out {
			if w.Contains(tm) {
				t.Errorf("%q contains %s", c.in, tm.Format("15:04"))
			}
		}
	}
	// Contains reads the time in UTC.
	w, _ := engine.ParseTimeWindow("0600-0700")
	if !w.Contains(time.Date(2026, 1, 2, 8, 30, 0, 0, time.FixedZone("+2", 2*3600))) {
		t.Error("08:30+02:00 is 06:30 UTC")
	}
	if s := w.String(); s != "0600-0700" {
		t.Errorf("String() = %q", s)
	}
}

func TestParseCleanParam(t *testing.T) {
	for _, c := range []struct {
		in   string
		want engine.CleanParam
		ok   bool
	}{
		{"ref /some_dir/get_book.pl", engine.CleanParam{Params: []string{"ref"}, Prefix: "/some_dir/get_book.pl"}, true},
		{"s&ref /forum*/showthread.php", engine.CleanParam{Params: []string{"s", "ref"}, Prefix: "/forum*/showthread.php"}, true},
		{"sid", engine.CleanParam{Params: []string{"sid"}}, true},
		{"", engine.CleanParam{}, false},
		{"a&&b /x", engine.CleanParam{}, false},
		{"a /x /y", engine.CleanParam{}, false},
		{"a https://example.com/x", engine.CleanParam{}, false},
	} {
		got, ok := engine.ParseCleanParam(c.in)
		if ok != c.ok || !cmp.Equal(got, c.want, cmpopts.EquateEmpty()) {
			t.Errorf("ParseCleanParam(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestCleanURL follows Yandex's Clean-param examples: parameters that do
// not change a page are dropped for the paths their line names.
func TestCleanURL(t *testing.T) {
	r := engine.Compile([]byte(`User-agent: Yandex
Clean-param: ref /some_dir/get_book.pl
Clean-param: sid&sort /forum/*.php
Clean-param: utm_source
`), engine.Options{})
	e := r.Matcher("Yandex").Extensions()
	for _, c := range []struct{ in, want string }{
		{"https://www.example.com/some_dir/get_book.pl?ref=site_1&book_id=123", "https://www.example.com/some_dir/get_book.pl?book_id=123"},
		{"https://www.example.com/some_dir/get_book.pl?book_id=123&ref=site_2", "https://www.example.com/some_dir/get_book.pl?book_id=123"},
		{"/some_dir/get_book.pl?ref=x", "/some_dir/get_book.pl"},
		{"/some_dir/get_book.pl?ref=x#top", "/some_dir/get_book.pl#top"},
		{"/other.pl?ref=x&utm_source=y", "/other.pl?ref=x"},
		{"/forum/a/showthread.php?sid=1&t=2&sort=3", "/forum/a/showthread.php?t=2"},
		{"/forum.php?sid=1", "/forum.php?sid=1"},
		{"/a?refx=1&ref", "/a?refx=1&ref"},
		{"/a", "/a"},
		{"/a?", "/a?"},
		{"https://example.com?utm_source=1", "https://example.com"},
	} {
		if got := e.CleanURL(c.in); got != c.want {
			t.Errorf("CleanURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if u := "/x?utm_source=1"; (engine.Extensions{}).CleanURL(u) != u {
		t.Error("no clean-param changed the URL")
	}
}

func TestParseExtensions_ContentSignal(t *testing.T) {
	e := engine.ParseExtensions([]compile.Extension{
		{Key: "content-signal", Value: "search=yes,ai-input=no", Line: 1},
		{Key: "content-signal", Value: "search=yes, ai-train", Line: 2},
		{Key: "content-signal", Value: "", Line: 3},
	})
	if len(e.ContentSignals) != 2 || len(e.Invalid) != 2 || e.Invalid[0].Line != 2 {
		t.Errorf("got %+v", e)
	}
}

// linePrefix matches an allow or disallow line (or a typo the parser reads
// as one) at the start of a line.
var linePrefix = regexp.MustCompile(`(?im)^\s*(user-agent|useragent|user agent|allow|disallow|dissallow|dissalow|disalow|diasllow|disallaw|sitemap|site-map)`)

// TestRFC9309_ExtensionsNeverDecide checks that extension lines, whatever
// their value, are never rules (RFC 9309 section 2.2.4, "Other records": they
// are not part of the protocol; docs/SEMANTICS.md section 6): a file
// decides every URL exactly as the same file with its extension lines turned
// into comments, in every semantics.
func TestRFC9309_ExtensionsNeverDecide(t *testing.T) {
	const body = `User-agent: *
Crawl-delay: /private
Disallow: /a
Request-rate: /b
Allow: /a/b
Host: /c
Clean-param: x /a/b/c
Noindex: /d
Content-Signal: search=no
Content-Usage: /e train-ai=n
Visit-time: /f
Unknown: /g

User-agent: bot
Noarchive: /
Disallow: /h
Nofollow: /a
`
	var commented strings.Builder
	for _, l := range strings.SplitAfter(body, "\n") {
		if strings.TrimSpace(l) != "" && !linePrefix.MatchString(l) {
			l = "# " + l
		}
		commented.WriteString(l)
	}
	urls := []string{"/", "/private", "/a", "/a/b", "/a/b/c", "/b", "/c", "/d", "/e", "/f", "/g", "/h", "/x?x=1"}
	for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
		with := engine.Compile([]byte(body), engine.Options{Semantics: sem})
		without := engine.Compile([]byte(commented.String()), engine.Options{Semantics: sem})
		if n := with.Matcher("bot").Selection().Extensions.Len() + with.Matcher("other").Selection().Extensions.Len(); n == 0 && sem != engine.Koster1996 {
			t.Fatalf("%s: no extensions parsed", sem)
		}
		for _, agent := range []string{"bot", "other"} {
			for _, u := range urls {
				a, b := with.Matcher(agent).Decide(u), without.Matcher(agent).Decide(u)
				if a != b {
					t.Errorf("%s %s %s: with extensions %+v, without %+v", sem, agent, u, a, b)
				}
			}
		}
	}
}

func ExampleMatcher_Extensions() {
	robots := engine.Compile([]byte(`User-agent: *
Disallow: /private/
Crawl-delay: 2.5
Request-rate: 1/10s 0600-0845
Clean-param: sessionid&ref /shop/
Content-Signal: search=yes, ai-train=no
`), engine.Options{})

	ext := robots.Matcher("ExampleBot").Extensions()
	delay, _ := ext.CrawlDelay()
	fmt.Println("crawl-delay:", delay)
	for _, r := range ext.RequestRates {
		fmt.Printf("request-rate: %d per %v (every %v) during %s UTC\n", r.Requests, r.Per, r.Interval(), r.Window)
	}
	fmt.Println(ext.CleanURL("https://example.com/shop/item?id=7&sessionid=abc&ref=mail"))
	train, _ := ext.ContentSignal("ai-train")
	fmt.Println("ai-train:", train)
	// Output:
	// crawl-delay: 2.5s
	// request-rate: 1 per 10s (every 10s) during 0600-0845 UTC
	// https://example.com/shop/item?id=7
	// ai-train: no
}
