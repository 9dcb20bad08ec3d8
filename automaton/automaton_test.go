package automaton

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/internal/race"
)

// bruteMatch reports whether pattern p matches x (a prefix of x, or all of
// it when anchored), by dynamic programming over pattern and input: shares
// nothing with the engines.
func bruteMatch(p string, anchored bool, x string) bool {
	// can[j]: p[:i] matches x[:j], for the i of the loop.
	can := make([]bool, len(x)+1)
	can[0] = true
	for i := 0; i < len(p); i++ {
		next := make([]bool, len(x)+1)
		for j := 0; j <= len(x); j++ {
			if p[i] == wildcard {
				next[j] = can[j] || j > 0 && next[j-1]
			} else {
				next[j] = j > 0 && can[j-1] && x[j-1] == p[i]
			}
		}
		can = next
	}
	if anchored {
		return can[len(x)]
	}
	for _, ok := range can {
		if ok {
			return true
		}
	}
	return false
}

// pat is a pattern of a test, as strings.
type pat struct {
	bytes    string
	anchored bool
	priority uint32
}

// compileAll makes a Set of ps, their bytes one after another in one text.
func compileAll(ps []pat, opts Options) *Set {
	var text strings.Builder
	pats := make([]Pattern, len(ps))
	for i, p := range ps {
		pats[i] = Pattern{Start: uint32(text.Len()), Len: uint16(len(p.bytes)), Anchored: p.anchored, Priority: p.priority}
		text.WriteString(p.bytes)
	}
	return Compile(text.String(), pats, opts)
}

// bruteBest returns the best pattern of ps that matches x: the highest
// priority, the first given of equals.
func bruteBest(ps []pat, x string) int {
	best := NoMatch
	for i, p := range ps {
		if bruteMatch(p.bytes, p.anchored, x) && (best == NoMatch || p.priority > ps[best].priority) {
			best = i
		}
	}
	return best
}

func randPats(r *rand.Rand, n int, alphabet string, maxLen int) []pat {
	ps := make([]pat, n)
	for i := range ps {
		b := make([]byte, r.Intn(maxLen+1))
		for k := range b {
			b[k] = alphabet[r.Intn(len(alphabet))]
		}
		ps[i] = pat{bytes: string(b), anchored: r.Intn(3) == 0, priority: uint32(r.Intn(4))}
	}
	return ps
}

func randInput(r *rand.Rand, alphabet string, maxLen int) string {
	b := make([]byte, r.Intn(maxLen+1))
	for k := range b {
		b[k] = alphabet[r.Intn(len(alphabet))]
	}
	return string(b)
}

// engines runs each engine on x, each reading the Set's program.
func engines(s *Set, x string) map[string]int {
	out := map[string]int{}
	all := tries{s: s, x: x, best: NoMatch, limit: 1 << 30}
	all.all()
	out["tries/all"] = s.pattern(all.best)
	if ix := s.index.Load(); ix != nil {
		if r, gaveUp := s.scan(x); !gaveUp {
			out["tries/indexed"] = s.pattern(r)
		}
	}
	out["pieces"] = s.pattern(buildPieces(s).match(s, x))
	for _, cache := range []int{1 << 20, 4096, 600} {
		if r, ok := newDFA(s, cache).match(x); ok {
			out[fmt.Sprint("dfa/", cache)] = s.pattern(int(r))
		}
	}
	return out
}

// TestEngines_AgainstBruteForce checks every engine against bruteBest on
// random patterns and inputs over small alphabets, where patterns overlap
// and stars meet every byte.
func TestEngines_AgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	rounds := 300
	if testing.Short() {
		rounds = 60
	}
	for round := range rounds {
		alphabet := []string{"ab*", "a/*", "abc*", "ab*$"}[round%4]
		ps := randPats(r, 1+r.Intn(40), alphabet, 8)
		s := compileAll(ps, Options{})
		if round%2 == 0 {
			s.buildIndex()
		}
		for range 30 {
			x := randInput(r, strings.ReplaceAll(alphabet, "*", ""), 12)
			want := bruteBest(ps, x)
			for name, got := range engines(s, x) {
				if got != want {
					t.Fatalf("%s: patterns %v, input %q: %d, want %d", name, ps, x, got, want)
				}
			}
		}
	}
}

