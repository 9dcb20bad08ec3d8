package compile

import (
	"strings"
	"testing"
)

var benchURLs = []struct{ name, url string }{
	{"short", "https://example.com/index.html"},
	{"long-query", "https://www.example.com/catalog/products/category/shoes/running/item-12345.html?utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale&ref=homepage&sessionid=" + strings.Repeat("0123456789abcdef", 8)},
	{"escapes", "https://www.example.com/%7euser/docs/%e3%83%84/caf\xc3\xa9/a*b$?q=%41%42%2f"},
}

// BenchmarkURLPath measures URL to canonical path for each semantics on
// named inputs.
func BenchmarkURLPath(b *testing.B) {
	benchEachURL(b, func(url string, sem Semantics) { URLPath(url, sem) })
}

// benchEachURL runs f as a sub-benchmark per named URL and semantics.
func benchEachURL(b *testing.B, f func(url string, sem Semantics)) {
	for _, in := range benchURLs {
		for _, sem := range allSemantics {
			b.Run(in.name+"/"+sem.String(), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(in.url)))
				for i := 0; i < b.N; i++ {
					f(in.url, sem)
				}
			})
		}
	}
}

// BenchmarkNormalizePathInto measures the zero-allocation form with a
// 64-byte buffer.
func BenchmarkNormalizePathInto(b *testing.B) {
	var dst [64]byte
	for _, in := range benchURLs {
		b.Run(in.name, func(b *testing.B) {
			path := ExtractPath(in.url, RFC9309)
			b.ReportAllocs()
			b.SetBytes(int64(len(path)))
			for i := 0; i < b.N; i++ {
				for from := 0; from < len(path); {
					_, from = NormalizePathInto(dst[:], path, from, RFC9309)
				}
			}
		})
	}
}

// BenchmarkNormalizePattern measures rule value normalisation for RFC9309.
func BenchmarkNormalizePattern(b *testing.B) {
	for _, in := range []struct{ name, p string }{
		{"canonical", "/catalog/*/item-*.html$"},
		{"escapes", "/%7euser/caf\xc3\xa9/%2f*"},
	} {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.p)))
			for i := 0; i < b.N; i++ {
				NormalizePattern(in.p, RFC9309)
			}
		})
	}
}

// BenchmarkPathSpan measures finding a URL's path (what every decision
// starts with) for each semantics on named inputs.
func BenchmarkPathSpan(b *testing.B) {
	benchEachURL(b, func(url string, sem Semantics) { pathSpanUncut(url, sem) })
}
