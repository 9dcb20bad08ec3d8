package automaton

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
)

const (
	// wildcard is the byte that matches any run of bytes, also none.
	wildcard = '*'
	// NoMatch is Match's answer when no pattern matches.
	NoMatch = -1
	// DefaultCacheBytes bounds the memory of a DFA's states: 8 MiB hold
	// tens of thousands of states, more than the URLs of any real site
	// reach, while a thousand hot Sets stay within a few GiB.
	DefaultCacheBytes = 8 << 20
	// MaxCacheBytes is the most Options.CacheBytes may ask for: the DFA's
	// rows are addressed by 31-bit cell offsets.
	MaxCacheBytes = 1 << 30
	// DefaultWarmUp is about the number of inputs a Set decides with the
	// linear engine before its DFA starts: most Sets a crawler keeps
	// decide fewer, and never hold a state.
	DefaultWarmUp = 1 << 10
)

// Pattern is one pattern of a Set: the bytes text[Start:Start+Len] of the
// text given to Compile, in which '*' matches any run of bytes. The Set
// keeps its program of them and their tags, not the patterns.
type Pattern struct {
	Start uint32
	// Priority orders patterns: the match with the highest Priority
	// wins, and of equal priorities the pattern given first.
	Priority uint32
	Len      uint16
	// Anchored reports whether the pattern must match the whole input;
	// otherwise it matches every input it is a prefix of.
	Anchored bool
	// Tag is the caller's, kept for Set.Tag: the Set reads nothing of it.
	Tag uint8
}

// end returns where p ends in the text.
func (p Pattern) end() uint32 { return p.Start + uint32(p.Len) }

// Options configure Compile. The zero value is valid.
type Options struct {
	// CacheBytes bounds the memory of the DFA's states; 0 means
	// DefaultCacheBytes, and values above MaxCacheBytes are lowered to it.
	// A full cache is emptied and matching goes on: a small value costs
	// time, never correctness. A negative value builds no DFA: the linear
	// engine decides every input.
	CacheBytes int
	// WarmUp is about the number of inputs the linear engine decides
	// before the DFA starts (they are counted by sampling); 0 means
	// DefaultWarmUp, and a negative value starts the DFA in Compile (its
	// start state built).
	WarmUp int
}

// Set is a compiled pattern set. It is safe for concurrent use; it behaves
// as immutable, its engines' indexes and states growing behind that face.
type Set struct {
	text string
	prog []inst  // the patterns compiled, by rank (prog.go)
	tags []uint8 // each pattern's Tag, by its index; nil when all are 0
	n    int32   // the number of patterns

	warmUp     int32
	cacheBytes int

	mu    sync.Mutex // serialises building the index, the piece matcher and the DFA
	index atomic.Pointer[index]
	// seen is set by the linear engine's first input: the index is built
	// at the second.
	seen atomic.Bool
	pcs  atomic.Pointer[pieces]
	dfa  atomic.Pointer[dfa]

	// The policy's state, written on rare events only (see Match).
	inputs  atomic.Int64 // inputs the linear engine decided, counted by sampling
	probe   atomic.Int32 // after DFA give-ups: the DFA is tried on 1 input in 1<<probe
	giveUps atomic.Int64
	pieced  atomic.Int64 // about the inputs the piece matcher decided, counted by sampling
}

// Compile prepares the patterns, substrings of text, for matching: it
// compiles them into one program, in rank order, that every engine reads.
// It keeps text (which must not change afterwards), not patterns, and
// builds nothing else: the engines' indexes and states are built as
// inputs need them. A pattern that is not a part of text (Start+Len
// beyond it) matches no input.
func Compile(text string, patterns []Pattern, opts Options) *Set {
	s := &Set{text: text, n: int32(len(patterns))}
	for i, p := range patterns {
		if p.Tag != 0 && s.tags == nil {
			s.tags = make([]uint8, len(patterns))
		}
		if s.tags != nil {
			s.tags[i] = p.Tag
		}
	}
	s.cacheBytes = min(cmp.Or(opts.CacheBytes, DefaultCacheBytes), MaxCacheBytes)
	s.warmUp = int32(min(max(cmp.Or(opts.WarmUp, DefaultWarmUp), -1), 1<<30))
	s.prog = compileProg(text, patterns)
	if s.warmUp < 0 && s.cacheBytes >= 0 && len(s.prog) > 0 {
		s.startDFA()
	}
	return s
}

// Tag returns the tag of pattern i (Pattern.Tag), as Match returns i: it
// panics, as indexing a slice does, when i is not a pattern's index.
func (s *Set) Tag(i int) uint8 {
	if s.tags == nil && i >= 0 && i < s.Len() {
		return 0
	}
	return s.tags[i]
}

// pattern returns the pattern of rank r, NoMatch for NoMatch.
func (s *Set) pattern(r int) int {
	if r < 0 {
		return NoMatch
	}
	return int(s.prog[r].pattern)
}

// Len returns the number of patterns.
func (s *Set) Len() int { return int(s.n) }

// Match returns the index of the best pattern matching input (see
// Pattern.Priority), or NoMatch. It is safe for concurrent use and writes
// nothing shared but on rare events (building an index or a state, a give
// up), so inputs decided from many goroutines scale with cores.
//
// The policy, in one place: the linear engine decides a Set's first
// inputs (Options.WarmUp), and the DFA the inputs after them (but with
// Options.CacheBytes < 0); an input whose tries would cost the linear
// engine too much, or on which the DFA gives up, goes to the piece
// matcher, and after give-ups the DFA is tried on fewer inputs, then on
// more again as it answers.
func (s *Set) Match(input string) int {
	if len(s.prog) == 0 {
		return NoMatch
	}
	if d := s.dfa.Load(); d != nil {
		if s.tryDFA() {
			if r, ok := d.match(input); ok {
				s.backOff(-1)
				return s.pattern(int(r))
			}
			s.giveUps.Add(1)
			s.backOff(+1)
		}
	} else if s.warmUp >= 0 { // (a negative WarmUp with no DFA: the piece matcher alone)
		r, gaveUp := s.scan(input)
		s.account()
		if !gaveUp {
			return s.pattern(r)
		}
	}
	return s.matchPieces(input)
}