// TestIndex_Pairs checks the index's pairs, which hold the patterns with
// stars and no head past the lead when they are many, against bruteBest:
// patterns with pieces of two bytes and more over a small alphabet, so
// that inputs hold many pairs, every other one with an empty head.
func TestIndex_Pairs(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for range 20 {
		ps := randPats(r, 2*minPaired+r.Intn(100), "abcd/*", 9)
		for i := range ps {
			ps[i].bytes += "*" + randInput(r, "abcd/", 4)
			switch {
			case i%2 == 0:
				ps[i].bytes = "*" + ps[i].bytes
			case r.Intn(2) == 0:
				ps[i].bytes = "/" + ps[i].bytes
			}
		}
		s := compileAll(ps, Options{})
		ix := s.buildIndex()
		if ix.pairs == nil {
			t.Fatalf("%d patterns, %v: no pairs", len(ps), ps)
		}
		for range 100 {
			x := "/" + randInput(r, "abcd/", 14)
			want := bruteBest(ps, x)
			if got, gaveUp := s.scan(x); !gaveUp && s.pattern(got) != want {
				t.Fatalf("patterns %v, input %q: %d, want %d", ps, x, got, want)
			}
		}
	}
}

// TestIndex_SortedBuckets checks the walk down a sorted bucket against
// bruteBest: many patterns sharing their first bytes, literal and with
// stars, heads of every length, so that buckets pass minSorted.
func TestIndex_SortedBuckets(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for range 20 {
		// Literal patterns, and fewer than minPaired with stars: all of
		// them in buckets.
		ps := randPats(r, 4*minSorted+r.Intn(200), "ab", 10)
		for _, p := range randPats(r, minPaired-1, "ab*", 10) {
			ps = append(ps, pat{p.bytes + "*", p.anchored, p.priority})
		}
		for i := range ps {
			ps[i].bytes = "/a" + ps[i].bytes
		}
		s := compileAll(ps, Options{})
		ix := s.buildIndex()
		if b := ix.bucket("/aa"); len(b) <= minSorted {
			t.Fatalf("bucket of %d patterns, want more than %d", len(b), minSorted)
		}
		for range 100 {
			x := "/a" + randInput(r, "ab", 12)
			if got, gaveUp := s.scan(x); !gaveUp && s.pattern(got) != bruteBest(ps, x) {
				t.Fatalf("patterns %v, input %q: %d, want %d", ps, x, got, bruteBest(ps, x))
			}
			if got := s.pattern(buildPieces(s).match(s, x)); got != bruteBest(ps, x) {
				t.Fatalf("piece matcher: patterns %v, input %q: %d, want %d", ps, x, got, bruteBest(ps, x))
			}
		}
	}
}

// TestMatch_Policies checks Match in each of its modes, input after input,
// against bruteBest: the default (tries, then the DFA), the DFA from the
// first input, no DFA, and the piece matcher alone; with a cache small
// enough to be emptied often.
func TestMatch_Policies(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, opts := range []Options{{}, {WarmUp: 3}, {WarmUp: -1}, {CacheBytes: -1}, {WarmUp: -1, CacheBytes: -1}, {WarmUp: -1, CacheBytes: 800}} {
		for range 40 {
			ps := randPats(r, 1+r.Intn(30), "ab/*", 7)
			s := compileAll(ps, opts)
			for range 60 {
				x := randInput(r, "ab/", 10)
				if got, want := s.Match(x), bruteBest(ps, x); got != want {
					t.Fatalf("%+v: patterns %v, input %q: %d, want %d", opts, ps, x, got, want)
				}
			}
		}
	}
}

