package automaton

import (
	"fmt"
	"math/rand"
	"slices"
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

// TestDirect_FewCandidatesOrTheDFA checks that an automaton whose inputs
// all have more than maxDirectCandidates candidates has no warm-up, and
// that in one with a warm-up, an input with more ends it: the DFA decides
// that input and the ones after it. A chain of patterns each a prefix of
// the next ("/a", "/aa", ...) are all candidates of one input, siblings
// ("/a0", "/a1", ...) are not, and the patterns with a star after the
// lead and pieces of one byte ("/*b*1", ...) are candidates of every
// input.
func TestDirect_FewCandidatesOrTheDFA(t *testing.T) {
	for _, tc := range []struct {
		chain, siblings, everywhere int
		warmUp, ends                bool // a warm-up; the input down the longest chain ends it
	}{
		{maxDirectCandidates, 0, 0, true, false},
		{maxDirectCandidates + 1, 0, 0, true, true},
		{maxDirectCandidates / 2, 0, maxDirectCandidates / 2, true, false},
		{maxDirectCandidates / 2, 0, maxDirectCandidates/2 + 1, true, false}, // a filtered list: the input's best is found within the bound
		{1, 0, maxDirectCandidates + 1, false, true},
		{0, 200, 0, true, false},                       // a large bucket, three deep ("/a1", "/a19", "/a199")
		{maxDirectCandidates - 3, 200, 0, true, false}, // "/a" is a prefix of both
		{maxDirectCandidates + 1, 200, 0, true, true},  // and chains do not add up
		{0, 200, maxDirectCandidates - 3, true, false}, // three deep and the list
		{0, 200, maxDirectCandidates - 2, true, true},  // one more
		{0, maxChainedBucket, 0, true, false},          // the largest bucket sorted
		{0, maxChainedBucket + 1, 0, false, true},      // too large to sort
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
			// Pieces of one byte ("/*b*1*2"): no pair of bytes filters
			// them (see maxUnfiltered).
			ps = append(ps, Pattern{Bytes: "/*" + strings.Join(strings.Split(fmt.Sprint("b", i), ""), "*"), Priority: uint64(i)})
		}
		ps = append(ps, Pattern{Bytes: "/c"}) // a bucket of its own
		name := fmt.Sprintf("a chain of %d, %d siblings, %d everywhere", tc.chain, tc.siblings, tc.everywhere)
		set := Compile(ps, Options{})
		if got := set.d.dir.index != nil; got != tc.warmUp {
			t.Errorf("%s: warm-up %v, want %v", name, got, tc.warmUp)
			continue
		}
		down := "/a199" // the longest chain
		if tc.chain > 0 {
			down = "/" + strings.Repeat("a", tc.chain)
		}
		for _, in := range []string{"/c", down} {
			if got, want := set.Match(in), bruteBest(ps, in); got != want {
				t.Fatalf("%s: Match(%q) = %d, want %d", name, in, got, want)
			}
		}
		if st := set.Stats(); st.Fallback != 0 {
			t.Errorf("%s: %d inputs decided by the fallback, want none (the DFA decides when the warm-up ends)", name, st.Fallback)
		}
		if st := set.Stats(); tc.warmUp && (st.Direct != 1 || st.States == 0) != !tc.ends {
			t.Errorf("%s: %d inputs decided directly, %d states built: the input down the chain ended the warm-up %v, want %v", name, st.Direct, st.States, !tc.ends, tc.ends)
		}
		for _, in := range []string{"/a1b3", "/aaaa", "/a123b1", "/c", "/a49", "/a", down} {
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
	// A first star too far for the index's 16 bits: no warm-up (the DFA
	// decides).
	long := "/" + strings.Repeat("a", 1<<16)
	set := Compile([]Pattern{{Bytes: long + "*b", Priority: 2}, {Bytes: "/c"}}, Options{})
	if set.d.dir.index != nil {
		t.Error("a first star past 16 bits, and a warm-up")
	}
}

// TestDirect_HeadlessKeepsTheLead checks that patterns starting with a
// star do not spoil the lead of the others: with "*--*" beside sixty
// "/*keyNN=" (a real file's shape), the "/*" patterns go in the filtered
// list rather than in one bucket of sixty whose heads are all "/", where
// every input would give up, and the warm-up decides every input,
// including inputs without the lead, which only headless patterns match.
func TestDirect_HeadlessKeepsTheLead(t *testing.T) {
	ps := []Pattern{{Bytes: "*--*", Priority: 100}, {Bytes: "/plain", Priority: 90}, {Bytes: "/", Priority: 1}}
	for i := range 60 {
		ps = append(ps, Pattern{Bytes: fmt.Sprintf("/*key%02d=", i), Priority: uint64(10 + i%7)})
	}
	inputs := []string{"/x?key07=1", "/a--b", "--", "x--y", "/plain", "/plainer", "", "/", "/key59", "/y?key59=&key00=", "q"}
	set := Compile(ps, Options{})
	if set.d.dir.index == nil || !set.d.dir.headless || set.d.dir.lead != 1 {
		t.Fatalf("no warm-up, or not with the lead \"/\" and headless patterns: %+v", set.d.dir)
	}
	for _, in := range inputs {
		checkAgainstBrute(t, ps, set, in)
	}
	// checkAgainstBrute decides each input twice (Match, MatchPrefix).
	if st := set.Stats(); st.Direct != int64(2*len(inputs)) || st.States != 0 {
		t.Errorf("the warm-up decided %d of %d inputs, %d states built", st.Direct, 2*len(inputs), st.States)
	}
}

// TestDirect_BucketOfEveryByte checks the bit set that numbers the
// buckets: patterns with bytes after the lead in each of its four words
// (and one with a star there), and inputs with every byte after the lead,
// decided in the warm-up as the brute force decides them.
func TestDirect_BucketOfEveryByte(t *testing.T) {
	var every []byte // every byte but the star
	for c := range 256 {
		if c != Wildcard {
			every = append(every, byte(c))
		}
	}
	for _, after := range [][]byte{
		{0x00, 0x01, '-', '?', 0x40, 'a', 'z', 0x7f, 0x80, 0xa5, 0xbf, 0xc0, 0xfe, 0xff},
		every, // more than 128 before the last 64
	} {
		var ps []Pattern
		for _, c := range after {
			ps = append(ps, Pattern{Bytes: "/" + string([]byte{c}) + "x", Priority: uint64(c)})
		}
		ps = append(ps, Pattern{Bytes: "/*y", Priority: 300})
		set := Compile(ps, Options{WarmUp: 1024})
		if set.d.dir.index == nil || int(set.d.dir.nk) != len(after) {
			t.Fatalf("no warm-up, or not %d buckets: %+v", len(after), set.d.dir)
		}
		var inputs []string
		for c := range 256 {
			inputs = append(inputs, "/"+string([]byte{byte(c)})+"x", "/"+string([]byte{byte(c)})+"xy")
		}
		for _, in := range inputs {
			checkAgainstBrute(t, ps, set, in)
		}
		if st := set.Stats(); st.Direct != int64(2*len(inputs)) || st.States != 0 {
			t.Errorf("the warm-up decided %d of %d inputs, %d states built", st.Direct, 2*len(inputs), st.States)
		}
	}
}

// TestDirect_UpEntriesOnlyForLargeBuckets checks the index's size: up
// entries only for the entries from the first large bucket's to the
// last's, none in an automaton without one (most of them).
func TestDirect_UpEntriesOnlyForLargeBuckets(t *testing.T) {
	small := []Pattern{{Bytes: "/a", Priority: 3}, {Bytes: "/b*c", Priority: 2}, {Bytes: "/c", Priority: 1}}
	large := slices.Clone(small)
	for i := range maxDirectCandidates + 8 {
		large = append(large, Pattern{Bytes: fmt.Sprintf("/b%02d*x", i), Priority: 1})
	}
	for _, tc := range []struct {
		ps  []Pattern
		ups int
	}{{small, 0}, {large, maxDirectCandidates + 9}} {
		set := Compile(tc.ps, Options{})
		d := set.d
		n := d.count()
		// Three bytes follow the lead: 'a', 'b' and 'c'.
		if want := keyWords + 3 + 2 + n + tc.ups + 1 + n; len(d.dir.index) != want {
			t.Errorf("%d patterns: an index of %d entries, want %d (%d up entries)", n, len(d.dir.index), want, tc.ups)
		}
		for _, in := range []string{"/a", "/b07x", "/b07", "/bc", "/c", "/b39x"} {
			checkAgainstBrute(t, tc.ps, set, in)
		}
	}
}

// TestDirect_LongPieces checks pieces after a star longer than
// maxDirectPiece: the direct matcher looks for their first maxDirectPiece
// bytes, and where those occur first without the rest of the piece, ends
// the warm-up (the DFA decides), since the piece may occur further on.
func TestDirect_LongPieces(t *testing.T) {
	piece := strings.Repeat("b", maxDirectPiece)
	for _, tc := range []struct {
		ps   []Pattern
		in   string
		ends bool
	}{
		{[]Pattern{{Bytes: "/a*" + piece, Priority: 2}, {Bytes: "/c*x*" + piece}}, "/a" + piece + "b", false},
		{[]Pattern{{Bytes: "/a*" + piece + "c", Priority: 2}, {Bytes: "/c"}}, "/a" + piece + "c", false},
		{[]Pattern{{Bytes: "/a*" + piece + "c", Priority: 2}, {Bytes: "/c"}}, "/ax" + piece + "b" + "c", true},
		{[]Pattern{{Bytes: "/a*" + piece + "c", Priority: 2}, {Bytes: "/c"}}, "/ax" + piece + "d", true},
		{[]Pattern{{Bytes: "/a*" + piece + "c", Priority: 2}, {Bytes: "/c"}}, "/ax" + piece[1:] + "c", false}, // the first bytes do not occur
		{[]Pattern{{Bytes: "/a*" + piece + "c", Priority: 2}, {Bytes: "/c"}}, "/ax" + piece, false},           // no room for the rest after the first bytes
		{[]Pattern{{Bytes: "/a*x*" + piece + "b*y", Priority: 2}, {Bytes: "/c"}}, "/ax" + piece + "by", false},
		{[]Pattern{{Bytes: "/a*x*" + piece + "c*y", Priority: 2}, {Bytes: "/c"}}, "/ax" + piece + "b" + piece + "cy", true},
		{[]Pattern{{Bytes: "/a*" + piece + "c", Anchored: true, Priority: 2}, {Bytes: "/c"}}, "/ax" + piece + "b" + piece + "c", false}, // the last piece of an anchored pattern is compared, not searched
		{[]Pattern{{Bytes: "/a" + piece + piece + "*x", Priority: 2}, {Bytes: "/c"}}, "/a" + piece + piece + "x", false},                // a long head is compared, not searched
	} {
		set := Compile(tc.ps, Options{})
		if set.d.dir.index == nil {
			t.Fatalf("patterns %.40q...: no warm-up", tc.ps[0].Bytes)
		}
		for _, in := range []string{"/c", tc.in} {
			if got, want := set.Match(in), bruteBest(tc.ps, in); got != want {
				t.Errorf("Match(%.50q...) = %d, want %d", in, got, want)
			}
		}
		if st := set.Stats(); st.Fallback != 0 || (st.Direct != 2 || st.States != 0) != tc.ends {
			t.Errorf("patterns %.40q..., input %.50q: %d decided directly, %d states; the warm-up ended %v, want %v", tc.ps[0].Bytes, tc.in, st.Direct, st.States, st.States != 0, tc.ends)
		}
		for _, in := range []string{"/a" + piece + "b", tc.in, "/a", "/c" + piece} {
			checkAgainstBrute(t, tc.ps, set, in)
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
	// The warm-up ends at its count, or earlier at an input with too many
	// candidates: a chain of 40 heads, each a prefix of the next.
	var chain []Pattern
	for i := range 40 {
		chain = append(chain, Pattern{Bytes: "/" + strings.Repeat("a", i+1), Priority: uint64(i % 3)})
	}
	early := make([]string, 400)
	wantEarly := make([]int, len(early))
	for i := range early {
		early[i] = "/" + strings.Repeat("a", 1+r.Intn(20))
		if i%50 == 49 {
			early[i] = "/" + strings.Repeat("a", 45)
		}
		wantEarly[i] = bruteBest(chain, early[i])
	}
	for _, tc := range []struct {
		ps     []Pattern
		inputs []string
		want   []int
	}{{ps, inputs, want}, {chain, early, wantEarly}} {
		set := Compile(tc.ps, Options{WarmUp: 100})
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i, in := range tc.inputs {
					if got := set.Match(in); got != tc.want[i] {
						t.Errorf("Match(%q) = %d, want %d", in, got, tc.want[i])
						return
					}
				}
			}()
		}
		wg.Wait()
		if st := set.Stats(); st.Direct == 0 || st.Direct > 100 || st.States == 0 || st.Fallback != 0 {
			t.Errorf("%d inputs decided directly, %d states built, %d by the fallback: want some, some, none", st.Direct, st.States, st.Fallback)
		}
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
			at, nc := d.dir.at(), int32(d.dir.nk)
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
// more than maxDirectCandidates patterns tried: one that would gives up
// (directGaveUp), and the DFA decides it.
func TestDirect_TriesAtMostTheBound(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	var sets [][]Pattern
	var chain, stars, words []Pattern
	for i := range 2 * maxDirectCandidates {
		chain = append(chain, Pattern{Bytes: "/" + strings.Repeat("a", i+1), Priority: uint64(i)})
	}
	for i := range maxDirectCandidates - 2 {
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
	most, gaveUp := 0, 0
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
			if got == directGaveUp {
				gaveUp++
				continue
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
	if gaveUp == 0 {
		t.Error("no input had too many candidates: the sets do not pass the bound")
	}
	t.Logf("at most %d patterns tried on one input; %d gave up", most, gaveUp)
}

// TestDirect_FilteredList checks the list of patterns with a star after the
// lead, when it is longer than maxUnfiltered: an input tries only those
// whose pair of bytes it has (and those with none), gives up when more
// than maxDirectCandidates pass, and an automaton whose list is longer than
// maxFiltered, or has more than maxDirectCandidates patterns with no pair,
// has no warm-up.
func TestDirect_FilteredList(t *testing.T) {
	var ps []Pattern
	for i := range 100 {
		ps = append(ps, Pattern{Bytes: fmt.Sprintf("/*?k%d=", i), Priority: uint64(100 + i)})
	}
	ps = append(ps, Pattern{Bytes: "/a", Priority: 1}, Pattern{Bytes: "/b/*c", Priority: 2}, Pattern{Bytes: "/*.pdf", Anchored: true, Priority: 50})
	set := Compile(ps, Options{})
	if set.d.dir.index == nil || !set.d.dir.filtered {
		t.Fatal("no filtered warm-up")
	}
	var all strings.Builder
	all.WriteString("/x?")
	for i := range 100 {
		fmt.Fprintf(&all, "k%d=&", i)
	}
	for _, tc := range []struct {
		in       string
		atMost   int // patterns tried
		gaveUp   bool
		decision int
	}{
		{"/a?k57=1", 3, false, 57},
		{"/a?k5=1", 3, false, 5},
		{"/b/x/c.pdf", 4, false, 102},
		{"/a", 2, false, 100},
		{"/a?q=1", 2, false, 100},
		{all.String(), maxDirectCandidates, true, 0},
	} {
		got, tried := set.d.dir.match(&set.d.prog, tc.in)
		if (got == directGaveUp) != tc.gaveUp || tried > tc.atMost {
			t.Errorf("match(%.30q) = %d after %d tries, want give-up %v and at most %d tries", tc.in, got, tried, tc.gaveUp, tc.atMost)
		}
		if !tc.gaveUp && set.answer(got) != bruteBest(ps, tc.in) {
			t.Errorf("match(%q) = %d, want %d", tc.in, set.answer(got), bruteBest(ps, tc.in))
		}
	}
	if n := testing.AllocsPerRun(10, func() { set.d.dir.match(&set.d.prog, "/a?k57=1") }); n != 0 {
		t.Errorf("a filtered match allocates %v times", n)
	}
	for _, in := range []string{"/a?k57=1", "/b/x/c.pdf", all.String(), "/a?k99=&k9=", "/a"} {
		checkAgainstBrute(t, ps, set, in)
	}
	// Two inputs (Match and MatchPrefix each) decided directly, then the
	// third ends the warm-up.
	if st := set.Stats(); st.Direct != 4 || st.States == 0 {
		t.Errorf("%d decided directly, %d states built: want the third input to end the warm-up", st.Direct, st.States)
	}

	// Too long a list, or too many patterns with no pair: no warm-up.
	long := slices.Clone(ps)
	for i := 100; len(long) <= maxFiltered+3; i++ {
		long = append(long, Pattern{Bytes: fmt.Sprintf("/*?k%d=", i), Priority: uint64(100 + i)})
	}
	unpaired := slices.Clone(ps)
	for i := range maxDirectCandidates + 1 {
		unpaired = append(unpaired, Pattern{Bytes: "/*" + strings.Join(strings.Split(fmt.Sprint("k", i), ""), "*"), Priority: uint64(i)})
	}
	for name, ps := range map[string][]Pattern{"long": long, "unpaired": unpaired, "unpaired less one": unpaired[:len(unpaired)-1]} {
		set := Compile(ps, Options{})
		if got, want := set.d.dir.index != nil, name == "unpaired less one"; got != want {
			t.Errorf("%s: warm-up %v, want %v", name, got, want)
		}
		for _, in := range []string{"/a?k57=1", "/b/x/c.pdf", "/k/1/2"} {
			checkAgainstBrute(t, ps, set, in)
		}
	}
}

// TestDirect_SortKeys checks the radix sort of sortHeads's keys against
// slices.Sort: keys in rank order, with few distinct bytes (ties, bytes
// all keys share) and many.
func TestDirect_SortKeys(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	for iter := range 300 {
		n := 1 + r.Intn(600)
		keys := make([]uint64, n)
		alphabet := 1 + r.Intn(256)
		for i := range keys {
			var k uint64
			for range headKeyBytes {
				k = k<<8 | uint64(r.Intn(alphabet))
			}
			if iter%3 == 0 {
				k &= 0xff0000ff0000 // bytes every key shares
			}
			keys[i] = k<<16 | uint64(i)
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		sortKeys(keys, make([]uint64, n))
		if !slices.Equal(keys, want) {
			t.Fatalf("n=%d, alphabet %d: sortKeys differs from slices.Sort", n, alphabet)
		}
	}
}

// TestDirect_ManyPieces checks maxDirectSearches: an input whose candidates
// have more pieces than that in all ends the warm-up (each search reads
// the pattern's piece again, which the DFA does once), and one with fewer
// is decided directly.
func TestDirect_ManyPieces(t *testing.T) {
	var ps []Pattern
	for i := range maxDirectCandidates {
		ps = append(ps, Pattern{Bytes: "/a" + strings.Repeat("*a", 100) + fmt.Sprintf("*b%d", i), Priority: uint64(i)})
	}
	ps = append(ps, Pattern{Bytes: "/c*d", Priority: 100})
	set := Compile(ps, Options{})
	var in strings.Builder
	in.WriteString("/a")
	for i := range maxDirectCandidates {
		fmt.Fprintf(&in, "b%d", i)
	}
	in.WriteString(strings.Repeat("a", 200))
	for _, in := range []string{"/cxd", in.String()} {
		if got, want := set.Match(in), bruteBest(ps, in); got != want {
			t.Fatalf("Match(%.30q) = %d, want %d", in, got, want)
		}
	}
	if st := set.Stats(); st.Direct != 1 || st.States == 0 {
		t.Errorf("%d decided directly, %d states: want the second input to end the warm-up", st.Direct, st.States)
	}
}

// TestDirect_LateGiveUp checks an input that gives up after the warm-up
// has ended (it was decided directly while another input started the DFA,
// which then gave up on one): the policy's skip and the count of direct
// decisions stay as they are.
func TestDirect_LateGiveUp(t *testing.T) {
	set := Compile([]Pattern{{Bytes: "/a"}, {Bytes: "/b*c"}}, Options{WarmUp: 100})
	for range 101 {
		set.Match("/a")
	}
	d := set.d
	d.gaveUp() // the DFA gives up on an input: the fallback decides the next minSkip
	skip := d.skip.Load()
	d.endWarmUp() // the late input
	if st := set.Stats(); st.Direct != 100 || d.skip.Load() != skip {
		t.Errorf("after a late give-up: %d decided directly, skip %d; want 100, %d", st.Direct, d.skip.Load(), skip)
	}
}

// TestDirect_CommonPrefix checks commonPrefix against a byte loop, on
// strings that differ at every offset around its doubling steps.
func TestDirect_CommonPrefix(t *testing.T) {
	base := strings.Repeat("abcdefgh", 40)
	for n := 0; n <= len(base); n++ {
		for _, m := range []int{n, len(base)} {
			a := base[:m]
			for at := 0; at <= n; at++ {
				b := base[:at] + "\x00"
				if at+1 <= n {
					b += base[at+1 : n]
				}
				want := 0
				for want < len(a) && want < len(b) && a[want] == b[want] {
					want++
				}
				if got := commonPrefix(a, b); got != want {
					t.Fatalf("commonPrefix(%d bytes, %d bytes differing at %d) = %d, want %d", len(a), len(b), at, got, want)
				}
			}
		}
	}
}
