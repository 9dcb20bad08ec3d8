// Package automaton compiles a set of prioritised wildcard patterns into
// immutable deterministic automata that find, in one left-to-right pass over
// an input, the highest-priority pattern matching a prefix of the input (or
// the whole input, for end-anchored patterns).
//
// It knows nothing of robots.txt: a pattern is a byte string in which '*'
// matches any run of bytes (also none), with a flag saying whether it must
// match the whole input.
//
// The algorithm is subset construction over a position automaton. The
// positions of all patterns are laid out in priority order; a DFA state is the
// set of positions alive after some input. Two reductions keep the sets
// small: within one pattern, every position before the last '*' reached is
// dropped (the '*' position matches everything they could), and when a
// pattern completes on entering a state, the positions of every pattern that
// could not beat it are dropped. Transitions are dense rows over byte
// classes. The states in which a pattern completes are "special": their
// transition values have the top bit set, so the scan loop tests one bit per
// byte and only at those rare states updates the best answer and checks
// whether any pattern still alive could beat it (if none can, the scan stops).
// The dead state (nothing alive) is special too and ends the scan. Each row
// ends with three cells: the answer if the input ends there (end-anchored
// patterns at their end), the answer completed on entering it, and the best
// priority still alive.
//
// Each byte costs a table load whose result gives the next load's address,
// so a plain scan waits for every load in turn. Two tests let the CPU run
// ahead instead: a byte that keeps the automaton where it is (a '*' waiting
// for what follows it) and a byte that leads to the next row (the states are
// numbered so that each state's first successor, the next byte of a pattern,
// follows it) both continue from a state the scan computes without the
// load, and the branch predictor guesses them. The load is then checked,
// not waited for. On an input that a floating pattern ("/*.pdf$") keeps
// alive to its end this roughly halves the time per byte.
//
// Options.End names bytes at which an input ends (a URL's '#'): their class
// leads every row to a sentinel that ends the scan with the answer for the
// input before it, so a caller need not find the end first.
//
// A set without wildcards, the most common kind in real robots.txt files,
// skips subset construction: its automaton is the trie of its patterns,
// built directly in linear time, state for state the one subset
// construction would give.
//
// Construction stops at a state budget. Patterns with two or more wildcards
// advance independently of each other, so a set of many of them has a
// product of states; they are compiled in small chunks (MaxMultiWildcard per
// automaton), except families that share everything up to their last
// wildcard and so advance together. For the same reason "floating" patterns
// (a wildcard right after the first byte, "/*.php$"), alive at every byte,
// get automata apart from the others when some of those have wildcards too:
// each prefix's wildcards reached would otherwise multiply the floating
// patterns' states. Any pattern set that still passes the budget is split in two
// (sorted by bytes, so that each half shares prefixes and dies early on
// inputs that do not concern it) and each half is built on its own; a single
// pattern always fits, because its automaton has at most about one state per
// byte of the pattern. Matching with several automata takes the best of their
// answers, so the cost stays linear in the input: never backtracking, never
// exponential.
package automaton

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Wildcard is the byte that matches any run of bytes in a Pattern.
const Wildcard = '*'

// DefaultStateBudget is the number of states one automaton may have before
// its pattern set is split. At the byte-class counts of real robots.txt
// files (20 to 70 classes) this is 1 to 5 MiB of transitions per automaton,
// small enough to build in a few milliseconds and to stay in cache for the
// common case, yet large enough that real files (up to thousands of rules)
// need one automaton.
const DefaultStateBudget = 16384

// MaxMultiWildcard is the number of patterns with two or more wildcards
// compiled into one automaton when a set has more of them. Such patterns
// progress independently, so k of them can need a product of their states;
// eight keeps a chunk well inside the budget for the patterns real files
// contain ("/*/*-word-*.html" by the hundred) while a set with a few of them
// still needs a single automaton.
const MaxMultiWildcard = 8

// DefaultWorkBudget bounds the construction work of one automaton, counted in
// position-set items handled (each costs a few nanoseconds). Sets with many
// wildcard patterns alive at once make every state expensive even when there
// are few states; past this budget the pattern set is split like one past
// the state budget, so that no automaton costs more than tens of
// milliseconds to build.
const DefaultWorkBudget = 1 << 23

// maxLiteralBytes is the total pattern length of the wildcard-free patterns
// put into one automaton up front when a set must be split: such a set is a
// trie, with at most one state per pattern byte, so chunking it by bytes
// reaches the state budget without failed attempts.
func maxLiteralBytes(budget int) int { return budget - 1 }