func TestMatch_Examples(t *testing.T) {
	ps := []pat{
		{"/", false, 2},
		{"/private/", false, 18},
		{"/private/*.pdf", true, 28},
		{"/*/index.html", true, 26},
		{"/private/public/", false, 33},
	}
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"/", 0}, {"/x", 0}, {"", NoMatch}, {"/private/", 1}, {"/private/a.pdf", 2},
		{"/private/a.pdfx", 1}, {"/a/index.html", 3}, {"/private/public/x.pdf", 4},
	} {
		for _, opts := range []Options{{}, {WarmUp: -1}, {WarmUp: -1, CacheBytes: -1}} {
			if got := compileAll(ps, opts).Match(tc.in); got != tc.want {
				t.Errorf("%+v: Match(%q) = %d, want %d", opts, tc.in, got, tc.want)
			}
		}
	}
}

func TestMatch_Empty(t *testing.T) {
	s := Compile("", nil, Options{})
	if got := s.Match("/x"); got != NoMatch {
		t.Errorf("empty set: %d", got)
	}
	// An empty pattern matches every input; anchored, only the empty one.
	s = compileAll([]pat{{"", true, 5}, {"", false, 1}}, Options{WarmUp: -1})
	if got := s.Match(""); got != 0 {
		t.Errorf(`Match("") = %d, want 0`, got)
	}
	if got := s.Match("a"); got != 1 {
		t.Errorf(`Match("a") = %d, want 1`, got)
	}
}

// TestCompile_PatternOutsideText checks that a pattern that is not a part
// of the text matches no input, in every engine, and leaves the others'
// answers (and indexes) as they are.
func TestCompile_PatternOutsideText(t *testing.T) {
	pats := []Pattern{{Start: 1, Len: 3, Priority: 9}, {Start: 0, Len: 1, Priority: 1}, {Start: 1 << 31, Len: 1, Priority: 9}}
	for _, opts := range []Options{{}, {WarmUp: -1}, {CacheBytes: -1, WarmUp: -1}} {
		s := Compile("abc", pats, opts)
		for _, x := range []string{"abc", "bcd", "a", ""} {
			want := NoMatch
			if x != "" && x[0] == 'a' {
				want = 1
			}
			if got := s.Match(x); got != want {
				t.Errorf("%+v: Match(%q) = %d, want %d", opts, x, got, want)
			}
		}
		if only := Compile("abc", pats[:1], opts); only.Match("bcd") != NoMatch || only.Len() != 1 {
			t.Errorf("%+v: a Set of one pattern outside its text matches", opts)
		}
	}
}

// TestMatch_NoAllocs checks that deciding allocates nothing: in the
// linear engine, on the DFA's built states, and in the piece matcher once
// its scratch is warm.
func TestMatch_NoAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("-race: sync.Pool drops what it is given at random")
	}
	ps := []pat{{"/a/", false, 3}, {"/a/*.pdf", true, 8}, {"/b", false, 2}, {"/*x*y", false, 5}}
	inputs := []string{"/a/b.pdf", "/b/c", "/zzxqy", "/"}
	for _, opts := range []Options{{}, {WarmUp: -1}, {WarmUp: -1, CacheBytes: -1}} {
		s := compileAll(ps, opts)
		for _, x := range inputs {
			s.Match(x)
		}
		if n := testing.AllocsPerRun(100, func() {
			for _, x := range inputs {
				s.Match(x)
			}
		}); n != 0 {
			t.Errorf("%+v: %v allocations a round", opts, n)
		}
	}
}

// TestDFA_GivesUpOnThrashing checks that inputs that reach new states at
// every byte, each over thousands of positions, give up on the DFA and are
// decided by the piece matcher, right, and that the DFA is then tried on
// fewer inputs.
func TestDFA_GivesUpOnThrashing(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	var ps []pat
	for i := range 3000 {
		w := fmt.Sprintf("%03x", i)
		ps = append(ps, pat{"/*" + w + "*" + w, false, uint32(i % 7)})
	}
	s := compileAll(ps, Options{WarmUp: -1})
	const n = 160
	for k := range n {
		x := "/" + randInput(r, "0123456789abc", 400)
		if k < 40 { // bruteBest is slow on these
			if got, want := s.Match(x), bruteBest(ps, x); got != want {
				t.Fatalf("input %q: %d, want %d", x, got, want)
			}
		} else {
			s.Match(x)
		}
	}
	// Pieces is counted by sampling one input in 16: with about 150
	// inputs decided by the piece matcher, it is 0 once in 16,000 runs.
	st := s.Stats()
	if st.GiveUps == 0 || st.Pieces == 0 {
		t.Errorf("stats %+v: want give-ups and inputs decided by the piece matcher", st)
	}
	if st.GiveUps > n/4 {
		t.Errorf("the DFA was tried on most inputs after it gave up: %+v", st)
	}
}

