package automaton

import (
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"
)

// TestDirect_WarmUpThenDFA checks the hand-over: the first WarmUp inputs
// are decided directly and build no state; the next one builds the DFA's
// states, and the answers stay right throughout.
func TestDirect_WarmUpThenDFA(t *testing.T) {
	ps := []Pattern{{Bytes: "/a", Priority: 2}, {Bytes: "/a*c", Priority: 4}, {Bytes: "/*.gif", Anchored: true, Priority: 6}}
	set := Compile(ps, Options{WarmUp: 5})
	inputs := []string{"/a", "/abc", "/x.gif", "/x.gifs", "/b", "/ab", "/a.gif"}
	for i, in := range inputs {
		if got, want := set.Match(in), bruteBest(ps, in); got != want {
			t.Fatalf("Match(%q) = %d, want %d", in, got, want)
		}
		st := set.Stats()
		switch {
		case i < 5 && (st.Direct != int64(i+1) || st.States != 0):
			t.Fatalf("input %d: %d decided directly, %d states; want %d, none", i, st.Direct, st.States, i+1)
		case i >= 5 && (st.Direct != 5 || st.States == 0):
			t.Fatalf("input %d: %d decided directly, %d states; want 5, some", i, st.Direct, st.States)
		}
	}
}

// TestDirect_OnlyWhenFewCandidates checks that an automaton whose inputs
// could have more than maxDirectCandidates candidates has no warm-up, and
// that one with that many has: a chain of patterns each a prefix of the
// next ("/a", "/aa", ...) are all candidates of one input, siblings
// ("/a0", "/a1", ...) are not, and the patterns with a star after the
// lead ("/*b0", ...) are candidates of every input.
func TestDirect_OnlyWhenFewCandidates(t *testing.T) {
	for _, tc := range []struct {
		chain, siblings, everywhere int
		want                        bool
	}{
		{maxDirectCandidates, 0, 0, true},
		{maxDirectCandidates + 1, 0, 0, false},
		{maxDirectCandidates / 2, 0, maxDirectCandidates / 2, true},
		{maxDirectCandidates / 2, 0, maxDirectCandidates/2 + 1, false},
		{1, 0, maxDirectCandidates + 1, false},
		{0, 200, 0, true},                        // a large bucket, three deep ("/a1", "/a19", "/a199")
		{maxDirectCandidates - 3, 200, 0, true},  // "/a" is a prefix of both
		{maxDirectCandidates + 1, 200, 0, false}, // and chains do not add up
		{0, 200, maxDirectCandidates - 3, true},  // three deep and the list
		{0, 200, maxDirectCandidates - 2, false}, // one more
	} {
		var ps []Pattern
		for i := range tc.chain {
			b := "/" + strings.Repeat("a", i+1)
			ps = append(ps, Pattern{Bytes: b, Priority: uint64(i)})
		}
		for i := range tc.siblings {
			ps = append(ps, Pattern{Bytes: fmt.Sprintf("/a%d", i), Priority: uint64(i)})
		}
		for i := range tc.everywhere {
			ps = append(ps, Pattern{Bytes: fmt.Sprintf("/*b%d", i), Priority: uint64(i)})
		}
		ps = append(ps, Pattern{Bytes: "/c"}) // a bucket of its own
		set := Compile(ps, Options{})
		set.Match("/a1b3")
		if got := set.Stats().Direct > 0; got != tc.want {
			t.Errorf("a chain of %d, %d siblings, %d everywhere: warm-up %v, want %v", tc.chain, tc.siblings, tc.everywhere, got, tc.want)
		}
		for _, in := range []string{"/a1b3", "/aaaa", "/a123b1", "/c", "/a49", "/a"} {
			checkAgainstBrute(t, ps, set, in)
		}
	}
}

// TestDirect_Lead checks the lead's edge cases against the brute-force
// matcher: patterns that are all lead, one that starts with a star, an
// empty pattern (anchored: only the empty input), inputs shorter than the
// lead.
func TestDirect_Lead(t *testing.T) {
	sets := [][]Pattern{
		{{Bytes: "/ab", Priority: 1}, {Bytes: "/abc", Priority: 2}, {Bytes: "/ab", Anchored: true, Priority: 3}},
		{{Bytes: "/ab", Priority: 1}, {Bytes: "*b", Priority: 2}},
		{{Bytes: "", Anchored: true, Priority: 1}, {Bytes: "/a", Priority: 2}},
		{{Bytes: "", Priority: 1}, {Bytes: "/a$", Anchored: true, Priority: 2}},
		{{Bytes: "/a*", Anchored: true, Priority: 1}, {Bytes: "/a**b", Priority: 2}, {Bytes: "/a*b*", Anchored: true, Priority: 3}},
	}
	for _, ps := range sets {
		for _, in := range []string{"", "/", "/a", "/ab", "/abc", "/abb", "/b", "x", "/a$", "/axb"} {
			checkAgainstBrute(t, ps, Compile(ps, Options{}), in)
		}
	}
	// A first star too far for the index's 16 bits, and a piece after a
	// star longer than maxDirectPiece: no warm-up (the DFA decides).
	long := "/" + strings.Repeat("a", 1<<16)
	piece := strings.Repeat("b", maxDirectPiece)
	for _, tc := range []struct {
		ps   []Pattern
		want bool
	}{
		{[]Pattern{{Bytes: long + "*b", Priority: 2}, {Bytes: "/c"}}, false},
		{[]Pattern{{Bytes: "/a*" + piece, Priority: 2}, {Bytes: "/c*x*" + piece}}, true},
		{[]Pattern{{Bytes: "/a*" + piece + "b", Priority: 2}, {Bytes: "/c"}}, false},
		{[]Pattern{{Bytes: "/a*x*" + piece + "b*y", Priority: 2}, {Bytes: "/c"}}, false},
		{[]Pattern{{Bytes: "/a" + piece + piece + "*x", Priority: 2}, {Bytes: "/c"}}, true}, // a long head is compared, not searched
	} {
		set := Compile(tc.ps, Options{})
		in := "/a" + piece + "b"
		if got, want := set.Match(in), bruteBest(tc.ps, in); got != want {
			t.Errorf("Match(%.20q...) = %d, want %d", in, got, want)
		}
		if got := set.Stats().Direct > 0; got != tc.want {
			t.Errorf("patterns %.40q...: warm-up %v, want %v", tc.ps[0].Bytes, got, tc.want)
		}
	}
}