// ManyWildcards is the number of wildcards from which a pattern gets an
// automaton of its own when a set must be split: two such patterns together
// already need about the product of their lengths in states ("/*a*a*a..."),
// while one alone needs about its length.
const ManyWildcards = 4

// DefaultSetWorkBudget bounds the construction work of a whole Set (see
// DefaultWorkBudget for the unit): about a quarter of a second of building on
// a 2020s machine. Past it, every pattern not yet compiled gets an automaton
// of its own, which costs time linear in the patterns' length: compile time
// stays bounded whatever the file, at the price of one pass per automaton
// when matching.
const DefaultSetWorkBudget = 1 << 26

// MaxWildcardTogether is the number of patterns with wildcards compiled into
// one automaton when a set has more of them: each wildcard pattern stays
// alive in every state after its '*', so k of them make every state cost k.
const MaxWildcardTogether = 256

// MaxStateBudget bounds Options.StateBudget so that premultiplied state
// offsets (states * (classes+1), at most 257 columns) fit in 31 bits.
const MaxStateBudget = 1 << 22

// Pattern is one pattern of a set.
type Pattern struct {
	// Bytes is the pattern; Wildcard ('*') matches any run of bytes.
	Bytes string
	// Anchored reports whether the pattern must match the whole input;
	// otherwise it matches any input it is a prefix of.
	Anchored bool
	// Priority orders patterns: the match with the highest Priority wins;
	// on equal priorities the pattern given first wins.
	Priority uint64
}

// Options configure Compile. The zero value is valid.
type Options struct {
	// StateBudget is the number of states one automaton may have;
	// 0 means DefaultStateBudget. Values above MaxStateBudget are lowered to it.
	StateBudget int
	// Escape lists bytes at which MatchPrefix stops and reports that it could
	// not decide: a caller that must rewrite some bytes of its input (for
	// example percent-escapes) scans the raw input first and rewrites only
	// when the answer depends on such a byte.
	Escape string
	// End lists bytes at which an input ends: Match, MatchPrefix and Step
	// answer as if the input stopped just before the first of them (a
	// pattern byte among them never matches). A caller whose input runs on
	// past its end marker (a URL's '#' fragment) need not find the marker
	// first: the scan stops there, or earlier when the answer is final. End
	// wins over Escape for a byte in both.
	End string
}

// NoMatch is what Match returns when no pattern matches.
const NoMatch = -1

// Set is the compiled form of a pattern set: one or more automata whose
// answers are combined. A Set is immutable and safe for concurrent use.
type Set struct {
	autos []*dfa
	// rankToIndex maps a rank (0 = highest priority) to the index of the
	// pattern in the slice given to Compile.
	rankToIndex []int32
	patterns    []Pattern // in rank order, for String
}

// Transition values: a value with specialBit clear is the premultiplied
// offset of an ordinary state's row; with specialBit set it is deadState or
// the offset of a state in which a pattern completes.
const (
	specialBit  = 1 << 31
	deadState   = ^uint32(0)
	escapeState = ^uint32(0) - 1
	endState    = ^uint32(0) - 2 // the column of Options.End bytes
)

type dfa struct {
	classes [256]uint8
	// fast is classes with the Escape bytes mapped to the escape class,
	// whose column holds escapeState; hasFast is false when there are no
	// Escape bytes or no class index is left for them.
	fast    [256]uint8
	hasFast bool
	// hasEnd reports an End class (Options.End), endClass; its column
	// holds endState in every row.
	hasEnd   bool
	endClass uint8
	nclass   uint32   // number of byte classes
	stride   uint32   // nclass + nExtra
	trans    []uint32 // rows of stride cells: transitions, then EOI, Acc, Min answers
	start    uint32
	nstates  int
	// s0 and best0 are the state and answer at the start of every input
	// (begin), set once the table is.
	s0, best0 uint32
}

// errBudget reports that a pattern set needs more states than the budget.
var errBudget = errors.New("automaton: state budget exceeded")