// maxProbeShift bounds the DFA's backing off: after give-ups it is still
// tried on one input in 1<<maxProbeShift.
const maxProbeShift = 10

// backOff moves probe by delta within [0, maxProbeShift], in one atomic
// step: a load then a store would let two goroutines that read the same
// value both move it, out of that range. It writes nothing when probe is
// at the bound already, as it is on most inputs.
func (s *Set) backOff(delta int32) {
	for {
		k := s.probe.Load()
		next := min(max(k+delta, 0), maxProbeShift)
		if next == k || s.probe.CompareAndSwap(k, next) {
			return
		}
	}
}

// tryDFA reports whether this input tries the DFA: all do until it gives
// up; then one in 1<<probe, chosen at random so that no count is shared.
func (s *Set) tryDFA() bool {
	k := s.probe.Load()
	return k == 0 || rand.Uint32()&(1<<k-1) == 0
}

// sampleShift: the policy counts one input in 1<<sampleShift, at random.
const sampleShift = 4

// account counts an input toward WarmUp, one in 1<<sampleShift at random,
// so that most inputs write nothing shared, and starts the DFA when they
// are due.
func (s *Set) account() {
	if s.cacheBytes < 0 || rand.Uint32()&(1<<sampleShift-1) != 0 {
		return
	}
	if s.inputs.Add(1<<sampleShift) >= int64(s.warmUp) {
		s.startDFA()
	}
}

// startDFA builds the DFA once, and returns it.
func (s *Set) startDFA() *dfa {
	return once(s, &s.dfa, func() *dfa { return newDFA(s, s.cacheBytes) })
}

// once returns what p holds, built by build under the Set's mutex if it
// holds nothing yet, so that it is built once.
func once[T any](s *Set, p *atomic.Pointer[T], build func() *T) *T {
	if v := p.Load(); v != nil {
		return v
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v := p.Load()
	if v == nil {
		v = build()
		p.Store(v)
	}
	return v
}

// matchPieces returns the best pattern matching input, decided by the
// piece matcher, built on first use.
func (s *Set) matchPieces(input string) int {
	pc := once(s, &s.pcs, func() *pieces { return buildPieces(s) })
	if rand.Uint32()&(1<<sampleShift-1) == 0 { // counted by sampling, as inputs are
		s.pieced.Add(1 << sampleShift)
	}
	return s.pattern(pc.match(s, input))
}

// Stats describes a Set and how its inputs were decided.
type Stats struct {
	Patterns int   // patterns
	States   int   // DFA states in its current cache (0 before it starts)
	Classes  int   // DFA byte classes (0 before it starts)
	Bytes    int   // memory held beyond the text and patterns: the index, the piece matcher, the DFA's layout and states
	Clears   int64 // times the DFA's full cache was emptied
	// GiveUps is the number of inputs on which the DFA gave up, Pieces
	// about the number the piece matcher decided (those, and the inputs the
	// linear engine's tries would have cost too much), counted by sampling
	// one in 16 so that counting writes nothing shared on most inputs.
	GiveUps, Pieces int64
	DFA             bool // the DFA has started
}

// Stats returns the size of s, states built so far included.
func (s *Set) Stats() Stats {
	st := Stats{Patterns: s.Len(), Bytes: s.Bytes(), GiveUps: s.giveUps.Load(), Pieces: s.pieced.Load()}
	if d := s.dfa.Load(); d != nil {
		d.mu.Lock()
		st.States, st.Classes = len(d.cur.Load().at)-2, int(d.width)-1
		d.mu.Unlock()
		st.DFA, st.Clears = true, d.clears.Load()
	}
	return st
}

// Bytes returns the memory s holds beyond its text: its program and
// tags, the linear engine's index and the piece matcher once built, the
// DFA's layout and the states it holds. It takes no lock.
func (s *Set) Bytes() int {
	n := 160 + 16*len(s.prog) + len(s.tags)
	if ix := s.index.Load(); ix != nil {
		n += ix.bytes()
	}
	if pc := s.pcs.Load(); pc != nil {
		n += pc.bytes()
	}
	if d := s.dfa.Load(); d != nil {
		n += 300 + 5*len(d.prog) + 4*len(d.start) + int(d.bytes.Load())
	}
	return n
}

// String dumps the patterns, best first, and the DFA's states built so
// far, in the order they were built.
func (s *Set) String() string {
	var b strings.Builder
	d := s.dfa.Load()
	if d == nil {
		fmt.Fprintf(&b, "automaton: %d patterns, no state built (the DFA has not started)\n", s.Len())
		s.dumpPatterns(&b)
	} else {
		d.dump(&b)
	}
	return b.String()
}

// dumpPatterns writes the program in rank order, one pattern a line, as
// the engines read it (trailing stars trimmed).
func (s *Set) dumpPatterns(b *strings.Builder) {
	b.WriteString("patterns, best first:\n")
	for r, in := range s.prog {
		anchor := ""
		if in.anchored {
			anchor = " (anchored)"
		}
		fmt.Fprintf(b, "  %d: pattern %d %q%s\n", r, in.pattern, s.text[in.at:in.at+uint32(in.n)], anchor)
	}
}
