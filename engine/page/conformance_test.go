package page_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/engine/page"
	"github.com/seed-275a9bd5/robotstxt/internal/reference"
)

const tablePath = "../../testdata/page/conformance.json"

// jsonAnswer is a in the keys of the page command's JSON output.
func jsonAnswer(a page.Answer) reference.PageAnswer {
	decided := map[string]string{}
	note := func(key string, o page.Origin) {
		if s := o.String(); s != "" {
			decided[key] = s
		}
	}
	if a.Disallowed {
		return reference.PageAnswer{Disallowed: true, AITrain: "-", Search: "-", Decided: decided}
	}
	out := reference.PageAnswer{
		Index: !a.NoIndex, Follow: !a.NoFollow, Archive: !a.NoArchive,
		Snippet: a.MaxSnippet, ImagePreview: a.MaxImagePreview.String(), VideoPreview: a.MaxVideoPreview,
		ImageIndex: !a.NoImageIndex, Translate: !a.NoTranslate, IndexIfEmbedded: a.IndexIfEmbedded,
		NoAI: a.NoAI, NoImageAI: a.NoImageAI,
		AITrain: a.AITrain.Answer.String(), Search: a.Search.Answer.String(),
		TDMPolicy: a.TDM.Policy, Decided: decided,
	}
	if !a.UnavailableAfter.IsZero() {
		out.UnavailableAfter = a.UnavailableAfter.UTC().Format(time.RFC3339Nano)
	}
	switch a.TDM.Reservation {
	case page.TDMReserved:
		out.TDMReservation = new(int)
		*out.TDMReservation = 1
	case page.TDMNotReserved:
		out.TDMReservation = new(int)
	}
	w := a.Why
	note("index", w.NoIndex)
	note("follow", w.NoFollow)
	note("archive", w.NoArchive)
	note("snippet", w.MaxSnippet)
	note("image_preview", w.MaxImagePreview)
	note("video_preview", w.MaxVideoPreview)
	note("image_index", w.NoImageIndex)
	note("translate", w.NoTranslate)
	note("index_if_embedded", w.IndexIfEmbedded)
	note("unavailable_after", w.UnavailableAfter)
	note("noai", w.NoAI)
	note("noimageai", w.NoImageAI)
	note("ai_train", a.AITrain.From)
	note("search", a.Search.From)
	note("tdm_reservation", a.TDM.From)
	return out
}

// readCase reads a conformance case with the package.
func readCase(t testing.TB, c reference.PageCase) page.Answer {
	h, err := reference.HeaderOf(c.Header)
	if err != nil {
		t.Fatal(err)
	}
	in := page.Input{Header: h, HTML: []byte(c.HTML), MaxHTMLBytes: c.MaxHTML}
	if c.Robots != "" {
		m := engine.Compile([]byte(c.Robots), engine.Options{}).Matcher(c.Agents...)
		in.Robots = page.RobotsFor(m, c.URL)
	}
	if f := c.TDMFile; f != nil {
		in.TDMFile.From = page.Origin{Source: page.SourceTDMFile, Line: f.Rule}
		in.TDMFile.Policy = f.Policy
		switch f.Reservation {
		case 0:
			in.TDMFile.Reservation = page.TDMNotReserved
		case 1:
			in.TDMFile.Reservation = page.TDMReserved
		default:
			in.TDMFile = page.TDM{}
		}
	}
	return page.Read(in, c.Agents...)
}

// compare reports a difference between got and the expected answer;
// decided is compared only when the case states it.
func compare(t *testing.T, c reference.PageCase, who string, got reference.PageAnswer) {
	t.Helper()
	want := c.Expect.Answer()
	if want.Decided == nil {
		got.Decided = nil
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s (%s): %s (-want +got):\n%s", c.Name, c.Source, who, diff)
	}
}

// runCases runs the table's cases whose name starts with prefix through
// the package and through the reference, and returns how many ran.
func runCases(t *testing.T, prefix string) int {
	t.Helper()
	cases, err := reference.LoadPageConformance(tablePath)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if !strings.HasPrefix(c.Name, prefix) {
			continue
		}
		n++
		compare(t, c, "page.Read", jsonAnswer(readCase(t, c)))
		compare(t, c, "reference.Page", reference.Page(c.Input()))
	}
	if n == 0 {
		t.Fatalf("no case named %s...", prefix)
	}
	return n
}

// sources are the prefixes of the table's case names, each run by a test
// named after it.
var sources = []string{"google-meta/", "google-header/", "mdn/", "pitfall/", "date/", "tdmrep/", "aipref/", "content-signal/", "limit/"}

// TestConformance_EveryCaseHasASource: every case is run by one of the
// tests below.
func TestConformance_EveryCaseHasASource(t *testing.T) {
	cases, err := reference.LoadPageConformance(tablePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		ok := false
		for _, p := range sources {
			ok = ok || strings.HasPrefix(c.Name, p)
		}
		if !ok {
			t.Errorf("case %s: its name starts with none of %q", c.Name, sources)
		}
	}
}

// Google's "Robots meta tag, data-nosnippet, and X-Robots-Tag
// specifications": every example, the meta tag's.
func TestGoogleMeta_Examples(t *testing.T) { runCases(t, "google-meta/") }

// The same page's X-Robots-Tag examples, and the indexifembedded blog
// post's.
func TestGoogleHeader_Examples(t *testing.T) { runCases(t, "google-header/") }

// MDN's X-Robots-Tag page: every example, and its rule on header and meta.
func TestMDN_XRobotsTagExamples(t *testing.T) { runCases(t, "mdn/") }

// What established crawlers get wrong (StormCrawler, Nutch, Norconex,
// spatie, img2dataset, crawler-commons' corpus): read right here.
func TestPitfall_EstablishedCrawlers(t *testing.T) { runCases(t, "pitfall/") }

// unavailable_after's date forms: RFC 822/1123, RFC 850, ANSI C, ISO 8601.
func TestGoogleMeta_UnavailableAfterDates(t *testing.T) { runCases(t, "date/") }

// The W3C TDM Reservation Protocol: header, meta, tdmrep.json and their
// precedence.
func TestTDMRep_Precedence(t *testing.T) { runCases(t, "tdmrep/") }

// Content-Usage from robots.txt and the header in the AI-training and
// search answers.
func TestAIPref_PageAnswer(t *testing.T) { runCases(t, "aipref/") }

// Cloudflare's Content-Signal in the answer.
func TestContentSignal_PageAnswer(t *testing.T) { runCases(t, "content-signal/") }

// The HTML's byte limit.
func TestLimits_MaxHTMLBytes(t *testing.T) { runCases(t, "limit/") }