// Compile builds the automata for patterns. It never fails: a pattern set that
// would pass the state budget is split into several automata. Its time and
// memory are bounded by the budget times the number of automata, and a
// pattern alone always fits in O(len(pattern)) states.
func Compile(patterns []Pattern, opts Options) *Set {
	budget := opts.StateBudget
	if budget <= 0 {
		budget = DefaultStateBudget
	}
	if budget > MaxStateBudget {
		budget = MaxStateBudget
	}
	// Rank patterns: highest priority first, then given order.
	order := make([]int32, len(patterns))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		return cmp.Compare(patterns[b].Priority, patterns[a].Priority)
	})
	s := &Set{rankToIndex: order, patterns: make([]Pattern, len(patterns))}
	ranked := make([]rankedPattern, len(patterns))
	for r, i := range order {
		s.patterns[r] = patterns[i]
		ranked[r] = simplify(patterns[i], int32(r))
	}
	// A pattern with an End byte never matches: no input gets past one.
	if opts.End != "" {
		ranked = slices.DeleteFunc(ranked, func(p rankedPattern) bool { return strings.ContainsAny(p.bytes, opts.End) })
	}
	if len(ranked) == 0 {
		return s
	}
	// Sort by bytes so that split halves share prefixes, and drop exact
	// duplicates: a pattern equal to a better-ranked one never wins.
	sorted := ranked // ranked is not used after this
	slices.SortFunc(sorted, func(x, y rankedPattern) int {
		if c := strings.Compare(x.bytes, y.bytes); c != 0 {
			return c
		}
		if x.anchored != y.anchored {
			if x.anchored {
				return 1
			}
			return -1
		}
		return cmp.Compare(x.rank, y.rank)
	})
	uniq := sorted[:0]
	for _, p := range sorted {
		if n := len(uniq); n > 0 && uniq[n-1].bytes == p.bytes && uniq[n-1].anchored == p.anchored {
			continue
		}
		uniq = append(uniq, p)
	}
	sorted = uniq
	c := &compiler{budget: budget, escape: opts.Escape, end: opts.End, work: DefaultSetWorkBudget, b: builders.Get().(*builder)}
	defer func() {
		c.b.release()
		builders.Put(c.b)
	}()
	// Floating patterns (a '*' right after the first byte, "/*.php$") are
	// alive at every byte of every input, while the others are alive only
	// as long as the input follows their literal prefix. Together, every
	// combination of the prefixed patterns' stars reached multiplies the
	// floating patterns' states; apart, each automaton stays near the size
	// of its patterns, for one more pass over the input.
	isFloating := func(p rankedPattern) bool {
		i := strings.IndexByte(p.bytes, Wildcard)
		return i >= 0 && i <= 1
	}
	nfloating, ledStars := 0, false
	for _, p := range sorted {
		if isFloating(p) {
			nfloating++
		} else {
			ledStars = ledStars || strings.IndexByte(p.bytes, Wildcard) >= 0
		}
	}
	if nfloating > 0 && ledStars {
		floating := make([]rankedPattern, 0, nfloating)
		led := make([]rankedPattern, 0, len(sorted)-nfloating)
		for _, p := range sorted {
			if isFloating(p) {
				floating = append(floating, p)
			} else {
				led = append(led, p)
			}
		}
		s.autos = c.group(floating, s.autos)
		s.autos = c.group(led, s.autos)
	} else {
		s.autos = c.group(sorted, s.autos)
	}
	return s
}

// group compiles byte-sorted patterns into one automaton, or several when
// they are many or have many wildcards.
func (c *compiler) group(sorted []rankedPattern, out []*dfa) []*dfa {
	nsingle, nmulti, many := 0, 0, false
	for _, p := range sorted {
		switch n := strings.Count(p.bytes, "*"); {
		case n == 1:
			nsingle++
		case n >= ManyWildcards:
			many = true
		case n > 1:
			nmulti++
		}
	}
	if !many && nmulti <= MaxMultiWildcard && nsingle+nmulti <= MaxWildcardTogether {
		return c.split(sorted, out)
	}
	var literal, single, multi []rankedPattern
	for _, p := range sorted {
		switch n := strings.Count(p.bytes, "*"); n {
		case 0:
			literal = append(literal, p)
		case 1:
			single = append(single, p)
		default: // families tells the many-wildcard ones apart
			multi = append(multi, p)
		}
	}
	// Many wildcard patterns: literal patterns together (a trie, linear),
	// single-wildcard patterns in chunks, and the others by families.
	budget := c.budget
	for i := 0; i < len(literal); {
		j, size := i, 0
		for j < len(literal) && (j == i || size+len(literal[j].bytes) <= maxLiteralBytes(budget)) {
			size += len(literal[j].bytes)
			j++
		}
		out = c.split(literal[i:j], out)
		i = j
	}
	for i := 0; i < len(single); i += MaxWildcardTogether {
		out = c.split(single[i:min(i+MaxWildcardTogether, len(single))], out)
	}
	return c.families(multi, out)
}

