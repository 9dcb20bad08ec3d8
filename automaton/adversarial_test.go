package automaton_test

import (
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/automaton"
)

// The bounds wildcard-heavy pattern sets are held to. Compile time is
// reported, never asserted; the watchdog only turns a hang into a failure.
const (
	// advWatchdog is how long one Compile may run before the test gives up.
	advWatchdog = 60 * time.Second
	// advCacheSlack is what a set may hold past its cache budget: the
	// positions of its patterns (not cached) and one state past the
	// budget, whose positions are at most the patterns' bytes.
	advCacheSlack = 64 << 10
	// advBruteInputs is the number of random short inputs each set is
	// checked on against the brute-force matcher.
	advBruteInputs = 300
)

// advMatch reports whether p matches in: '*' matches any run of bytes, the
// pattern must match a prefix of in, or all of it when anchored. A plain
// dynamic programme over (pattern position, input position), written apart
// from the package on purpose; it only visits the positions that can be
// alive (at most one more than the furthest alive, plus a run of '*').
func advMatch(p automaton.Pattern, in string) bool {
	pat := p.Bytes
	n := len(pat)
	// ok[j]: pat[:j] matches in[:i] for the current i; false above hi.
	ok := make([]bool, n+1)
	next := make([]bool, n+1)
	ok[0] = true
	hi := 0
	for hi < n && pat[hi] == automaton.Wildcard {
		hi++
		ok[hi] = true
	}
	staleHi := 0 // next is false above staleHi
	if ok[n] && !p.Anchored {
		return true
	}
	for i := 0; i < len(in); i++ {
		limit := min(n, hi+1)
		newHi := -1
		next[0] = false
		for j := 1; j <= limit; j++ {
			if pat[j-1] == automaton.Wildcard {
				next[j] = next[j-1] || ok[j]
			} else {
				next[j] = ok[j-1] && pat[j-1] == in[i]
			}
			if next[j] {
				newHi = j
			}
		}
		for j := limit + 1; j <= staleHi; j++ {
			next[j] = false
		}
		for j := limit + 1; j <= n && pat[j-1] == automaton.Wildcard && next[j-1]; j++ {
			next[j] = true
			newHi = j
		}
		if newHi < 0 {
			return false // nothing alive: no prefix of the rest can match
		}
		staleHi = max(hi, limit)
		ok, next = next, ok
		hi = newHi
		if ok[n] && !p.Anchored {
			return true
		}
	}
	return ok[n]
}

// advBest is the oracle for Set.Match: the highest priority matching
// pattern, the first given among equals.
func advBest(ps []automaton.Pattern, in string) int {
	best := automaton.NoMatch
	for i, p := range ps {
		if advMatch(p, in) && (best == automaton.NoMatch || p.Priority > ps[best].Priority) {
			best = i
		}
	}
	return best
}

// advStars returns a pattern of at least stars '*' between one- or
// two-byte literals from alphabet: /*a*a*b*a...
func advStars(r *rand.Rand, stars int, alphabet string) string {
	var b strings.Builder
	b.WriteByte('/')
	for s := 0; s < stars; s++ {
		b.WriteByte('*')
		for k := 0; k <= r.Intn(2); k++ {
			b.WriteByte(alphabet[r.Intn(len(alphabet))])
		}
	}
	return b.String()
}

// advSet is one adversarial pattern set.
type advSet struct {
	name     string
	patterns []automaton.Pattern
	alphabet string // the bytes random inputs are made of
}

