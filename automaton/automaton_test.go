package automaton

import (
	"flag"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// bruteMatch reports whether p matches input: a prefix of it, or all of it
// when anchored. A plain dynamic programme over (pattern, input) positions.
func bruteMatch(p Pattern, in string) bool {
	pat := p.Bytes
	// reach[j]: pattern[:j] can match in[:i] for the current i.
	reach := make([]bool, len(pat)+1)
	reach[0] = true
	closeStars := func() {
		for j := 0; j < len(pat); j++ {
			if reach[j] && pat[j] == Wildcard {
				reach[j+1] = true
			}
		}
	}
	closeStars()
	if reach[len(pat)] && !p.Anchored {
		return true
	}
	for i := 0; i < len(in); i++ {
		nr := make([]bool, len(pat)+1)
		for j := 0; j < len(pat); j++ {
			if !reach[j] {
				continue
			}
			if pat[j] == Wildcard {
				nr[j] = true
			} else if pat[j] == in[i] {
				nr[j+1] = true
			}
		}
		reach = nr
		closeStars()
		if reach[len(pat)] && !p.Anchored {
			return true
		}
	}
	return reach[len(pat)]
}

// bruteBest is the oracle for Set.Match.
func bruteBest(ps []Pattern, in string) int {
	best := NoMatch
	for i, p := range ps {
		if bruteMatch(p, in) && (best == NoMatch || p.Priority > ps[best].Priority) {
			best = i
		}
	}
	return best
}

func randPattern(r *rand.Rand, alphabet string, maxLen int) Pattern {
	n := r.Intn(maxLen + 1)
	var b strings.Builder
	for i := 0; i < n; i++ {
		if r.Intn(4) == 0 {
			b.WriteByte('*')
		} else {
			b.WriteByte(alphabet[r.Intn(len(alphabet))])
		}
	}
	return Pattern{Bytes: b.String(), Anchored: r.Intn(3) == 0, Priority: uint64(r.Intn(8))}
}

func randInput(r *rand.Rand, alphabet string, maxLen int) string {
	n := r.Intn(maxLen + 1)
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.Intn(len(alphabet))]
	}
	return string(b)
}

// variantSets caches, per pattern set, its compilations with variantOptions,
// so that checkAgainstBrute compiles them once per set rather than per
// input.
var variantSets = map[*Set][]*Set{}

// variantOptions are the variants checkAgainstBrute compares with the brute
// force on the input cut at its first End byte: escape bytes, an End byte
// the patterns of most tests never hold, one they do, with escapes too,
// several; and each three times: by default, so that the direct matcher of the warm-up
// decides (the sets of these tests have few patterns), with no warm-up
// (WarmUp < 0), so that the DFA decides, and with no states (CacheBytes <
// 0), so that the fallback decides.
var variantOptions = []Options{
	{}, {WarmUp: -1}, {CacheBytes: -1},
	{Text: sharedText}, {Text: sharedText, WarmUp: -1}, {Text: sharedText, CacheBytes: -1},
	{Text: sharedTextButLast}, {Text: sharedTextButLast, WarmUp: -1}, {Text: sharedTextButLast, CacheBytes: -1},
	{Text: sharedWideText}, {Text: sharedWideText, WarmUp: -1}, {Text: sharedWideText, CacheBytes: -1},
	{Text: sharedText, End: "a", Escape: "b%"}, {Text: sharedText, End: "a", Escape: "b%", WarmUp: -1},
	{Escape: "b%"}, {Escape: "b%", WarmUp: -1}, {Escape: "b%", CacheBytes: -1},
	{End: "c"}, {End: "c", WarmUp: -1}, {End: "c", CacheBytes: -1},
	{End: "a", Escape: "b%"}, {End: "a", Escape: "b%", WarmUp: -1}, {End: "a", Escape: "b%", CacheBytes: -1},
	// Several End bytes, which the warm-up and the fallback find by their
	// set; one End byte given twice; and a warm-up of two inputs, after
	// which the DFA builds its classes (with one End byte, or none).
	{End: "ca"}, {End: "ca", WarmUp: -1}, {End: "ca", CacheBytes: -1},
	{End: "cc"}, {End: "cc", WarmUp: -1},
	{WarmUp: 2}, {WarmUp: 2, End: "c"},
}

// The Options.Text of a variant whose patterns checkAgainstBrute lays out
// as substrings of one text (inOneText), all of them or all but the last,
// or all of them past its first 64 KiB (so that their spans are wide).
const (
	sharedText        = "\x00shared"
	sharedTextButLast = "\x00shared-but-last"
	sharedWideText    = "\x00shared-wide"
)