// TestDFA_CacheStaysInBudget checks that the DFA's states stay within
// CacheBytes, being emptied when full, and still answer right.
func TestDFA_CacheStaysInBudget(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	ps := randPats(r, 200, "abcd*", 10)
	const budget = 3000
	s := compileAll(ps, Options{WarmUp: -1, CacheBytes: budget})
	d := s.startDFA()
	for range 3000 {
		x := randInput(r, "abcd", 30)
		if got, want := s.Match(x), bruteBest(ps, x); got != want {
			t.Fatalf("input %q: %d, want %d", x, got, want)
		}
		if held := d.bytes.Load(); held > budget {
			t.Fatalf("the cache holds %d bytes, over its %d", held, budget)
		}
	}
	if d.clears.Load() == 0 {
		t.Errorf("the cache was never emptied: %+v", s.Stats())
	}
}

// TestMatch_Concurrent decides inputs from several goroutines on one Set
// (go test -race finds unsynchronised access).
func TestMatch_Concurrent(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	ps := randPats(r, 100, "ab/*", 8)
	var inputs []string
	var want []int
	for range 400 {
		x := randInput(r, "ab/", 12)
		inputs, want = append(inputs, x), append(want, bruteBest(ps, x))
	}
	for _, opts := range []Options{{WarmUp: 10}, {WarmUp: -1, CacheBytes: 2048}} {
		s := compileAll(ps, opts)
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range inputs {
					i := (k + 97*g) % len(inputs)
					if got := s.Match(inputs[i]); got != want[i] {
						t.Errorf("%+v: input %q: %d, want %d", opts, inputs[i], got, want[i])
						return
					}
				}
			}()
		}
		wg.Wait()
	}
}

// TestPieces_ManyPatternsAlive checks the piece matcher's bound: on a long
// input it reads each byte once, and the patterns move only at the pieces
// they wait for, however many are alive. Pattern i is "/*i*z" with
// priority i: the best match is the largest i written in the input's
// digits (a naive match of 5,000 patterns would take seconds).
func TestPieces_ManyPatternsAlive(t *testing.T) {
	var ps []pat
	for i := range 5000 {
		ps = append(ps, pat{fmt.Sprintf("/*%d*z", i), false, uint32(i)})
	}
	s := compileAll(ps, Options{WarmUp: -1, CacheBytes: -1})
	digits := strings.Repeat("0123456789", 6000)
	want := NoMatch
	for i := len(ps) - 1; i >= 0 && want == NoMatch; i-- {
		if strings.Contains(digits, strconv.Itoa(i)) {
			want = i
		}
	}
	if got := s.Match("/" + digits + "z"); got != want {
		t.Fatalf("%d, want %d", got, want)
	}
}

// TestString checks the dump: the patterns best first, and the states
// once the DFA has built them.
func TestString(t *testing.T) {
	ps := []pat{{"/a", false, 2}, {"/a*b", true, 4}}
	lazy := compileAll(ps, Options{}).String()
	s := compileAll(ps, Options{WarmUp: -1})
	started := s.String()
	s.Match("/axb")
	after := s.String()
	for _, want := range []string{`0: pattern 1 "/a*b" (anchored)`, `1: pattern 0 "/a"`} {
		if !strings.Contains(lazy, want) || !strings.Contains(started, want) || !strings.Contains(after, want) {
			t.Errorf("String() lacks %q:\n%s\n%s\n%s", want, lazy, started, after)
		}
	}
	if !strings.Contains(lazy, "no state built") || strings.Contains(lazy, "state 1:") {
		t.Errorf("a Set whose DFA has not started shows no state:\n%s", lazy)
	}
	if !strings.Contains(started, "automaton: 1 states built") || !strings.Contains(after, "automaton: 4 states built") || !strings.Contains(after, "state 4:") {
		t.Errorf("the start state, then the states /axb reaches:\nstarted:\n%s\nafter:\n%s", started, after)
	}
}

