package automaton

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/internal/race"
)

// fbBoth returns the fallback's two answers on in (pattern number + 1, 0
// for none): by its scan and by its search (ok false when in has more
// piece occurrences than the search records).
func fbBoth(f *fallback, in string) (scan, search uint32, ok bool) {
	sc := fbPool.Get().(*fbScratch)
	defer fbPool.Put(sc)
	sc.sparse = grow(&sc.sparse, len(f.pieceLen))
	ans := func(r int32) uint32 {
		if r == noRank {
			return 0
		}
		return uint32(r) + 1
	}
	s := fbScan(f, sc, in)
	r, ok := fbSearch(f, sc, in)
	return ans(s), ans(r), ok
}

// TestFallback_ScanAndSearchAgainstBruteForce compares both ways the
// fallback matches, separately, with the brute force on random pattern sets
// and inputs, short and long, over small alphabets (so that pieces overlap,
// repeat and nest).
func TestFallback_ScanAndSearchAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewSource(29))
	iters := 2000
	if testing.Short() {
		iters = 300
	}
	for iter := 0; iter < iters; iter++ {
		ps := make([]Pattern, 1+r.Intn(12))
		alphabet := []string{"ab/", "a/", "abc/"}[iter%3]
		for i := range ps {
			ps[i] = randPattern(r, alphabet, 3+r.Intn(8))
		}
		set := Compile(ps, Options{CacheBytes: -1})
		if set.d == nil {
			continue
		}
		f := set.d.fallback()
		for k := 0; k < 20; k++ {
			in := randInput(r, alphabet+"x", 14)
			if k%10 == 9 {
				in = randInput(r, alphabet, 300) // long: many pieces end at each byte
			}
			want := bruteBest(ps, in)
			scan, search, ok := fbBoth(f, in)
			if got := set.answer(scan); got != want {
				t.Fatalf("scan(%q) = %d, want %d\npatterns: %#v", in, got, want, ps)
			}
			if got := set.answer(search); ok && got != want {
				t.Fatalf("search(%q) = %d, want %d\npatterns: %#v", in, got, want, ps)
			}
		}
	}
}

// wordPatterns returns n patterns "/*w*w*w*w", a distinct word w of three
// letters in each (the shape that made every URL byte cost O(n) in the
// DFA), and a path of length size made of their words.
func wordPatterns(r *rand.Rand, n, size int) ([]Pattern, func() string) {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("%c%c%c", 'a'+i%26, 'a'+i/26%26, '0'+i/676%10)
	}
	ps := make([]Pattern, n)
	for i, w := range words {
		p := "/*" + strings.Repeat(w+"*", 3) + w
		ps[i] = Pattern{Bytes: p, Priority: uint64(len(p))<<32 | uint64(n-i)}
	}
	path := func() string {
		var b strings.Builder
		b.WriteByte('/')
		for b.Len() < size {
			b.WriteString(words[r.Intn(len(words))])
		}
		return b.String()[:size]
	}
	return ps, path
}

// TestFallback_WorkPerByteIndependentOfPatternsAlive checks the fallback's
// bound: on the words shape, every pattern is alive at every byte, yet the
// work per input byte of a 16,000-pattern set is within a small factor of
// a 1,000-pattern set's (the DFA's work per byte grew with the count).
func TestFallback_WorkPerByteIndependentOfPatternsAlive(t *testing.T) {
	perByte := func(n int, scan bool) float64 {
		r := rand.New(rand.NewSource(int64(n)))
		ps, path := wordPatterns(r, n, 8<<10)
		f := Compile(ps, Options{CacheBytes: -1}).d.fallback()
		sc := fbPool.Get().(*fbScratch)
		defer fbPool.Put(sc)
		sc.sparse = grow(&sc.sparse, len(f.pieceLen))
		work, bytes := 0, 0
		for k := 0; k < 4; k++ {
			in := path()
			sc.work = 0
			if scan {
				fbScan(f, sc, in)
			} else if _, ok := fbSearch(f, sc, in[:512]); !ok {
				t.Fatalf("%d patterns: a 512-byte input has more than %d piece occurrences", n, maxOccurrences)
			} else {
				in = in[:512]
			}
			work += sc.work
			bytes += len(in)
		}
		return float64(work) / float64(bytes)
	}
	for _, scan := range []bool{true, false} {
		small, large := perByte(1000, scan), perByte(16000, scan)
		t.Logf("scan %v: work per byte %.2f with 1,000 patterns, %.2f with 16,000", scan, small, large)
		if large > 2*small+2 {
			t.Errorf("scan %v: work per byte grew from %.2f to %.2f with 16 times the patterns alive", scan, small, large)
		}
	}
}