// inOneText returns copies of ps whose Bytes are substrings of the text it
// returns, in another order and with other bytes between them and pad
// bytes before them all, but the last one's when butLast.
func inOneText(ps []Pattern, butLast bool, pad int) ([]Pattern, string) {
	var b strings.Builder
	b.WriteString(strings.Repeat("-", pad))
	at := make([]int, len(ps))
	for i := len(ps) - 1; i >= 0; i-- {
		b.WriteString("*x$")
		at[i] = b.Len()
		b.WriteString(ps[i].Bytes)
	}
	text := b.String()
	out := slices.Clone(ps)
	for i := range out {
		out[i].Bytes = text[at[i] : at[i]+len(ps[i].Bytes)]
	}
	if butLast && len(out) > 0 {
		out[len(out)-1].Bytes = strings.Clone(out[len(out)-1].Bytes)
	}
	return out, text
}

// warmsUp reports whether a set of ps decides every input in its warm-up
// for certain: few patterns, no piece after a first star longer than
// maxDirectPiece, and no more such pieces in all than maxDirectSearches.
func warmsUp(ps []Pattern) bool {
	if len(ps) > maxDirectCandidates {
		return false
	}
	pieces := 0
	for _, p := range ps {
		b, _ := simplify(p)
		if i := strings.IndexByte(b, Wildcard); i >= 0 {
			for _, piece := range strings.Split(b[i+1:], "*") {
				if pieces++; len(piece) > maxDirectPiece {
					return false
				}
			}
		}
	}
	return pieces <= maxDirectSearches
}

func checkAgainstBrute(t *testing.T, ps []Pattern, set *Set, in string) {
	t.Helper()
	want := bruteBest(ps, in)
	if got := set.Match(in); got != want {
		t.Fatalf("Match(%q) = %d, want %d\npatterns: %#v\n%s", in, got, want, ps, set)
	}
	if got, ok := set.MatchPrefix(in); !ok || got != want {
		t.Fatalf("MatchPrefix(%q) = %d, %v, want %d, true (no escapes)", in, got, ok, want)
	}
	sets, ok := variantSets[set]
	if !ok {
		if len(variantSets) >= 64 { // bounded: the fuzz target makes a set per input
			clear(variantSets)
		}
		for _, o := range variantOptions {
			ps := ps
			wide := o.Text == sharedWideText
			switch o.Text {
			case sharedText, sharedTextButLast:
				ps, o.Text = inOneText(ps, o.Text == sharedTextButLast, 0)
			case sharedWideText:
				ps, o.Text = inOneText(ps, false, maxNarrow)
			}
			v := Compile(ps, o)
			if wide && v.d != nil && !v.d.wide {
				t.Fatalf("a set sharing a text of %d bytes has narrow spans", len(o.Text))
			}
			sets = append(sets, v)
		}
		variantSets[set] = sets
	}
	for k, o := range variantOptions {
		cut := in
		if i := strings.IndexAny(in, o.End); o.End != "" && i >= 0 {
			cut = in[:i]
		}
		want := bruteBest(ps, cut)
		v := sets[k]
		if got := v.Match(in); got != want {
			t.Fatalf("Match with %+v (%q) = %d, want %d\npatterns: %#v\n%s", o, in, got, want, ps, v)
		}
		// The variants meant for the direct matcher are decided by it.
		if st := v.Stats(); o.WarmUp == 0 && o.CacheBytes == 0 && v.d != nil && warmsUp(ps) && (st.Direct == 0 || st.States != 0) {
			t.Fatalf("with %+v, %d inputs were decided directly and %d states built: the warm-up did not decide", o, st.Direct, st.States)
		}
		// With escape bytes: the same answer, or a refusal when the input
		// holds an escape byte before its end, or when the DFA decides and
		// no class was left for the escapes (every byte is a literal).
		got, ok := v.MatchPrefix(in)
		noRoom := v.d != nil && v.d.cur.Load() != nil && !v.d.hasFast
		if ok && got != want || !ok && !noRoom && (o.Escape == "" || !strings.ContainsAny(cut, o.Escape)) {
			t.Fatalf("MatchPrefix with %+v (%q) = %d, %v, want %d\npatterns: %#v", o, in, got, ok, want, ps)
		}
	}
}

func TestMatch_RandomAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	iters := 3000
	if testing.Short() {
		iters = 300 // the race pass; go test without -short runs all
	}
	for iter := 0; iter < iters; iter++ {
		ps := make([]Pattern, 1+r.Intn(6))
		for i := range ps {
			ps[i] = randPattern(r, "ab/", 6)
		}
		budget := 0
		if iter%3 == 0 {
			budget = 1 + r.Intn(2000) // clear the cache often
		}
		set := Compile(ps, Options{CacheBytes: budget, WarmUp: -1})
		for k := 0; k < 30; k++ {
			checkAgainstBrute(t, ps, set, randInput(r, "ab/c", 10))
		}
	}
}