// advSets returns the pattern sets, cheapest first, so that a watchdog
// failure (which stops the test) comes as late as it can.
func advSets() []advSet {
	r := rand.New(rand.NewSource(9309))
	prio := func(p string, i int) uint64 { return uint64(len(p))<<33 | uint64(i%2)<<32 | uint64(^uint32(i)) }
	stars := func(name string, n, nstars int, alphabet string, anchorEvery int) advSet {
		s := advSet{name: name, alphabet: "/" + alphabet + "x"}
		for i := 0; i < n; i++ {
			p := advStars(r, nstars+r.Intn(20), alphabet)
			s.patterns = append(s.patterns, automaton.Pattern{Bytes: p, Anchored: anchorEvery > 0 && i%anchorEvery == 0, Priority: prio(p, i)})
		}
		return s
	}
	var sets []advSet

	// One pattern of 8,000 '*': linear in its length, whatever the budget.
	one := advStars(r, 8000, "abc")
	sets = append(sets, advSet{name: "single-8000-stars", alphabet: "/abcx",
		patterns: []automaton.Pattern{{Bytes: one, Priority: 1}}})

	sets = append(sets,
		stars("stars50x2", 2, 50, "ab", 0),
		stars("stars50x4-anchored", 4, 50, "ab", 2),
		stars("stars50x16", 16, 50, "ab", 3),
	)

	// The same pattern many times: equal priorities, the first given wins.
	same := advStars(r, 50, "a")
	s := advSet{name: "same-stars50x500", alphabet: "/ax"}
	for i := 0; i < 500; i++ {
		s.patterns = append(s.patterns, automaton.Pattern{Bytes: same, Priority: 7})
	}
	sets = append(sets, s)

	// Literals over all 256 bytes, with '*' between: 256 byte classes.
	s = advSet{name: "all-bytes-stars", alphabet: "/\x00\x7f\x80\xff*a"}
	for i := 0; i < 64; i++ {
		var b strings.Builder
		for k := 0; k < 8; k++ {
			b.WriteByte(byte(r.Intn(256)))
			b.WriteByte('*')
		}
		for c := 0; c < 4; c++ {
			b.WriteByte(byte(i*4 + c))
		}
		s.patterns = append(s.patterns, automaton.Pattern{Bytes: b.String(), Anchored: i%5 == 0, Priority: prio(b.String(), i)})
	}
	sets = append(sets, s)

	// A thousand patterns that all start with '*': every one is alive at
	// every byte (the shape of the real 986-rule file that took 47 s).
	s = advSet{name: "star-prefix-dictionary-1000", alphabet: "/abcdeh.tmlx"}
	for i := 0; i < 1000; i++ {
		var w strings.Builder
		for k := 0; k < 4+r.Intn(8); k++ {
			w.WriteByte("abcdeghilmnorstu-"[r.Intn(17)])
		}
		p := "/*/*" + w.String() + ".html"
		if i%10 == 0 {
			p = "/*/*" + w.String() + "*.html"
		}
		s.patterns = append(s.patterns, automaton.Pattern{Bytes: p, Priority: prio(p, i)})
	}
	sets = append(sets, s)

	sets = append(sets,
		stars("stars50x64", 64, 50, "ab", 4),
		stars("stars50x200", 200, 50, "aab", 3),
		stars("stars50x1000", 1000, 50, "ab", 5),
	)
	return sets
}

// advAbandoned is set when a compile passed the watchdog and was left
// running.
var advAbandoned bool

// advCompile compiles ps in a goroutine; it fails t and returns false when
// that takes longer than advWatchdog.
func advCompile(t *testing.T, name string, ps []automaton.Pattern, opts automaton.Options) (*automaton.Set, time.Duration, bool) {
	t.Helper()
	type result struct {
		set *automaton.Set
		d   time.Duration
	}
	done := make(chan result, 1)
	go func() {
		start := time.Now()
		set := automaton.Compile(ps, opts)
		done <- result{set, time.Since(start)}
	}()
	select {
	case r := <-done:
		return r.set, r.d, true
	case <-time.After(advWatchdog):
		advAbandoned = true
		t.Errorf("%s: Compile of %d patterns (cache %d bytes) did not finish within %v: construction is not bounded",
			name, len(ps), opts.CacheBytes, advWatchdog)
		return nil, 0, false
	}
}

