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
// that one with that many has.
func TestDirect_OnlyWhenFewCandidates(t *testing.T) {
	for _, tc := range []struct {
		bucket, everywhere int
		want               bool
	}{
		{maxDirectCandidates, 0, true},
		{maxDirectCandidates + 1, 0, false},
		{maxDirectCandidates / 2, maxDirectCandidates / 2, true},
		{maxDirectCandidates / 2, maxDirectCandidates/2 + 1, false},
		{1, maxDirectCandidates + 1, false},
	} {
		var ps []Pattern
		for i := range tc.bucket {
			ps = append(ps, Pattern{Bytes: fmt.Sprintf("/a%d", i), Priority: uint64(i)})
		}
		for i := range tc.everywhere {
			ps = append(ps, Pattern{Bytes: fmt.Sprintf("/*b%d", i), Priority: uint64(i)})
		}
		ps = append(ps, Pattern{Bytes: "/c"}) // a bucket of its own
		set := Compile(ps, Options{})
		set.Match("/a1b3")
		if got := set.Stats().Direct > 0; got != tc.want {
			t.Errorf("%d patterns in a bucket, %d everywhere: warm-up %v, want %v", tc.bucket, tc.everywhere, got, tc.want)
		}
		checkAgainstBrute(t, ps, set, "/a1b3")
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
	// A first star too far for the index's 16 bits (farStar).
	long := "/" + strings.Repeat("a", 1<<16)
	ps := []Pattern{{Bytes: long + "*b", Priority: 2}, {Bytes: long + "c", Priority: 1}}
	set := Compile(ps, Options{})
	for _, tc := range []struct {
		tail string
		want int
	}{{"xxb", 0}, {"xx", NoMatch}, {"c", 1}, {"", NoMatch}} {
		if got := set.Match(long + tc.tail); got != tc.want {
			t.Errorf("Match(/a...%q) = %d, want %d", tc.tail, got, tc.want)
		}
	}
	if set.Stats().Direct != 4 {
		t.Errorf("%d inputs decided directly, want 4", set.Stats().Direct)
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