func TestMatch_Examples(t *testing.T) {
	ps := []Pattern{
		{Bytes: "/", Priority: 1},
		{Bytes: "/a*b", Priority: 4},
		{Bytes: "/a", Anchored: true, Priority: 3},
		{Bytes: "/*.pdf", Anchored: true, Priority: 6},
		{Bytes: "/fish", Priority: 5},
		{Bytes: "*", Priority: 0},
	}
	set := Compile(ps, Options{WarmUp: -1})
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 5},
		{"/", 0},
		{"/a", 2},
		{"/ab", 1},
		{"/axxxb", 1},
		{"/axxx", 0},
		{"/x.pdf", 3},
		{"/x.pdf?", 0},
		{"/fish.pdf", 3},
		{"/fishy", 4},
		{"x", 5},
	} {
		if got := set.Match(tc.in); got != tc.want {
			t.Errorf("Match(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestMatch_Empty(t *testing.T) {
	set := Compile(nil, Options{WarmUp: -1})
	if got := set.Match("/anything"); got != NoMatch {
		t.Fatalf("empty set matched: %d", got)
	}
	if !set.Empty() || set.Match("/x") != NoMatch {
		t.Fatalf("empty set: Empty %v", set.Empty())
	}
}

func TestMatch_EqualPriorityFirstGivenWins(t *testing.T) {
	set := Compile([]Pattern{{Bytes: "/a", Priority: 2}, {Bytes: "/", Priority: 2}, {Bytes: "/a", Priority: 2}}, Options{WarmUp: -1})
	if got := set.Match("/abc"); got != 0 {
		t.Fatalf("Match = %d, want 0", got)
	}
}

// TestCache_ClearsPastBudget checks that a set whose inputs visit more
// states than its cache holds clears the cache, stays near the budget, and
// still answers exactly.
func TestCache_ClearsPastBudget(t *testing.T) {
	var ps []Pattern
	for i := 0; i < 40; i++ {
		// Patterns whose wildcards interleave: the full automaton of all of
		// them is exponential in the number of patterns.
		ps = append(ps, Pattern{Bytes: "/*" + string(rune('a'+i%20)) + "*" + string(rune('a'+(i*7)%20)) + "x", Priority: uint64(i)})
	}
	const budget = 16 << 10
	set := Compile(ps, Options{CacheBytes: budget, WarmUp: -1})
	r := rand.New(rand.NewSource(2))
	maxBytes := 0
	for k := 0; k < 2000; k++ {
		checkAgainstBrute(t, ps, set, "/"+randInput(r, "abcdefghijklmnopqrstx", 12))
		maxBytes = max(maxBytes, set.Stats().Bytes)
	}
	st := set.Stats()
	if st.Clears == 0 {
		t.Errorf("no clear with a %d-byte cache: %+v", budget, st)
	}
	// The budget, plus the positions (not cached) and one state past it.
	if limit := budget + 4<<10; maxBytes > limit {
		t.Errorf("the set held %d bytes, want at most %d", maxBytes, limit)
	}
}

// TestCache_NarrowGoesWide checks the change of table: a set starts with a
// narrow table, and when the states its inputs visit outgrow it, but not
// the budget, it goes on with a wide one, without counting a clear and
// with the same answers.
func TestCache_NarrowGoesWide(t *testing.T) {
	var ps []Pattern
	for i := 0; i < 40; i++ {
		ps = append(ps, Pattern{Bytes: "/*" + string(rune('a'+i%20)) + "*" + string(rune('a'+(i*7)%20)) + "x", Priority: uint64(i)})
	}
	set := Compile(ps, Options{WarmUp: -1})
	if !set.d.cur.Load().narrow {
		t.Fatalf("a fresh set has a wide table")
	}
	r := rand.New(rand.NewSource(3))
	n := 3000
	if testing.Short() {
		n = 1500
	}
	for k := 0; k < n; k++ {
		checkAgainstBrute(t, ps, set, "/"+randInput(r, "abcdefghijklmnopqrstx", 12))
	}
	st := set.Stats()
	if g := set.d.cur.Load(); g.narrow || st.Clears != 0 {
		t.Fatalf("after %d inputs: narrow %v, %+v; want a wide table and no clear", n, g.narrow, st)
	}
	if st.States*3 < narrowMaxWords/int(set.d.cur.Load().stride) {
		t.Fatalf("%d states built in the wide table: the narrow one was not full", st.States)
	}
}

// growthPatterns are 60 patterns of two stars each over 20 letters, whose
// random inputs build thousands of states: enough to outgrow a narrow table
// and bigTableWords.
func growthPatterns() []Pattern {
	var ps []Pattern
	for i := 0; i < 60; i++ {
		ps = append(ps, Pattern{Bytes: "/*" + string(rune('a'+i%20)) + "*" + string(rune('a'+(i*7)%20)) + "x" + string(rune('a'+(i*3)%20)), Priority: uint64(i)})
	}
	return ps
}

// TestCache_TableGrowth follows the tables of a set whose states outgrow a
// narrow table and then bigTableWords: a table doubles up to 32 rows,
// grows by half up to bigTableWords, and doubles from there (a narrow one
// stops at narrowMaxWords).
func TestCache_TableGrowth(t *testing.T) {
	ps := growthPatterns()
	set := Compile(ps, Options{WarmUp: -1})
	r := rand.New(rand.NewSource(5))
	g, words := set.d.cur.Load(), len(set.d.cur.Load().table())
	big := false
	for k := 0; k < 6000 && !big; k++ {
		checkAgainstBrute(t, ps, set, "/"+randInput(r, "abcdefghijklmnopqrstx", 14))
		g2 := set.d.cur.Load()
		n := len(g2.table())
		if g2 != g {
			g, words = g2, n // a new generation starts small
			continue
		}
		if n == words {
			continue
		}
		// One input may grow the table more than once.
		stride, want := int(g.stride), words
		for want < n {
			big = big || !g.narrow && want >= bigTableWords
			if want >= 32*stride && want < bigTableWords {
				want += want / 2
			} else {
				want *= 2
			}
			if g.narrow {
				want = min(want, narrowMaxWords)
			}
		}
		if n != want {
			t.Fatalf("a table of %d words (%d rows, narrow %v) grew to %d, want %d", words, words/stride, g.narrow, n, want)
		}
		words = n
	}
	if !big {
		t.Fatalf("no wide table grew past bigTableWords (%d words; %+v)", bigTableWords, set.Stats())
	}
}

// TestCache_Reserve checks Options.ReserveBytes: each generation's table
// is wide and starts at the reservation, states are added in place while
// they fit (the table is never replaced), Bytes
// counts the reservation from the start, the answers are those of a set
// without one, a reservation past a quarter of the budget is lowered to it,
// a negative one is none, and a table that outgrows a small reservation
// grows as without one.
func TestCache_Reserve(t *testing.T) {
	ps := growthPatterns()
	const reserve = 1 << 20
	set := Compile(ps, Options{ReserveBytes: reserve, WarmUp: -1})
	plain := Compile(ps, Options{WarmUp: -1})
	if got := set.Bytes(); got < plain.Bytes()+reserve-4*int(plain.d.cur.Load().stride)*initialRows {
		t.Errorf("Bytes %d with a table reserved, %d without: the reservation is not counted", got, plain.Bytes())
	}
	r := rand.New(rand.NewSource(5))
	g := set.d.cur.Load()
	tab := g.table()
	if g.narrow || len(tab) != reserve/4 {
		t.Fatalf("the first generation starts with %d words (narrow %v), want %d wide", len(tab), g.narrow, reserve/4)
	}
	if !plain.d.cur.Load().narrow {
		t.Fatalf("without a reservation, the first generation is wide")
	}
	for k := 0; k < 3000; k++ {
		in := "/" + randInput(r, "abcdefghijklmnopqrstx", 14)
		if got, want := set.Match(in), plain.Match(in); got != want {
			t.Fatalf("Match(%q) = %d with a reservation, %d without", in, got, want)
		}
		if g2 := set.d.cur.Load(); g2 != g {
			g, tab = g2, g2.table()
			if g.narrow || len(tab) != reserve/4 {
				t.Fatalf("a new generation (narrow %v) starts with %d words, want %d wide", g.narrow, len(tab), reserve/4)
			}
			continue
		}
		if rows := len(tab) / int(g.stride); !sameTable(g.table(), tab) {
			if len(g.states) <= rows {
				t.Fatalf("the table was replaced at %d states (%d rows reserved, narrow %v)", len(g.states), rows, g.narrow)
			}
			tab = g.table() // the states outgrew the table: it grows as without a reservation
		}
	}
	if len(g.states) < 1000 {
		t.Fatalf("want a generation of over 1,000 states, built in place; %d states", len(g.states))
	}
	if held := set.Bytes(); held < reserve {
		t.Errorf("a wide generation holds %d bytes, less than its reservation %d", held, reserve)
	}
	small := Compile(ps, Options{CacheBytes: 64 << 10, ReserveBytes: 1 << 20, WarmUp: -1})
	if got, want := int(small.d.reserve), 16<<10/4; got != want {
		t.Errorf("ReserveBytes 1 MiB with a 64 KiB cache reserves %d words, want %d (a quarter of the cache)", got, want)
	}
	for _, bad := range []int{-1, -1 << 40} {
		if got := Compile(ps, Options{ReserveBytes: bad, WarmUp: -1}).d.reserve; got != 0 {
			t.Errorf("ReserveBytes %d reserves %d words, want 0", bad, got)
		}
	}
	// A reservation of a few rows: the table outgrows it and is copied as
	// without one, within one generation, and the answers stay right.
	tiny := Compile(ps, Options{ReserveBytes: 512, WarmUp: -1})
	g = tiny.d.cur.Load()
	tab = g.table()
	grew := false
	for k := 0; k < 300 && !grew; k++ {
		in := "/" + randInput(r, "abcdefghijklmnopqrstx", 14)
		checkAgainstBrute(t, ps, tiny, in)
		if g2 := tiny.d.cur.Load(); g2 != g {
			g, tab = g2, g2.table()
			continue
		}
		grew = !sameTable(g.table(), tab)
	}
	if !grew || len(g.table()) <= 512/4 {
		t.Fatalf("a 512-byte reservation was never outgrown in one generation (%d words now)", len(g.table()))
	}
}

// TestMatch_WideItems checks a set whose patterns hold more than 65536
// positions, whose states keep their items in two uint16s each.
func TestMatch_WideItems(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	var ps []Pattern
	for i := 0; i < 2000; i++ {
		p := randPattern(r, "ab*", 40)
		p.Bytes = "/" + strings.Repeat("ab", 12) + p.Bytes
		p.Priority = uint64(r.Intn(50))
		ps = append(ps, p)
	}
	set := Compile(ps, Options{WarmUp: -1})
	if !set.d.cur.Load().wideItems {
		t.Fatalf("%d bytes of patterns, and the items are narrow", len(set.d.all))
	}
	n := 100
	if testing.Short() {
		n = 20
	}
	for k := 0; k < n; k++ {
		in := "/" + strings.Repeat("ab", 12) + randInput(r, "ab", 30)
		if got, want := set.Match(in), bruteBest(ps, in); got != want {
			t.Fatalf("Match(%q) = %d, want %d", in, got, want)
		}
	}
}

// TestCache_StatesLinearInInput checks that an input builds at most one
// state per byte: a pattern whose full automaton is large costs an input
// only the states it visits.
func TestCache_StatesLinearInInput(t *testing.T) {
	p := "/" + strings.Repeat("*a", 60) + "*b"
	set := Compile([]Pattern{{Bytes: p, Priority: 1}}, Options{WarmUp: -1})
	in := "/" + strings.Repeat("a", 70) + "b"
	if set.Match(in) != 0 || set.Match("/"+strings.Repeat("a", 70)) != NoMatch || set.Match("/"+strings.Repeat("a", 59)+"b") != NoMatch {
		t.Fatalf("wrong answers for %q", p)
	}
	if st := set.Stats(); st.States > 3*(len(in)+1) {
		t.Fatalf("stats %+v after three inputs of at most %d bytes", st, len(in))
	}
	fresh := Compile([]Pattern{{Bytes: "/a", Priority: 1}, {Bytes: "/b*c", Priority: 2}}, Options{WarmUp: -1})
	if st := fresh.Stats(); st.States != 1 {
		t.Fatalf("a fresh set has %d states built, want 1 (the start)", st.States)
	}
}

func TestMatch_NoAllocs(t *testing.T) {
	set := Compile([]Pattern{{Bytes: "/a*b", Priority: 2}, {Bytes: "/a", Priority: 1}, {Bytes: "/*.gif", Anchored: true, Priority: 3}}, Options{WarmUp: -1})
	in := "/a/very/long/path/to/a/file.gif"
	allocs := testing.AllocsPerRun(100, func() {
		set.Match(in)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per match", allocs)
	}
}

// TestString_Golden checks the printable form of small automata.
func TestString_Golden(t *testing.T) {
	for _, tc := range []struct {
		name string
		ps   []Pattern
	}{
		{"literal", []Pattern{{Bytes: "/a", Priority: 2}, {Bytes: "/", Priority: 1}}},
		{"wildcard_anchor", []Pattern{{Bytes: "/*.gif", Anchored: true, Priority: 6}, {Bytes: "/a", Priority: 2}}},
		{"allow_disallow", []Pattern{{Bytes: "/p", Priority: 4}, {Bytes: "/p*x", Priority: 9}, {Bytes: "/p", Anchored: true, Priority: 7}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := Compile(tc.ps, Options{WarmUp: -1})
			buildAll(t, set)
			got := set.String()
			path := filepath.Join("testdata", tc.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("dump differs (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzMatch compares the automata, and the fallback's scan and search each,
// with the brute-force matcher on small alphabets. The input encodes patterns and a query: parts separated by '\n';
// the last part is the query; a leading '$' marks an anchored pattern; a cache
// budget from the first byte forces clearing.
func FuzzMatch(f *testing.F) {
	f.Add([]byte("\x00/a*b\n$/a\n/\n/ab"))
	f.Add([]byte("\x03/*a*a*a\n/*a$\n/aaaa"))
	f.Add([]byte("\x01*\n$\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 || len(data) > 512 {
			return
		}
		budget := int(data[0] % 16)
		parts := strings.Split(string(data[1:]), "\n")
		if len(parts) > 32 {
			return
		}
		in := parts[len(parts)-1]
		var ps []Pattern
		for i, p := range parts[:len(parts)-1] {
			anch := strings.HasPrefix(p, "$")
			if anch {
				p = p[1:]
			}
			ps = append(ps, Pattern{Bytes: p, Anchored: anch, Priority: uint64(len(p)*3 + i%3)})
		}
		checkAgainstBrute(t, ps, Compile(ps, Options{CacheBytes: budget * 64, WarmUp: -1}), in)
		// The fallback's scan and search, each (Match takes the search for
		// inputs this short).
		if set := Compile(ps, Options{CacheBytes: -1}); set.d != nil {
			want := bruteBest(ps, in)
			scan, search, ok := fbBoth(set.d.fallback(), in)
			if got := set.answer(scan); got != want {
				t.Fatalf("the fallback's scan of %q = %d, want %d\npatterns: %#v", in, got, want, ps)
			}
			if got := set.answer(search); !ok || got != want {
				t.Fatalf("the fallback's search of %q = %d (%v), want %d\npatterns: %#v", in, got, ok, want, ps)
			}
		}
	})
}

// buildAll builds every state reachable from the start, breadth first,
// classes in order: the full automaton, for dumps.
func buildAll(t *testing.T, s *Set) {
	t.Helper()
	d := s.d
	if d == nil {
		return
	}
	g := d.cur.Load()
	seen := map[uint32]bool{}
	queue := []uint32{g.s0}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		if st == deadState || seen[st] {
			continue
		}
		seen[st] = true
		for c := uint32(0); c < d.nclass; c++ {
			v := g.cell(g.table(), st, c)
			if v == unknownState {
				var g2 *generation
				if g2, _, v = d.miss(g, new(scratch), st, c); g2 != g {
					t.Fatalf("the cache was cleared while building every state")
				}
			}
			if v < endState {
				queue = append(queue, v&^specialBit)
			}
		}
	}
}

// TestScan_PatternBytesAreConsecutiveRows checks the numbering scan's
// chain test relies on: states are numbered as inputs reach them, so the
// bytes of the first input to follow a pattern lead each state to the next
// row, for later inputs too; and a wildcard's loop stays put.
func TestScan_PatternBytesAreConsecutiveRows(t *testing.T) {
	for _, tc := range []struct {
		ps      []Pattern
		follow  string // bytes of a pattern, from the start
		stayOn  string // then bytes that keep the state (a '*' loop)
		wantRun int    // consecutive rows expected along follow
	}{
		{ps: []Pattern{{Bytes: "/private/data", Priority: 9}, {Bytes: "/public", Priority: 3}, {Bytes: "/p", Priority: 1}}, follow: "/private/data", wantRun: 13},
		{ps: []Pattern{{Bytes: "/private/data", Priority: 9}, {Bytes: "/pu*blic", Priority: 3}}, follow: "/private/data", wantRun: 13},
		{ps: []Pattern{{Bytes: "/archive/*.pdf", Anchored: true, Priority: 9}, {Bytes: "/b", Priority: 1}}, follow: "/archive/", stayOn: "xyz", wantRun: 9},
	} {
		set := Compile(tc.ps, Options{WarmUp: -1})
		set.Match(tc.follow + tc.stayOn)
		d := set.d
		g := d.cur.Load()
		w := g.table()
		s := g.s0
		run := 0
		for i := 0; i < len(tc.follow); i++ {
			next := g.cell(w, s, uint32(d.classes[tc.follow[i]])) &^ specialBit
			if next == s+g.stride {
				run++
			}
			s = next
		}
		if run != tc.wantRun {
			t.Errorf("%v: %d of %q's bytes lead to the next row, want %d\n%s", tc.ps, run, tc.follow, tc.wantRun, set)
		}
		for i := 0; i < len(tc.stayOn); i++ {
			if next := g.cell(w, s, uint32(d.classes[tc.stayOn[i]])); next != s {
				t.Errorf("%v: byte %q leaves the loop state S%d for %s\n%s", tc.ps, tc.stayOn[i], s/g.stride, g.name(next), set)
			}
		}
	}
}

// sameTable reports whether a and b are one table: the same array.
func sameTable(a, b []uint32) bool { return unsafe.SliceData(a) == unsafe.SliceData(b) }

// TestMatch_EndHoldsBytes checks that Options.End is a set of bytes, not
// of runes: a pattern is left out when it holds one of them, and only
// then. "\xff" as a rune (RuneError) equals no byte of "/\xfe", which
// strings.ContainsAny read as holding it.
func TestMatch_EndHoldsBytes(t *testing.T) {
	for _, o := range variantOptions {
		o.End = "#\xff"
		set := Compile([]Pattern{{Bytes: "/\xfe"}, {Bytes: "/\xff"}, {Bytes: "/a#"}}, o)
		if got := set.Match("/\xfe"); got != 0 {
			t.Errorf("%+v: Match(%q) = %d, want 0 (the pattern holds no End byte)", o, "/\xfe", got)
		}
		if got := set.Match("/\xffx"); got != NoMatch {
			t.Errorf("%+v: Match(%q) = %d, want NoMatch (the input ends at its End byte; no kept pattern is a prefix of \"/\")", o, "/\xffx", got)
		}
	}
}

// TestCompile_TextKeepsOffsets checks Options.Text: patterns that are
// substrings of it are kept as offsets into it, not copied, until the DFA
// builds its first state; a pattern outside it, or one that simplifying
// rewrites, makes the Set copy them all; the answers are the same.
func TestCompile_TextKeepsOffsets(t *testing.T) {
	// A text of maxNarrow bytes or more makes the spans wide; a pattern
	// that long is kept only in the Set's own text, where its length is
	// where the next pattern starts.
	text := "Disallow: /private/*\nAllow: /private/public$\nDisallow: /\nDisallow: /a**b\n" +
		"Disallow: /long" + strings.Repeat("l", maxNarrow) + "\n"
	long := text[len(text)-maxNarrow-6 : len(text)-1]
	sub := func(s string) string {
		i := strings.Index(text, s)
		if i < 0 {
			t.Fatalf("%q is not in the text", s)
		}
		return text[i : i+len(s)]
	}
	base := []Pattern{
		{Bytes: sub("/private/public"), Anchored: true, Priority: 3},
		{Bytes: sub("/private/*"), Priority: 2}, // simplified to a prefix of itself
		{Bytes: sub("/"), Priority: 1},
		{Bytes: "", Priority: 0}, // empty: no bytes to share
	}
	// The DFA decides the short inputs; the long ones, which would build
	// a state a byte, only the warm-up.
	inputs := []string{"/private/public", "/private/publicx", "/privat", "/", "/x", ""}
	longInputs := []string{long, long + "x", long[:len(long)-1]}
	for _, tc := range []struct {
		name  string
		extra *Pattern
		owned bool
	}{
		{"all in the text", nil, false},
		{"one outside it", &Pattern{Bytes: strings.Clone("/elsewhere"), Priority: 5}, true},
		{"one rewritten", &Pattern{Bytes: sub("/a**b"), Priority: 5}, true},
		{"one too long for a span's length", &Pattern{Bytes: long, Priority: 5}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := slices.Clone(base)
			if tc.extra != nil {
				ps = append(ps, *tc.extra)
			}
			warm := len(inputs) + len(longInputs)
			plain := Compile(ps, Options{WarmUp: warm})
			shared := Compile(ps, Options{WarmUp: warm, Text: text})
			if got := shared.d.owned; got != tc.owned {
				t.Fatalf("owned = %v, want %v", got, tc.owned)
			}
			if !plain.d.owned {
				t.Fatalf("a Set without Text does not own its patterns' text")
			}
			// The text is 64 KiB or more: the shared Set's spans are wide,
			// three words each, the other's narrow but with the long
			// pattern.
			if !shared.d.wide || plain.d.wide != (tc.extra != nil && tc.extra.Bytes == long) {
				t.Fatalf("wide spans: %v with Text, %v without", shared.d.wide, plain.d.wide)
			}
			spans := 2 * (cap(shared.d.words) - cap(plain.d.words))
			// Until the first state, a Set that shares its text holds its
			// spans alone; one that owns it holds its bytes too.
			if want := plain.Bytes() - len(plain.d.text) + spans; !tc.owned && shared.Bytes() != want {
				t.Fatalf("Bytes with Text = %d, want %d (without Text, less its copy of the patterns)", shared.Bytes(), want)
			}
			if shared.d.itemLayout != nil {
				t.Fatalf("the items were built before the DFA ran")
			}
			for round, ins := range [][]string{append(inputs, longInputs...), inputs} { // the warm-up's, then the DFA's
				for _, in := range ins {
					// The long pattern, unanchored and without a star, is
					// the best; the brute force would take O(its bytes
					// times the input's).
					want := bruteBest(ps[:len(base)], in)
					if tc.extra != nil && (tc.extra.Bytes != long && bruteBest(ps, in) == len(base) || tc.extra.Bytes == long && strings.HasPrefix(in, long)) {
						want = len(base)
					}
					if got := shared.Match(in); got != want {
						t.Fatalf("round %d: Match(%q) with Text = %d, want %d", round, in, got, want)
					}
					if got := plain.Match(in); got != want {
						t.Fatalf("round %d: Match(%q) = %d, want %d", round, in, got, want)
					}
				}
			}
			if shared.d.itemLayout == nil || shared.Stats().States == 0 {
				t.Fatalf("the DFA did not run after the warm-up")
			}
			if shared.Bytes() != plain.Bytes()+spans && tc.owned {
				t.Fatalf("Bytes of an owning Set with Text = %d, without = %d", shared.Bytes(), plain.Bytes())
			}
		})
	}
}

// TestCompile_ClassesWhenTheDFARuns checks when the byte classes are
// built: when the DFA first runs, not by Compile nor in the warm-up, also
// when Escape bytes or several End bytes stop an input before it (the
// warm-up reads their sets).
func TestCompile_ClassesWhenTheDFARuns(t *testing.T) {
	ps := []Pattern{{Bytes: "/a*b", Priority: 2}, {Bytes: "/c", Priority: 1}}
	for _, tc := range []struct {
		opts Options
	}{
		{Options{WarmUp: 6}},
		{Options{WarmUp: 6, End: "#"}},
		{Options{WarmUp: 6, End: "#?"}},
		{Options{WarmUp: 6, Escape: "%"}},
		{Options{WarmUp: 6, Escape: "%#", End: "#?"}},
	} {
		set := Compile(ps, tc.opts)
		d := set.d
		if d.dir.index == nil {
			t.Fatalf("%+v: no warm-up", tc.opts)
		}
		if d.classMap != nil {
			t.Errorf("%+v: classes built by Compile", tc.opts)
		}
		for _, in := range []string{"/axb", "/c", "/d"} { // Match and MatchPrefix: six inputs
			checkAgainstBrute(t, ps, set, in)
		}
		if d.classMap != nil {
			t.Errorf("%+v: classes built in the warm-up", tc.opts)
		}
		// '/', 'a', 'b', 'c' and the others; the End bytes'; the escapes'.
		want := 5
		if tc.opts.End != "" {
			want++
		}
		if tc.opts.Escape != "" {
			want++
		}
		if st := set.Stats(); st.Classes != want {
			t.Errorf("%+v: Stats.Classes = %d before the DFA ran, want %d", tc.opts, st.Classes, want)
		}
		checkAgainstBrute(t, ps, set, "/axxb") // the DFA's first input
		if d.classMap == nil || d.cur.Load() == nil {
			t.Fatalf("%+v: the DFA ran without its classes", tc.opts)
		}
	}
}

// TestMatchPrefix_NoClassForEscapes checks a set whose patterns name
// every byte but the star, so that no class index is left for its Escape
// bytes: the warm-up stops at them by their set, the DFA cannot, and
// refuses (ok false) every input, which Match then decides.
func TestMatchPrefix_NoClassForEscapes(t *testing.T) {
	var ps []Pattern
	for c := range 256 {
		if c != Wildcard {
			ps = append(ps, Pattern{Bytes: "/" + string([]byte{byte(c)}) + "x", Priority: uint64(c)})
		}
	}
	set := Compile(ps, Options{Escape: "%", WarmUp: 2 * 4}) // Match and MatchPrefix of four inputs
	inputs := []string{"/ax", "/%x", "/a%", "/bx"}
	for round := range 2 { // the warm-up's inputs, then the DFA's
		for _, in := range inputs {
			want := bruteBest(ps, in)
			if got := set.Match(in); got != want {
				t.Fatalf("round %d: Match(%q) = %d, want %d", round, in, got, want)
			}
			got, ok := set.MatchPrefix(in)
			switch {
			case round == 0 && ok != !strings.Contains(in, "%"):
				t.Errorf("warm-up: MatchPrefix(%q) ok %v", in, ok)
			case round == 1 && ok:
				t.Errorf("DFA: MatchPrefix(%q) = %d, true; want false, no class for the escapes", in, got)
			case ok && got != want:
				t.Errorf("MatchPrefix(%q) = %d, want %d", in, got, want)
			}
		}
	}
	if st := set.Stats(); st.Classes != 256 || st.States == 0 {
		t.Errorf("%d classes, %d states; want 256 and the DFA run", st.Classes, st.States)
	}
}

// TestCompile_SetIn208Bytes keeps a Set and its dfa, one allocation, in
// the 208-byte size class: a crawler keeps automata by the thousand, and
// the next class is 224 bytes. The byte classes (256 bytes themselves) are
// built when the DFA first runs, which most never do.
func TestCompile_SetIn208Bytes(t *testing.T) {
	if n := unsafe.Sizeof(struct {
		s Set
		d dfa
	}{}); n > 208 {
		t.Fatalf("a Set and its dfa take %d bytes, more than 208", n)
	}
}