// families compiles patterns with two or more wildcards. Patterns with the
// same text up to their last wildcard (a "head": "/*/*" in "/*/*-word.html")
// reach their stars together, so a family of them costs about what one
// pattern does, while patterns with different heads advance independently
// and multiply each other's states. A family of MaxMultiWildcard or more
// patterns is compiled on its own (in chunks of MaxWildcardTogether); the
// other patterns go MaxMultiWildcard to an automaton, except those with
// ManyWildcards or more wildcards, which go alone.
func (c *compiler) families(ps []rankedPattern, out []*dfa) []*dfa {
	head := func(p rankedPattern) string { return p.bytes[:strings.LastIndexByte(p.bytes, Wildcard)+1] }
	sort.SliceStable(ps, func(a, b int) bool { return head(ps[a]) < head(ps[b]) })
	var loose []rankedPattern
	for i := 0; i < len(ps); {
		j := i + 1
		for j < len(ps) && head(ps[j]) == head(ps[i]) {
			j++
		}
		fam := ps[i:j]
		i = j
		switch {
		case len(fam) >= MaxMultiWildcard:
			for k := 0; k < len(fam); k += MaxWildcardTogether {
				out = c.split(fam[k:min(k+MaxWildcardTogether, len(fam))], out)
			}
		case strings.Count(fam[0].bytes, "*") >= ManyWildcards:
			for k := range fam {
				out = c.split(fam[k:k+1], out)
			}
		default:
			loose = append(loose, fam...)
		}
	}
	for i := 0; i < len(loose); i += MaxMultiWildcard {
		out = c.split(loose[i:min(i+MaxMultiWildcard, len(loose))], out)
	}
	return out
}

// compiler carries what one Compile may still spend.
type compiler struct {
	budget int
	escape string
	end    string
	// work is what is left of DefaultSetWorkBudget; once it is spent, the
	// patterns not yet compiled get an automaton each.
	work int
	b    *builder // the scratch of every build of this Compile
}

// split builds ps as one automaton, or splits it in two (halves of the
// byte-sorted list) when that would pass the budgets. A pattern alone always
// fits: its automaton is linear in its length.
func (c *compiler) split(ps []rankedPattern, out []*dfa) []*dfa {
	if len(ps) == 1 {
		d, w, _ := c.b.build(ps, 2*len(ps[0].bytes)+4, int(^uint(0)>>1), c.escape, c.end)
		c.work -= w
		return append(out, d)
	}
	if c.work <= 0 {
		for i := range ps {
			out = c.split(ps[i:i+1], out)
		}
		return out
	}
	d, w, err := c.b.build(ps, c.budget, min(DefaultWorkBudget, c.work), c.escape, c.end)
	c.work -= w
	if err == nil {
		return append(out, d)
	}
	h := len(ps) / 2
	out = c.split(ps[:h], out)
	return c.split(ps[h:], out)
}

type rankedPattern struct {
	bytes    string // consecutive '*' collapsed; trailing '*' removed
	anchored bool
	rank     int32
}

// simplify collapses runs of Wildcard and drops trailing ones, which change
// nothing: "/a**b*" matches as "/a*b", and an anchored "/a*" is "/a".
func simplify(p Pattern, rank int32) rankedPattern {
	b := p.Bytes
	if strings.Contains(b, "**") {
		var sb strings.Builder
		for i := 0; i < len(b); i++ {
			if b[i] == Wildcard && i > 0 && b[i-1] == Wildcard {
				continue
			}
			sb.WriteByte(b[i])
		}
		b = sb.String()
	}
	anchored := p.Anchored
	if strings.HasSuffix(b, "*") {
		b = strings.TrimRight(b, "*")
		anchored = false
	}
	return rankedPattern{bytes: b, anchored: anchored, rank: rank}
}

// Match returns the index (in the slice given to Compile) of the
// highest-priority pattern matching input, or NoMatch. It runs in one pass
// over input per automaton, allocates nothing, and is safe for concurrent use.
func (s *Set) Match(input string) int {
	best := uint32(0) // rank+1 of the best answer; 0 none
	for _, d := range s.autos {
		best = better(best, d.matchString(input))
	}
	return s.index(best)
}

