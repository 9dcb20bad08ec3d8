package page_test

import (
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

// TestConformance_Page runs every case of the page-signals table through
// the package and through the reference.
func TestConformance_Page(t *testing.T) {
	cases, err := reference.LoadPageConformance(tablePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		compare(t, c, "page.Read", jsonAnswer(readCase(t, c)))
		compare(t, c, "reference.Page", reference.Page(c.Input()))
	}
}
