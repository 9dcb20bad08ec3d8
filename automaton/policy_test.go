package automaton

import (
	"math/rand"
	"sync"
	"testing"
)

// TestPolicy_ThrashingGivesUp decides short inputs made of the words of a
// words set, each reaching states no input reached before: the DFA gives
// up, the fallback decides nearly every input, and the DFA builds few
// states after its first give-up (only its probes do). The answers are
// the fallback-only set's (which the brute-force tests check).
func TestPolicy_ThrashingGivesUp(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	ps, path := wordPatterns(r, 4000, 64)
	set := Compile(ps, Options{WarmUp: -1})
	ref := Compile(ps, Options{CacheBytes: -1})
	for i := 0; i < 20; i++ {
		in := path()
		if got, want := set.Match(in), ref.Match(in); got != want {
			t.Fatalf("Match(%q) = %d, the fallback alone %d", in, got, want)
		}
	}
	st := set.Stats()
	if st.GiveUps == 0 {
		t.Fatalf("no give-up on the words shape: %+v", st)
	}
	for i := 0; i < 500; i++ {
		in := path()
		if got, want := set.Match(in), ref.Match(in); got != want {
			t.Fatalf("Match(%q) = %d, the fallback alone %d", in, got, want)
		}
	}
	after := set.Stats()
	t.Logf("after 20 inputs %+v; after 500 more %+v", st, after)
	if decided := after.Fallback - st.Fallback; decided < 450 {
		t.Errorf("the fallback decided %d of 500 inputs after the DFA gave up, want nearly all", decided)
	}
	// Probes build a few states each; the inputs themselves none.
	if built := after.States - st.States; after.Clears == st.Clears && built > 2000 {
		t.Errorf("%d states built over 500 inputs decided by the fallback", built)
	}
}

// TestPolicy_ProbesReturnToDFA gives a set the thrashing inputs, then one
// input again and again: its states are built once, the probes succeed, and
// the DFA decides alone again.
func TestPolicy_ProbesReturnToDFA(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	ps, path := wordPatterns(r, 4000, 64)
	set := Compile(ps, Options{WarmUp: -1})
	for i := 0; i < 300; i++ {
		set.Match(path())
	}
	if set.Stats().GiveUps == 0 || set.d.skip.Load() <= 0 {
		t.Fatalf("the DFA did not give up: %+v, skip %d", set.Stats(), set.d.skip.Load())
	}
	in := path()
	for i := 0; i < 20*maxSkip && set.d.skip.Load() > 0; i++ {
		set.Match(in)
	}
	if n := set.d.skip.Load(); n > 0 {
		t.Fatalf("after %d repeats of one input the fallback still decides (skip %d, %+v)", 20*maxSkip, n, set.Stats())
	}
	before := set.Stats().Fallback
	for i := 0; i < 100; i++ {
		set.Match(in)
	}
	if got := set.Stats().Fallback - before; got != 0 {
		t.Errorf("the fallback decided %d of 100 inputs after the DFA took over again", got)
	}
}

// TestPolicy_FallbackOnly checks a set that builds no states: the fallback
// decides every input and the cache holds the start state alone.
func TestPolicy_FallbackOnly(t *testing.T) {
	ps := []Pattern{{Bytes: "/a*b", Priority: 2}, {Bytes: "/", Priority: 1}}
	set := Compile(ps, Options{CacheBytes: -1})
	for _, in := range []string{"/", "/ab", "/xb", "/a/b"} {
		if got, want := set.Match(in), bruteBest(ps, in); got != want {
			t.Fatalf("Match(%q) = %d, want %d", in, got, want)
		}
	}
	if st := set.Stats(); st.Fallback != 4 || st.States > 1 || st.GiveUps != 0 {
		t.Errorf("stats %+v: want 4 inputs decided by the fallback, no state past the start", st)
	}
}

// TestCache_SharedReset has 8 goroutines decide random inputs on one set
// whose inputs build more states than its small cache holds: the cache is
// cleared again and again under concurrency (run it with -race), and the
// answers stay those of the brute force. What the shared reset saves in
// memory is measured on the heap by engine's
// TestThrashing_HeapUnderConcurrency; Bytes, which counts the current
// generation, stays within the budget plus the positions.
func TestCache_SharedReset(t *testing.T) {
	ps := growthPatterns()
	const budget = 64 << 10
	set := Compile(ps, Options{CacheBytes: budget, WarmUp: -1})
	goroutines, inputs := 8, 1500
	if testing.Short() {
		inputs = 300
	}
	var wg sync.WaitGroup
	errs := make(chan string, goroutines)
	maxBytes := make([]int, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(g)))
			for i := 0; i < inputs; i++ {
				in := "/" + randInput(r, "abcdefghijklmnopqrstx", 16)
				if got, want := set.Match(in), bruteBest(ps, in); got != want {
					errs <- in
					return
				}
				maxBytes[g] = max(maxBytes[g], set.Bytes())
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for in := range errs {
		t.Errorf("Match(%q) differs from the brute force", in)
	}
	st := set.Stats()
	if st.Clears < 2 {
		t.Fatalf("want the cache cleared under concurrency: %+v", st)
	}
	for _, b := range maxBytes {
		if limit := budget + 8<<10; b > limit {
			t.Errorf("the set held %d bytes, want at most %d (budget, positions)", b, limit)
		}
	}
}