// FuzzMatch checks every engine against bruteBest on patterns and an
// input the fuzzer chooses: patterns are the lines of the first argument,
// a leading '$' anchoring one.
func FuzzMatch(f *testing.F) {
	f.Add("/a*b\n$/c\n*x", "/aaxb")
	f.Add("a*a*a*a\n$*b*", "aaaaab")
	f.Fuzz(func(t *testing.T, patterns, x string) {
		if len(patterns) > 2000 || len(x) > 200 {
			return
		}
		var ps []pat
		for i, line := range strings.Split(patterns, "\n") {
			p := pat{bytes: line, priority: uint32(len(line) % 5)}
			if strings.HasPrefix(line, "$") {
				p.bytes, p.anchored = line[1:], true
			}
			_ = i
			ps = append(ps, p)
		}
		s := compileAll(ps, Options{})
		s.buildIndex()
		want := bruteBest(ps, x)
		for name, got := range engines(s, x) {
			if got != want {
				t.Fatalf("%s: patterns %v, input %q: %d, want %d", name, ps, x, got, want)
			}
		}
	})
}

// TestMatch_ConcurrentBackOff decides, from 8 goroutines on one Set, inputs
// on which its DFA gives up (its cache holds the start state alone, so
// the state they reach has no room) and inputs it answers at once (the
// start state's transition is final), and checks that the policy's
// counters stay in range: the DFA's back-off moves up and down at once on
// many cores, which a load then a store would take below 0 (and tryDFA's
// shift would panic) or past maxProbeShift.
func TestMatch_ConcurrentBackOff(t *testing.T) {
	ps := []pat{{"a", false, 100}}
	for i := range 64 {
		w := fmt.Sprintf("%02x", i)
		ps = append(ps, pat{"/*" + w + "*" + w, false, uint32(i % 7)})
	}
	s := compileAll(ps, Options{WarmUp: -1, CacheBytes: 1})
	// Until the DFA has given up this many times, or for at most 2 s (on
	// two cores, the code this replaced failed 6 runs in 8).
	want, most := int64(200_000), 2*time.Second
	if testing.Short() {
		want, most = 20_000, time.Second/2
	}
	deadline := time.Now().Add(most)
	check := func() bool {
		if p := s.probe.Load(); p < 0 || p > maxProbeShift {
			t.Errorf("probe %d, want 0 to %d", p, maxProbeShift)
			return false
		}
		return true
	}
	// Every goroutine decides both kinds, so that each core moves the
	// back-off both ways.
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; s.giveUps.Load() < want && time.Now().Before(deadline) && check(); k++ {
				if k%8 == 0 {
					s.Match("/0102")
				} else {
					s.Match("a/x")
				}
			}
		}()
	}
	wg.Wait()
	if st := s.Stats(); st.GiveUps <= 0 || st.Pieces < 0 {
		t.Errorf("stats out of range or no give-up: %+v", st)
	}
}

// TestMatchOne_AgreesWithSet: MatchOne, which a matcher's first decision
// uses to try its rules without a Set, answers as a Set of that one
// pattern does, on every pattern and input of a small alphabet (stars in
// both, anchored or not), its early rejection included.
func TestMatchOne_AgreesWithSet(t *testing.T) {
	words := func(n int) []string {
		out := []string{""}
		for l := 1; l <= n; l++ {
			for _, w := range out {
				if len(w) == l-1 {
					for _, c := range "a*/" {
						out = append(out, w+string(c))
					}
				}
			}
		}
		return out
	}
	pats, inputs := words(5), words(5)
	for _, p := range pats {
		for _, anchored := range []bool{false, true} {
			s := Compile(p, []Pattern{{Start: 0, Len: uint16(len(p)), Anchored: anchored, Priority: 1}}, Options{CacheBytes: -1})
			for _, x := range inputs {
				got, _ := MatchOne(p, anchored, x)
				if want := s.Match(x) == 0; got != want {
					t.Fatalf("MatchOne(%q, %v, %q) = %v, a Set of it says %v", p, anchored, x, got, want)
				}
			}
		}
	}
}
