package automaton

import (
	"fmt"
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

// BenchmarkCompile_SortedHeads measures Compile on buckets the direct
// matcher sorts by head (maxChainedBucket), with its warm-up (direct) and
// without (dfa, which sorts nothing): heads sharing a long prefix, and a
// "caterpillar" (each head one word longer than the one before, so that
// each level of sortHeads splits off one head) of 1,600 heads and 7.7 MB.
func BenchmarkCompile_SortedHeads(b *testing.B) {
	shared := strings.Repeat("x", 1900)
	sets := map[string][]Pattern{}
	for i := range 256 {
		sets["shared-256"] = append(sets["shared-256"], Pattern{Bytes: "/a" + shared + fmt.Sprintf("%05d*z", i), Priority: uint64(i)})
	}
	for i := range 4096 {
		sets["shared-4096"] = append(sets["shared-4096"], Pattern{Bytes: "/a" + shared[:125] + fmt.Sprintf("%05d*z", i), Priority: uint64(i)})
	}
	for i := range 32768 {
		sets["shared-32768"] = append(sets["shared-32768"], Pattern{Bytes: "/a" + shared[:125] + fmt.Sprintf("%05d*z", i), Priority: uint64(i)})
	}
	for i := range 1600 {
		sets["caterpillar-1600"] = append(sets["caterpillar-1600"], Pattern{Bytes: "/a" + strings.Repeat("x", headKeyBytes*i) + "y", Priority: uint64(i)})
	}
	for _, name := range []string{"shared-256", "shared-4096", "shared-32768", "caterpillar-1600"} {
		for _, mode := range []struct {
			name string
			opts Options
		}{{"direct", Options{}}, {"dfa", Options{WarmUp: -1}}} {
			b.Run(name+"/"+mode.name, func(b *testing.B) {
				if s := Compile(sets[name], mode.opts); (s.d.dir.index != nil) != (mode.name == "direct") {
					b.Fatal("the warm-up is not as the benchmark says")
				}
				for i := 0; i < b.N; i++ {
					Compile(sets[name], mode.opts)
				}
			})
		}
	}
}