// MatchPrefix is Match, except that it stops at the first byte of
// Options.Escape that could change the answer and then returns ok false (and
// NoMatch). With ok true the answer is Match's. It allocates nothing.
func (s *Set) MatchPrefix(input string) (index int, ok bool) {
	best := uint32(0)
	for _, d := range s.autos {
		a, ok := d.matchFast(input)
		if !ok {
			return NoMatch, false
		}
		best = better(best, a)
	}
	return s.index(best), true
}

func (d *dfa) matchFast(in string) (uint32, bool) {
	if !d.hasFast {
		return 0, false
	}
	s, best := d.begin()
	if s != deadState {
		if s, best = scan(d, &d.fast, s, best, in); s == escapeState {
			return 0, false
		}
	}
	return d.end(s, best), true
}

// MatchBytes is Match for a byte slice.
func (s *Set) MatchBytes(input []byte) int {
	best := uint32(0)
	for _, d := range s.autos {
		best = better(best, d.matchBytes(input))
	}
	return s.index(best)
}

func (s *Set) index(ans uint32) int {
	if ans == 0 {
		return NoMatch
	}
	return int(s.rankToIndex[ans-1])
}

// better returns the better of two answers (rank+1, 0 for none).
func better(a, b uint32) uint32 {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}

// special handles entering a special state s: the dead state, or one where a
// pattern completes. It returns the state's row offset, the updated best,
// and whether the scan is over (nothing alive could beat best).
func (d *dfa) special(s, best uint32) (uint32, uint32, bool) {
	if s == deadState {
		return s, best, true
	}
	s &^= specialBit
	row := d.trans[s+d.nclass : s+d.nclass+nExtra]
	best = better(best, row[colAcc])
	return s, best, best != 0 && best <= row[colMin]
}

// begin returns the state and best answer at the start of an input; the
// state is deadState when the answer is already final.
func (d *dfa) begin() (s, best uint32) { return d.s0, d.best0 }

// setBegin computes what begin returns, once per automaton.
func (d *dfa) setBegin() {
	s, best := d.start, uint32(0)
	if s&specialBit != 0 {
		var done bool
		if s, best, done = d.special(s, 0); done {
			s = deadState
		}
	}
	d.s0, d.best0 = s, best
}

// scan is the one scan loop: it runs d from (s, best) over in, with the
// byte-to-class map cls (d.classes, or d.fast which also maps the escape
// bytes), one table load and one bit test per byte. It stops early with
// s == deadState when the answer is final (at an End byte too, with the
// answer for the input before it), or s == escapeState at an escape byte
// (only d.fast leads there). Instantiated once for string and once for
// []byte, so neither pays for the other.
func scan[T string | []byte](d *dfa, cls *[256]uint8, s, best uint32, in T) (uint32, uint32) {
	trans, stride := d.trans, d.stride
	for i := 0; i < len(in); i++ {
		t := trans[s+uint32(cls[in[i]])]
		if t == s {
			continue
		}
		if t == s+stride {
			s += stride
			continue
		}
		if t&specialBit != 0 {
			switch t {
			case escapeState:
				return t, best
			case endState:
				return deadState, d.end(s, best)
			}
			var done bool
			if t, best, done = d.special(t, best); done {
				return deadState, best
			}
		}
		s = t
	}
	return s, best
}

// end returns the answer for the input scanned so far.
func (d *dfa) end(s, best uint32) uint32 {
	if s == deadState {
		return best
	}
	return better(best, d.trans[s+d.nclass+colEOI])
}

func (d *dfa) matchString(in string) uint32 {
	s, best := d.begin()
	if s != deadState {
		s, best = scan(d, &d.classes, s, best, in)
	}
	return d.end(s, best)
}

func (d *dfa) matchBytes(in []byte) uint32 {
	s, best := d.begin()
	if s != deadState {
		s, best = scan(d, &d.classes, s, best, in)
	}
	return d.end(s, best)
}

// Answer is the best answer found so far by one or more automata of a Set:
// combine them with Better and turn the result into a pattern index with
// Index. The zero Answer is "no match".
type Answer uint32

// Better returns the better of two answers.
func Better(a, b Answer) Answer { return Answer(better(uint32(a), uint32(b))) }

// Index returns the index (in the slice given to Compile) of the pattern a
// stands for, or NoMatch.
func (s *Set) Index(a Answer) int { return s.index(uint32(a)) }

// Len returns the number of automata in s.
func (s *Set) Len() int { return len(s.autos) }

