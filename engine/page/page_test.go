package page_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/engine/page"
	"github.com/seed-275a9bd5/robotstxt/internal/race"
)

// RFC 9110 section 5.6.7: a two-digit year more than 50 years ahead is the
// previous century's.
func TestRFC9110_TwoDigitYear(t *testing.T) {
	for _, tc := range []struct{ yy, now, want int }{
		{94, 2026, 1994}, {10, 2026, 2010}, {76, 2026, 2076}, {77, 2026, 1977}, {26, 2026, 2026}, {0, 2099, 2000}, {50, 2099, 2050},
	} {
		if got := page.TwoDigitYear(tc.yy, tc.now); got != tc.want {
			t.Errorf("TwoDigitYear(%d, %d) = %d, want %d", tc.yy, tc.now, got, tc.want)
		}
	}
}

func TestGoogleMeta_DisallowedHasNoAnswer(t *testing.T) {
	m := engine.Compile([]byte("User-agent: *\nDisallow: /\n"), engine.Options{}).Matcher("Googlebot")
	h := http.Header{"X-Robots-Tag": {"noindex"}}
	a := page.Read(page.Input{Header: h, Robots: page.RobotsFor(m, "https://example.com/x")}, "Googlebot")
	if a != (page.Answer{Disallowed: true}) {
		t.Errorf("Read of a disallowed URL = %+v, want only Disallowed", a)
	}
}

func TestGoogleMeta_OriginText(t *testing.T) {
	h := http.Header{"X-Robots-Tag": {"otherbot: noindex", "googlebot: noindex"}}
	a := page.Read(page.Input{Header: h, HTML: []byte("<p>\n<meta name=robots content=nofollow>")}, "Googlebot")
	if got, want := a.Why.NoIndex.String(), "X-Robots-Tag line 2 (Googlebot)"; got != want {
		t.Errorf("Why.NoIndex = %q, want %q", got, want)
	}
	if got, want := a.Why.NoFollow.String(), "meta line 2"; got != want {
		t.Errorf("Why.NoFollow = %q, want %q", got, want)
	}
}

// allocs returns the allocations of one Read of in (for a crawler's
// tokens it keeps: a variadic list written out in the call would be one
// more allocation).
func allocs(in page.Input) float64 {
	tokens := []string{"Googlebot", "Googlebot-Image"}
	return testing.AllocsPerRun(20, func() { _ = page.Read(in, tokens...) })
}

// TestPage_NoAllocationPerDirective: a page with many directives costs the
// allocations of a page with one.
func TestPage_NoAllocationPerDirective(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector drops sync.Pool items")
	}
	dirs := "noindex, googlebot: nofollow, max-snippet:20, max-image-preview:standard, unavailable_after: Wed, 03 Dec 2025 13:09:53 GMT, noai"
	one := http.Header{"X-Robots-Tag": {"noindex"}}
	many := http.Header{"X-Robots-Tag": []string{}}
	for range 100 {
		many["X-Robots-Tag"] = append(many["X-Robots-Tag"], dirs)
	}
	if a := allocs(page.Input{Header: one}); a != 0 {
		t.Errorf("Read of a header: %v allocations, want 0", a)
	}
	if a := allocs(page.Input{Header: many}); a != 0 {
		t.Errorf("Read of 100 header lines: %v allocations, want 0", a)
	}
	meta := `<meta name="robots" content="` + dirs + `">` + "\n" + `<meta name="googlebot" content="nosnippet, unavailable_after: 25 Jun 2010 15:00:00 PST">`
	base := allocs(page.Input{HTML: []byte(meta)})
	if a := allocs(page.Input{HTML: []byte(strings.Repeat(meta, 200))}); a > base {
		t.Errorf("Read of 400 meta tags: %v allocations, of 2: %v; want no more", a, base)
	}
}

// TestPage_HostileHTML: any bytes give an answer, without panicking (a
// hang fails by go test's -timeout: Read reads each byte a bounded number
// of times); bytes past the limit are not read.
func TestPage_HostileHTML(t *testing.T) {
	inputs := map[string][]byte{
		"deep nesting":    []byte(strings.Repeat("<div>", 200000) + `<meta name=robots content=noindex>`),
		"many attributes": []byte("<meta " + strings.Repeat(`a="b" `, 100000) + `name=robots content=noindex>`),
		"huge content":    []byte(`<meta name=robots content="` + strings.Repeat("noindex,", 200000) + `">`),
		"unclosed":        []byte(`<meta name=robots content="noindex`),
		"binary":          []byte("\x00\xff<\x00meta\xfe name=\x00robots content=noindex>\x80"),
		"open comment":    []byte("<!--" + strings.Repeat("<meta name=robots content=noindex>", 10000)),
		"open script":     []byte("<script>" + strings.Repeat("<meta name=robots content=noindex>", 10000)),
		"plaintext":       []byte("<plaintext><meta name=robots content=noindex>"),
	}
	want := map[string]bool{"deep nesting": true, "many attributes": true, "huge content": true, "binary": false}
	for name, b := range inputs {
		a := page.Read(page.Input{HTML: b}, "Googlebot")
		if w, ok := want[name]; ok && a.NoIndex != w {
			t.Errorf("%s: NoIndex = %v, want %v", name, a.NoIndex, w)
		}
	}
	b := append([]byte(strings.Repeat(" ", 100)), "<meta name=robots content=noindex>"...)
	a := page.Read(page.Input{HTML: b, MaxHTMLBytes: 100}, "Googlebot")
	if a.NoIndex || !a.Truncated {
		t.Errorf("a tag past MaxHTMLBytes: NoIndex %v Truncated %v, want false true", a.NoIndex, a.Truncated)
	}
}

// Content-Signal's ai-input and use= are in the answer, typed.
func TestContentSignal_AIInputAndUse(t *testing.T) {
	m := engine.Compile([]byte("User-agent: *\nContent-Signal: ai-input=no, use=immediate\n"), engine.Options{}).Matcher("AnyBot")
	a := page.Read(page.Input{Robots: page.RobotsFor(m, "/")}, "AnyBot")
	if a.Signals.AIInput != engine.UsageDisallowed || a.Signals.Use != engine.UseImmediate || a.Signals.AIInputLine != 2 {
		t.Errorf("Signals = %+v, want ai-input n and use immediate from line 2", a.Signals)
	}
	if a.AITrain.Answer != engine.UsageUnknown {
		t.Errorf("AITrain = %v: ai-input is no AI-training signal", a.AITrain.Answer)
	}
}

// TDMRep: a file rule that states no reservation is no source.
func TestTDMRep_UnsetFileRuleStatesNothing(t *testing.T) {
	in := page.Input{TDMFile: page.TDM{Policy: "https://example.com/p", From: page.Origin{Source: page.SourceTDMFile, Line: 1}}}
	if a := page.Read(in, "Googlebot"); a.TDM != (page.TDM{}) || a.AITrain.Answer != engine.UsageUnknown {
		t.Errorf("TDM %+v, AITrain %v; want nothing", a.TDM, a.AITrain.Answer)
	}
}
