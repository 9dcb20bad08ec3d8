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
// positions of all patterns are laid out in priority order; a DFA state is a
// set of positions plus the best priority already completed on the way to it.
// Three reductions keep the sets small: a position whose pattern cannot beat
// the best completed priority is dropped; within one pattern, every position
// before the last '*' reached is dropped (the '*' position can match anything
// they can); and a state whose set becomes empty is "decided": its answer can
// no longer change, and the scan stops there. Transitions are dense rows over
// byte classes; a decided state is not a row but a transition value with the
// top bit set and the answer in the other bits, so the scan loop tests one bit
// per byte. Each row ends with one extra cell: the answer if the input ends in
// that state.
//
// Construction stops at a state budget. When a pattern set would need more
// states, it is split in two (sorted by bytes, so that each half shares
// prefixes and dies early on inputs that do not concern it) and each half is
// built on its own; a single pattern always fits, because its automaton has at
// most one state per byte of the pattern. Matching with several automata
// takes the best of their answers, so the cost stays linear in the input:
// never backtracking, never exponential.
package automaton

import (
	"errors"
	"fmt"
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

// state encoding in transitions: a value with decidedBit set is a decided
// state whose answer is rank+1 in the low bits (0: no match); any other value
// is the premultiplied offset of a live state's row.
const decidedBit = 1 << 31

type dfa struct {
	classes [256]uint8
	stride  uint32   // number of classes + 1 (the end-of-input cell)
	trans   []uint32 // live states' rows, each stride cells; the last cell is the end-of-input answer
	start   uint32
	nstates int
	nclass  int
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
	sort.SliceStable(order, func(a, b int) bool {
		return patterns[order[a]].Priority > patterns[order[b]].Priority
	})
	s := &Set{rankToIndex: order, patterns: make([]Pattern, len(patterns))}
	ranked := make([]rankedPattern, len(patterns))
	for r, i := range order {
		s.patterns[r] = patterns[i]
		ranked[r] = simplify(patterns[i], int32(r))
	}
	if len(ranked) == 0 {
		return s
	}
	// Split by byte order so that halves share prefixes.
	sorted := append([]rankedPattern(nil), ranked...)
	sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].bytes < sorted[b].bytes })
	s.autos = buildSplit(sorted, budget, s.autos)
	return s
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

func buildSplit(ps []rankedPattern, budget int, out []*dfa) []*dfa {
	d, err := build(ps, budget)
	if err == nil {
		return append(out, d)
	}
	if len(ps) == 1 {
		// A single pattern needs at most len+1 states; build it whatever the budget.
		d, _ = build(ps, 2*len(ps[0].bytes)+4)
		return append(out, d)
	}
	h := len(ps) / 2
	out = buildSplit(ps[:h], budget, out)
	return buildSplit(ps[h:], budget, out)
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

func (d *dfa) matchString(in string) uint32 {
	s := d.start
	if s&decidedBit != 0 {
		return s &^ decidedBit
	}
	trans := d.trans
	for i := 0; i < len(in); i++ {
		s = trans[s+uint32(d.classes[in[i]])]
		if s&decidedBit != 0 {
			return s &^ decidedBit
		}
	}
	return trans[s+d.stride-1]
}

func (d *dfa) matchBytes(in []byte) uint32 {
	s := d.start
	if s&decidedBit != 0 {
		return s &^ decidedBit
	}
	trans := d.trans
	for _, c := range in {
		s = trans[s+uint32(d.classes[c])]
		if s&decidedBit != 0 {
			return s &^ decidedBit
		}
	}
	return trans[s+d.stride-1]
}

// Scanner runs a Set over an input given in chunks, for callers that produce
// the input piece by piece (for example while rewriting it) without
// allocating. The zero Scanner is not usable; get one from Set.Scanner.
// A Scanner is a value: copying it copies the scan's progress.
type Scanner struct {
	set    *Set
	states [maxInlineAutomata]uint32
	more   []uint32 // states beyond maxInlineAutomata (allocated only for very large sets)
}

// maxInlineAutomata automata are scanned without allocating a Scanner's state.
const maxInlineAutomata = 8

// Scanner returns a Scanner at the start of an input.
func (s *Set) Scanner() Scanner {
	sc := Scanner{set: s}
	for i, d := range s.autos {
		if i < maxInlineAutomata {
			sc.states[i] = d.start
		} else {
			sc.more = append(sc.more, d.start)
		}
	}
	return sc
}

func (sc *Scanner) state(i int) *uint32 {
	if i < maxInlineAutomata {
		return &sc.states[i]
	}
	return &sc.more[i-maxInlineAutomata]
}

// Write feeds the next chunk of the input.
func (sc *Scanner) Write(chunk []byte) {
	for i, d := range sc.set.autos {
		s := sc.state(i)
		*s = d.step(*s, chunk)
	}
}

func (d *dfa) step(s uint32, in []byte) uint32 {
	if s&decidedBit != 0 {
		return s
	}
	trans := d.trans
	for _, c := range in {
		s = trans[s+uint32(d.classes[c])]
		if s&decidedBit != 0 {
			return s
		}
	}
	return s
}

// Match returns the answer for the input written so far, as Set.Match would.
func (sc *Scanner) Match() int {
	best := uint32(0)
	for i, d := range sc.set.autos {
		s := *sc.state(i)
		if s&decidedBit != 0 {
			best = better(best, s&^decidedBit)
		} else {
			best = better(best, d.trans[s+d.stride-1])
		}
	}
	return sc.set.index(best)
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
		st.Classes += d.nclass
		st.Bytes += 4*len(d.trans) + 256 + 32
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
	// Class members, as ranges.
	members := make([][]byte, d.nclass)
	for c := 0; c < 256; c++ {
		members[d.classes[c]] = append(members[d.classes[c]], byte(c))
	}
	for k, m := range members {
		fmt.Fprintf(b, "  class %d: %s\n", k, byteSet(m))
	}
	fmt.Fprintf(b, "  start: %s\n", d.name(d.start))
	for off := uint32(0); off < uint32(len(d.trans)); off += d.stride {
		fmt.Fprintf(b, "  %s:", d.name(off))
		row := d.trans[off : off+d.stride]
		for c := 0; c < d.nclass; c++ {
			fmt.Fprintf(b, " %d->%s", c, d.name(row[c]))
		}
		fmt.Fprintf(b, " end->%s\n", answer(row[d.stride-1]))
	}
}

func (d *dfa) name(s uint32) string {
	if s&decidedBit != 0 {
		return "done(" + answer(s&^decidedBit) + ")"
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