// Run is the progress of automaton i of a Set over an input given in chunks,
// for callers that produce the input piece by piece (for example while
// rewriting it) without allocating: r := s.Start(i); r = s.Step(i, r, chunk)
// for each chunk; then s.Answer(i, r). Runs of different automata are
// independent; combine their answers with Better. A Run is a small value.
type Run struct {
	s, best uint32
}

// Start returns the Run of automaton i at the start of an input.
func (s *Set) Start(i int) Run {
	st, best := s.autos[i].begin()
	return Run{s: st, best: best}
}

// Done reports whether r's answer can no longer change: the rest of the
// input need not be given.
func (r Run) Done() bool { return r.s == deadState }

// Step feeds the next chunk of the input to automaton i.
func (s *Set) Step(i int, r Run, chunk []byte) Run {
	if r.s == deadState {
		return r
	}
	d := s.autos[i]
	st, best := scan(d, &d.classes, r.s, r.best, chunk)
	return Run{s: st, best: best}
}

// Answer returns automaton i's answer for the input given so far.
func (s *Set) Answer(i int, r Run) Answer {
	return Answer(s.autos[i].end(r.s, r.best))
}

// Stats describes the size of a Set.
type Stats struct {
	Patterns int
	Automata int
	States   int // live states, summed over the automata
	Classes  int // byte classes, summed over the automata
	Bytes    int // memory of the transition tables and class maps
}

// Stats returns the size of s.
func (s *Set) Stats() Stats {
	st := Stats{Patterns: len(s.patterns), Automata: len(s.autos)}
	for _, d := range s.autos {
		st.States += d.nstates
		st.Classes += int(d.nclass)
		st.Bytes += 4*len(d.trans) + 256 + 48
	}
	return st
}

// String dumps the patterns in priority order and every automaton's states.
func (s *Set) String() string {
	var b strings.Builder
	for r, p := range s.patterns {
		anchor := ""
		if p.Anchored {
			anchor = " (anchored)"
		}
		fmt.Fprintf(&b, "pattern %d: %q%s priority %d (index %d)\n", r, p.Bytes, anchor, p.Priority, s.rankToIndex[r])
	}
	for i, d := range s.autos {
		fmt.Fprintf(&b, "automaton %d: %d states, %d classes\n", i, d.nstates, d.nclass)
		d.dump(&b)
	}
	return b.String()
}

func (d *dfa) dump(b *strings.Builder) {
	members := make([][]byte, d.nclass)
	for c := 0; c < 256; c++ {
		members[d.classes[c]] = append(members[d.classes[c]], byte(c))
	}
	for k, m := range members {
		end := ""
		if d.hasEnd && k == int(d.endClass) {
			end = " (end)"
		}
		fmt.Fprintf(b, "  class %d: %s%s\n", k, byteSet(m), end)
	}
	fmt.Fprintf(b, "  start: %s\n", d.name(d.start))
	for off := uint32(0); off < uint32(len(d.trans)); off += d.stride {
		row := d.trans[off : off+d.stride]
		fmt.Fprintf(b, "  %s:", d.name(off))
		for c := uint32(0); c < d.nclass; c++ {
			if row[c] != escapeState && row[c] != endState {
				fmt.Fprintf(b, " %d->%s", c, d.name(row[c]))
			}
		}
		extra := row[d.nclass:]
		fmt.Fprintf(b, " end->%s", answer(extra[colEOI]))
		if extra[colAcc] != 0 {
			fmt.Fprintf(b, " accepts %s", answer(extra[colAcc]))
		}
		b.WriteString("\n")
	}
}

func (d *dfa) name(s uint32) string {
	switch s {
	case deadState:
		return "dead"
	case endState:
		return "end"
	}
	if s&specialBit != 0 {
		return fmt.Sprintf("S%d*", (s&^specialBit)/d.stride)
	}
	return fmt.Sprintf("S%d", s/d.stride)
}

func answer(a uint32) string {
	if a == 0 {
		return "none"
	}
	return fmt.Sprintf("#%d", a-1)
}

func byteSet(m []byte) string {
	if len(m) == 0 {
		return "{}"
	}
	if len(m) > 8 {
		return fmt.Sprintf("{%d others}", len(m))
	}
	var parts []string
	for _, c := range m {
		parts = append(parts, fmt.Sprintf("%q", c))
	}
	return "{" + strings.Join(parts, " ") + "}"
}
