package page_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine/page"
)

// BenchmarkRead_Page reads named pages: a header alone, a typical page's
// head, and a large page (1 MiB of body text with a robots tag at its
// end).
func BenchmarkRead_Page(b *testing.B) {
	head := `<!DOCTYPE html><html><head><meta charset="utf-8"><title>A page</title>
<meta name="robots" content="max-snippet:50, max-image-preview:large">
<meta name="googlebot" content="notranslate"><link rel="stylesheet" href="/s.css">
<script>var x = "<meta name=robots content=noindex>";</script></head><body>`
	inputs := []struct {
		name string
		in   page.Input
	}{
		{"header", page.Input{Header: http.Header{"X-Robots-Tag": {"noindex, googlebot: nofollow", "unavailable_after: 25 Jun 2010 15:00:00 PST"}}}},
		{"head", page.Input{HTML: []byte(head + "<p>text</p></body></html>")}},
		{"1MiB", page.Input{HTML: []byte(head + strings.Repeat("<p>Some text, <a href=\"/x\">a link</a>.</p>\n", 1<<20/44) + `<meta name="robots" content="noindex"></body>`)}},
	}
	tokens := []string{"Googlebot"}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.in.HTML)))
			b.ReportAllocs()
			for range b.N {
				_ = page.Read(in.in, tokens...)
			}
		})
	}
}