// TestFallback_NoAllocs checks that the fallback allocates nothing once its
// scratch is warm, searching (short inputs) and scanning (long ones).
func TestFallback_NoAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("-race: sync.Pool drops scratches at random to find races, so a warm scratch is not guaranteed")
	}
	r := rand.New(rand.NewSource(3))
	ps, path := wordPatterns(r, 2000, 64<<10)
	set := Compile(append(ps, Pattern{Bytes: "/*a*b$", Anchored: true, Priority: 1}), Options{CacheBytes: -1})
	long := path()
	short := long[:64]
	set.Match(short)
	set.Match(long)
	for _, in := range []string{short, long} {
		if allocs := testing.AllocsPerRun(20, func() { set.Match(in) }); allocs != 0 {
			t.Errorf("Match of %d bytes by the fallback: %v allocations", len(in), allocs)
		}
	}
}

// TestFallback_MemoryPerPatternByte builds the fallback of half a megabyte
// of patterns in the shapes that make each of its parts largest: distinct
// long heads (the heads' trie), distinct long pieces (the pieces'
// automaton), one-byte pieces by the hundred thousand (the tree), and
// checks what it holds against the bound LIMITS.md gives: 32 bytes per
// pattern byte. Every part is linear in the patterns' bytes: a trie node
// per byte at most, a tree node per star.
func TestFallback_MemoryPerPatternByte(t *testing.T) {
	r := rand.New(rand.NewSource(34))
	letter := func() byte { return byte('0' + r.Intn(70)) }
	for _, shape := range []string{"long-heads", "long-pieces", "short-pieces"} {
		var ps []Pattern
		for total := 0; total < 500000; {
			b := []byte{'/'}
			switch shape {
			case "long-heads":
				for k := 0; k < 24; k++ {
					b = append(b, letter())
				}
				b = append(b, '*', letter())
			case "long-pieces":
				for k := 0; k < 3; k++ {
					b = append(b, '*')
					for j := 0; j < 8; j++ {
						b = append(b, letter())
					}
				}
			case "short-pieces":
				for k := 0; k < 10; k++ {
					b = append(b, '*', letter())
				}
			}
			ps = append(ps, Pattern{Bytes: string(b), Anchored: r.Intn(2) == 0, Priority: uint64(len(ps))})
			total += len(b)
		}
		set := Compile(ps, Options{CacheBytes: -1})
		f := set.d.fallback()
		perByte := float64(f.bytes) / float64(len(set.d.all))
		t.Logf("%s: %d patterns, %d bytes: the fallback holds %d bytes (%.1f a byte; %d tree nodes, %d pieces, %d head nodes)",
			shape, len(ps), len(set.d.all), f.bytes, perByte, len(f.nodes)-1, len(f.pieceLen), f.heads.size())
		if perByte > 32 {
			t.Errorf("%s: the fallback holds %.1f bytes per pattern byte, want at most 32", shape, perByte)
		}
		if set.Bytes() < f.bytes {
			t.Errorf("%s: Bytes %d does not count the fallback's %d", shape, set.Bytes(), f.bytes)
		}
	}
}
