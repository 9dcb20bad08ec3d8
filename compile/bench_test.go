package compile

import (
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
	"os"
	"path/filepath"
	"testing"
)

// smallBody is a typical small robots.txt: ten rules in three groups.
const smallBody = `# robots.txt for https://www.example.com/
User-agent: *
Disallow: /cgi-bin/
Disallow: /tmp/
Disallow: /search?q=*
Allow: /search/about$

User-agent: Googlebot
User-agent: Bingbot
Disallow: /private/
Allow: /private/press/*.html$
Crawl-delay: 2

User-agent: BadBot
Disallow: /
Disallow: /%7Eadmin/
Disallow: /caf` + "\u00e9" + `/

Sitemap: https://www.example.com/sitemap.xml
`

type benchInput struct {
	name string
	body []byte
}

// benchInputs returns the named inputs: small, large (500 generated rules
// with wildcards) and, when the corpus is present, a few real files
// (docs.oracle.com is past the size limit: only 512,000 bytes are read).
func benchInputs(b *testing.B) []benchInput {
	inputs := []benchInput{{"small", []byte(smallBody)}, {"large", largeBody(500)}}
	if dir := corpus.Dir(b); dir != "" {
		for _, name := range []string{"google.com", "en.wikipedia.org", "docs.oracle.com"} {
			body, err := os.ReadFile(filepath.Join(dir, "files", name+".txt"))
			if err == nil {
				inputs = append(inputs, benchInput{name, body})
			}
		}
	}
	return inputs
}

// BenchmarkParse measures Parse on named inputs, in RFC9309 semantics, and
// in the two others on the large input.
func BenchmarkParse(b *testing.B) {
	for _, in := range benchInputs(b) {
		sems := []Semantics{RFC9309}
		if in.name == "large" {
			sems = append(sems, Google, Koster1996)
		}
		for _, sem := range sems {
			name := in.name
			if sem != RFC9309 {
				name += "/" + sem.String()
			}
			b.Run(name, func(b *testing.B) {
				opts := Options{Semantics: sem}
				b.SetBytes(int64(min(len(in.body), opts.EffectiveMaxFileSize())))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					Parse(in.body, opts)
				}
			})
		}
	}
}

// BenchmarkScan measures the line scanner alone, with a handler that keeps
// nothing.
func BenchmarkScan(b *testing.B) {
	for _, in := range benchInputs(b) {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(min(len(in.body), DefaultMaxFileSize)))
			b.ReportAllocs()
			var h countHandler
			for i := 0; i < b.N; i++ {
				scan(in.body, Options{}, &h)
			}
		})
	}
}

// BenchmarkFile_Select measures choosing the groups of one crawler.
func BenchmarkFile_Select(b *testing.B) {
	f := Parse(largeBody(500), Options{})
	for _, tc := range []struct {
		name   string
		tokens []string
	}{
		{"specific", []string{"BotCa"}},
		{"global", []string{"OtherBot"}},
		{"two-tokens", []string{"Googlebot-Image", "Googlebot"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				f.Select(tc.tokens...)
			}
		})
	}
}

// BenchmarkParse_Corpus parses every corpus file (all of each: MaxFileSize
// 64 MiB), in Google semantics: the parse that a crawler's first contact
// with each site costs. ns/op is one pass over the corpus.
func BenchmarkParse_Corpus(b *testing.B) {
	bodies, size := corpus.AllBodies(b)
	opts := Options{Semantics: Google, MaxFileSize: 64 << 20}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, body := range bodies {
			Parse(body, opts)
		}
	}
}

// BenchmarkScan_Corpus measures the line scanner alone over every corpus
// file, quiet as ParseFor runs it, with a handler that keeps nothing: the
// floor under a crawler's first contact. ns/op is one pass over the corpus.
func BenchmarkScan_Corpus(b *testing.B) {
	bodies, size := corpus.AllBodies(b)
	b.SetBytes(size)
	b.ReportAllocs()
	var h countHandler
	b.ResetTimer()
	for range b.N {
		for _, body := range bodies {
			s, _ := view(body, Options{MaxFileSize: 64 << 20})
			sc := scanner{h: &h, s: s, quiet: true}
			sc.scan(false)
		}
	}
}