// TestAdversarial_WildcardSets compiles sets of patterns with 50 and more
// wildcards (and other worst cases), matches inputs against them, and
// checks that the answers equal the brute-force matcher's, also with small
// caches that are cleared again and again; that an input builds at most one
// state per byte; and that the memory held stays within the cache budget
// (plus the patterns' positions). It logs patterns, states, memory, clears
// and times per set.
func TestAdversarial_WildcardSets(t *testing.T) {
	for _, s := range advSets() {
		t.Run(s.name, func(t *testing.T) {
			if testing.Short() && len(s.patterns) > 200 {
				t.Skip("-short (the race pass in CI): the smaller sets show the same; go test without -short runs all")
			}
			set, d, ok := advCompile(t, s.name, s.patterns, automaton.Options{})
			if !ok {
				return
			}
			patBytes := 0
			for _, p := range s.patterns {
				patBytes += len(p.Bytes)
			}
			r := rand.New(rand.NewSource(int64(len(s.patterns))))
			inputs := []string{"", "/", "/" + strings.Repeat("a", 100), "/" + strings.Repeat("ab", 50), "/x/abc.html"}
			for i := 0; i < advBruteInputs; i++ {
				var b strings.Builder
				if r.Intn(4) > 0 {
					b.WriteByte('/')
				}
				for k := r.Intn(120); k > 0; k-- {
					b.WriteByte(s.alphabet[r.Intn(len(s.alphabet))])
				}
				inputs = append(inputs, b.String())
			}
			// A few inputs made from the patterns themselves, so that some match.
			for i := 0; i < 20; i++ {
				p := s.patterns[r.Intn(len(s.patterns))].Bytes
				if len(p) > 2000 && i >= 2 {
					break // the oracle is quadratic in such inputs: two are enough
				}
				inputs = append(inputs, strings.ReplaceAll(p, "*", s.alphabet[r.Intn(len(s.alphabet)):][:1]))
			}
			sets := []*automaton.Set{set}
			if len(s.patterns) <= 64 {
				for _, budget := range []int{1, 4 << 10, 64 << 10} {
					small, _, ok := advCompile(t, s.name, s.patterns, automaton.Options{CacheBytes: budget})
					if !ok {
						return
					}
					sets = append(sets, small)
				}
			}
			bad, inBytes := 0, 0
			wants := make([]int, len(inputs))
			for i, in := range inputs {
				wants[i] = advBest(s.patterns, in)
				inBytes += len(in) + 1
			}
			start := time.Now()
			for i, in := range inputs {
				if got := set.Match(in); got != wants[i] {
					if bad++; bad <= 5 {
						t.Errorf("Match(%q) = %d, brute force %d", in, got, wants[i])
					}
				}
			}
			st := set.Stats()
			t.Logf("%-28s patterns %5d  states %7d  cache %7.1f KiB  clears %4d  compile %7.2f ms  %d inputs %7.2f ms",
				s.name, st.Patterns, st.States, float64(st.Bytes)/1024, st.Clears, float64(d.Microseconds())/1000, len(inputs), float64(time.Since(start).Microseconds())/1000)
			if st.Clears == 0 && st.States > inBytes {
				t.Errorf("%d states built for %d inputs of %d bytes in all: more than one per byte", st.States, len(inputs), inBytes)
			}
			if limit := automaton.DefaultCacheBytes + advCacheSlack + 2*patBytes; st.Bytes > limit {
				t.Errorf("the set holds %d bytes, want at most %d (cache budget, positions, one state)", st.Bytes, limit)
			}
			for k, set := range sets[1:] {
				for i, in := range inputs {
					if got, want := set.Match(in), wants[i]; got != want {
						if bad++; bad <= 5 {
							t.Errorf("small cache %d: Match(%q) = %d, brute force %d", k, in, got, want)
						}
					}
				}
			}
		})
		if advAbandoned {
			// A compile that passed the watchdog is still running: the
			// sets after it would compete with it for the CPU.
			t.Errorf("the sets after %s were not run", s.name)
			break
		}
	}
}

// TestAdversarial_OracleSelfCheck compares advMatch, whose pruning is
// clever enough to need a check, with the full dynamic programme on random
// patterns and inputs over a small alphabet.
func TestAdversarial_OracleSelfCheck(t *testing.T) {
	full := func(p automaton.Pattern, in string) bool {
		pat := p.Bytes
		// m[i][j]: pat[:j] matches in[:i].
		m := make([][]bool, len(in)+1)
		for i := range m {
			m[i] = make([]bool, len(pat)+1)
		}
		m[0][0] = true
		for i := 0; i <= len(in); i++ {
			for j := 1; j <= len(pat); j++ {
				if pat[j-1] == automaton.Wildcard {
					m[i][j] = m[i][j-1] || (i > 0 && m[i-1][j])
				} else {
					m[i][j] = i > 0 && m[i-1][j-1] && pat[j-1] == in[i-1]
				}
			}
		}
		if p.Anchored {
			return m[len(in)][len(pat)]
		}
		for i := range m {
			if m[i][len(pat)] {
				return true
			}
		}
		return false
	}
	r := rand.New(rand.NewSource(1))
	for k := 0; k < 20000; k++ {
		var pb, ib strings.Builder
		for n := r.Intn(10); n > 0; n-- {
			pb.WriteByte("ab**"[r.Intn(4)])
		}
		for n := r.Intn(12); n > 0; n-- {
			ib.WriteByte("ab"[r.Intn(2)])
		}
		p := automaton.Pattern{Bytes: pb.String(), Anchored: r.Intn(2) == 0}
		if got, want := advMatch(p, ib.String()), full(p, ib.String()); got != want {
			t.Fatalf("advMatch(%q anchored=%v, %q) = %v, full programme %v", p.Bytes, p.Anchored, ib.String(), got, want)
		}
	}
}
