package automaton

import (
	"strings"
	"testing"
)

// BenchmarkSet_Match measures the scan over named pattern sets and inputs.
func BenchmarkSet_Match(b *testing.B) {
	literal := []Pattern{{Bytes: "/private/", Priority: 9}, {Bytes: "/search", Priority: 7}, {Bytes: "/", Priority: 1}}
	wild := append(append([]Pattern(nil), literal...), Pattern{Bytes: "/*.pdf", Anchored: true, Priority: 7}, Pattern{Bytes: "/*?sid=", Priority: 8})
	for _, tc := range []struct {
		name string
		ps   []Pattern
		in   string
	}{
		{"literal/dies-early", literal, "/search/results/page/2?q=robots+txt&lang=en"},
		{"wildcard/full-scan", wild, "/products/category/item-12345/reviews?page=2"},
		{"wildcard/64KiB", wild, "/" + strings.Repeat("abcdefgh", 8192)},
	} {
		set := Compile(tc.ps, Options{})
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				set.Match(tc.in)
			}
		})
	}
}