// TestDirect_ConcurrentHandOver decides inputs from several goroutines
// while the warm-up ends and the DFA starts (go test -race checks the
// hand-over's memory accesses).
func TestDirect_ConcurrentHandOver(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	ps := make([]Pattern, 12)
	for i := range ps {
		ps[i] = randPattern(r, "ab/", 6)
	}
	inputs := make([]string, 400)
	want := make([]int, len(inputs))
	for i := range inputs {
		inputs[i] = randInput(r, "ab/c", 12)
		want[i] = bruteBest(ps, inputs[i])
	}
	set := Compile(ps, Options{WarmUp: 50})
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, in := range inputs {
				if got := set.Match(in); got != want[i] {
					t.Errorf("Match(%q) = %d, want %d", in, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	if st := set.Stats(); st.Direct == 0 || st.States == 0 {
		t.Errorf("%d inputs decided directly, %d states built: want both", st.Direct, st.States)
	}
}

// TestDirect_LargeBucketsAgainstBruteForce compares the direct matcher of
// sets large enough for their buckets to be chained (sorted by head, each
// entry pointing up) with the brute-force matcher.
func TestDirect_LargeBucketsAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	iters := 200
	if testing.Short() {
		iters = 40
	}
	sorted := 0 // sets with a chained bucket
	for iter := 0; iter < iters; iter++ {
		ps := make([]Pattern, 40+r.Intn(80))
		for i := range ps {
			p := randPattern(r, "ab/", 7)
			if r.Intn(8) != 0 { // most start with the lead
				p.Bytes = "/" + p.Bytes
			}
			ps[i] = p
		}
		set := Compile(ps, Options{})
		for k := 0; k < 40; k++ {
			in := "/" + randInput(r, "ab/c", 10)
			if k%8 == 0 {
				in = in[1:]
			}
			if got, want := set.Match(in), bruteBest(ps, in); got != want {
				t.Fatalf("Match(%q) = %d, want %d\npatterns: %#v", in, got, want, ps)
			}
		}
		if d := set.d; d != nil && d.dir.index != nil {
			nc := int32(d.nclass)
			at := d.dir.index[:nc+2]
			for c := range nc {
				if chained(int32(at[c+1]-at[c]), int32(at[nc+1]-at[nc])) {
					sorted++
					break
				}
			}
		}
	}
	if sorted < iters/4 {
		t.Errorf("%d of %d sets had a chained bucket: the test does not exercise them", sorted, iters)
	}
	t.Logf("%d of %d sets had a chained bucket", sorted, iters)
}

// TestDirect_TriesAtMostTheBound checks the warm-up's cost bound: on sets
// made to have many candidates (long chains of heads, many patterns with a
// star after the lead, large buckets) and on random inputs, no input has
// more than maxDirectCandidates patterns tried.
func TestDirect_TriesAtMostTheBound(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	var sets [][]Pattern
	var chain, stars, words []Pattern
	for i := range maxDirectCandidates - 2 {
		chain = append(chain, Pattern{Bytes: "/" + strings.Repeat("a", i+1), Priority: uint64(i)})
		stars = append(stars, Pattern{Bytes: "/*" + strings.Repeat("a*", i) + "b", Priority: uint64(i)})
	}
	for i := range maxChainedBucket {
		words = append(words, Pattern{Bytes: fmt.Sprintf("/a%x*b", i), Priority: uint64(r.Intn(100))})
	}
	sets = append(sets, chain, stars, words, append(append([]Pattern(nil), chain[:10]...), stars[:20]...))
	for range 20 {
		ps := make([]Pattern, 60+r.Intn(150))
		for i := range ps {
			ps[i] = randPattern(r, "ab/", 7)
			ps[i].Bytes = "/" + ps[i].Bytes
		}
		sets = append(sets, ps)
	}
	most := 0
	for _, ps := range sets {
		set := Compile(ps, Options{})
		if set.d == nil || set.d.dir.index == nil {
			continue
		}
		for range 200 {
			in := "/" + randInput(r, "ab/0123456789", 40)
			got, tried := set.d.dir.match(&set.d.prog, in)
			if tried > maxDirectCandidates {
				t.Fatalf("%d patterns tried on %q, more than %d\npatterns: %v", tried, in, maxDirectCandidates, ps)
			}
			if want := bruteBest(ps, in); set.answer(got) != want {
				t.Fatalf("match(%q) = %d, want %d", in, set.answer(got), want)
			}
			most = max(most, tried)
		}
	}
	if most < maxDirectCandidates/2 {
		t.Errorf("at most %d patterns tried: the sets do not come near the bound", most)
	}
	t.Logf("at most %d patterns tried on one input", most)
}
