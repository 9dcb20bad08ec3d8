// Package automaton compiles a set of prioritised wildcard patterns into an
// immutable deterministic automaton that finds, in one left-to-right pass
// over an input, the highest-priority pattern matching a prefix of the input
// (or the whole input, for end-anchored patterns).
//
// It knows nothing of robots.txt: a pattern is a byte string in which '*'
// matches any run of bytes (also none), with a flag saying whether it must
// match the whole input.
//
// The automaton is a DFA built lazily, as RE2's and regex-automata's hybrid
// DFA are: Compile only lays out the patterns (as offsets into the
// caller's text, Options.Text, when they are parts of it); the byte
// classes and the patterns' positions (a position automaton) are laid out
// when the DFA first runs, and a state, or one transition of it, is
// computed the first time an input reaches it, then kept for every later
// input. A DFA state is the set of positions alive after some input. Two
// reductions keep the sets small: within one pattern, every position before
// the last '*' reached is dropped (the '*' position matches everything they
// could), and a pattern that completes is remembered as the answer so far
// rather than as a position. Transitions are dense rows over byte classes.
// The states in which a pattern completes are "special": their transition
// values have the top bit set, so the scan loop tests one bit per byte and
// only at those rare states updates the best answer and checks whether any
// pattern still alive could beat it (if none can, the scan stops). The dead
// state (nothing alive) and a transition not computed yet are special too.
// Each row ends with three words: the answer if the input ends there
// (end-anchored patterns at their end), the answer completed on entering it,
// and the best priority still alive. A table starts narrow, two 16-bit
// cells to a word, and goes on wide (32-bit cells) only when its states
// outgrow 16-bit offsets, which no real robots.txt's URLs do. A new row
// already leads the bytes that advance no position where a miss would find
// they lead (nowhere, or to the state of its stars alone), so the URLs of a
// site miss only on bytes that some pattern names.
//
// Cost. Compiling is linear in the patterns' bytes. An input costs one table
// load per byte once the states it visits exist; a transition not computed
// yet costs O(positions alive) once, and is then shared. A crawler deciding
// a hundred URLs of a site builds the few dozen states they visit, not the
// thousands a full construction would. The states built are kept in a cache
// of at most Options.CacheBytes per automaton: when it is full it is
// cleared and the input goes on.
//
// The inputs may be chosen to defeat the cache: a site writes the links a
// crawler finds as well as its rules, and can pick URLs that each reach
// states no URL reached before, each costing O(positions alive) to build
// (thousands of patterns, each alive at every byte). So every input's
// misses are counted in work (positions, stars and cells touched), and an
// input whose work passes a limit (the patterns' bytes, plus a state's
// worth per byte scanned) gives up on the DFA: a fallback matcher decides
// the whole input, and the inputs after it, until a probe shows the DFA
// pays again (policy.go). The fallback (fallback.go) matches each pattern
// as a head and literal pieces, taking each piece's first occurrence: one
// Aho-Corasick pass over the input finds the pieces, and a tree of the
// patterns' piece sequences, searched best first by priority, shares the
// work of patterns with a common beginning. Its cost per input byte does
// not grow with the number of patterns alive: O(1) amortised plus the
// pieces ending at that byte (at most the number of distinct piece
// lengths), plus O(1) per tree node reached, at most once each per input.
// A bit-parallel simulation of the positions was the other candidate: its
// cost per byte is the positions over 64, some 8,000 words a byte for 500
// KiB of patterns, where the pieces' automaton costs a few steps. An input
// so costs at most the limit's work in the DFA plus the fallback's, whatever
// the patterns and the input; LIMITS.md gives the numbers.
//
// Warm-up. Most automata decide few inputs: a crawler keeps a robots.txt
// for each site it visits and decides about a hundred URLs on it. So an
// automaton first decides Options.WarmUp inputs (DefaultWarmUp) without
// building a state, by trying the patterns that could match each input one
// by one, best first (direct.go), and builds its DFA only from the input
// after them. The patterns an input could match are those whose byte after
// the bytes all patterns start with (a URL path's '/'; patterns that start
// with a star aside) is the input's byte there, and those with no such
// byte (or no such start); where the former are many, only
// those whose bytes before their first star are a prefix of the input,
// found by a binary search. The direct matcher tries at most a few dozen
// candidates on an input, searching for at most a hundred-odd pieces
// between stars in all and at most a few dozen bytes of each, so a warm-up
// input costs at most that many times its bytes times a short piece's,
// plus the pieces'. An input it cannot decide within those bounds (more
// candidates, more pieces, or a long piece whose first bytes occur where
// the rest does not follow) ends the warm-up: the DFA decides it and the
// inputs after it. The patterns with a star right after the common bytes
// are candidates of every input: where they are more than a few, an
// input's are those that have a pair of bytes the input has. An automaton
// whose every input would give up (more than a few dozen such patterns
// with no pair), or with more than a few hundred such patterns or
// thousands sharing their byte after the common ones, has no warm-up.
//
// Concurrency. A Set is safe for concurrent use. The scan reads transition
// cells with atomic loads and takes no lock; a cell not computed yet is
// computed under the automaton's mutex and published with an atomic store.
// A table that grows, or a cache that is replaced, is a new object
// published by an atomic pointer, so a reader never sees a torn one: it
// goes on with the one it holds, whose states stay valid. A full cache is
// replaced once for every goroutine, under the mutex; an input still in the
// old one moves to the new one at its next miss, so that the states held
// stay within the budget plus the generations that inputs finishing
// without a miss still read. The fallback is built on first use, once, and
// is immutable; its per-input scratch comes from a pool.
//
// Each byte costs a table load whose result gives the next load's address,
// so a plain scan waits for every load in turn. In a narrow table two tests
// let the CPU run ahead instead: a byte that keeps the automaton where it is
// (a '*' waiting for what follows it) and a byte that leads to the next row
// both continue from a state the scan computes without the load, and the
// branch predictor guesses them. States are numbered as inputs first reach
// them, so the bytes of a pattern that an input follows for the first time
// get consecutive rows. A wide table, over a thousand states, waits: there
// distinct inputs follow no order the predictor learns.
//
// Options.End names bytes at which an input ends (a URL's '#'): their class
// leads every row to a sentinel that ends the scan with the answer for the
// input before it, so a caller need not find the end first.
package automaton

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Wildcard is the byte that matches any run of bytes in a Pattern.
const Wildcard = '*'

// DefaultCacheBytes is the memory one automaton may use for the states it
// builds before its cache is cleared. The real URLs of a real robots.txt
// build a few dozen states (10 KB on average over the corpus), so most
// automata never come near it; it is sized for the worst working sets that
// still deserve a DFA: a thousand distinct URLs on generated files of
// 10,000 and 100,000 rules visit 10,000 and 12,000 states (3.3 and 4.5
// MB), and fit. RE2 gives its DFAs 8 MB by default too.
const DefaultCacheBytes = 8 << 20

// MaxCacheBytes bounds Options.CacheBytes so that state offsets (rows of up
// to 259 cells) stay below 2^31.
const MaxCacheBytes = 1 << 30

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
	// CacheBytes is the memory the automaton may use for the states it
	// builds; 0 means DefaultCacheBytes, and values above MaxCacheBytes are
	// lowered to it. When the cache is full it is cleared and matching goes
	// on: a small value costs time, never correctness. The start state and
	// one more are always kept, so the cache may pass a tiny budget by one
	// state. A negative value builds no states beyond the start state: the
	// fallback decides every input (slower per input than a warm DFA).
	CacheBytes int
	// ReserveBytes, when positive, is the size the transition table of
	// every cache generation starts at, at most a quarter of CacheBytes,
	// and every generation's table is wide (32-bit cells): an automaton
	// without a reservation starts narrow and goes on wide when its states
	// outgrow 128 KiB, building them again, which a reservation says is to
	// be expected, and copies its table into new memory each time it
	// grows. That suits a process that decides many inputs on one
	// automaton (the command line; LIMITS.md has the measurement). On
	// Linux a reserved table's pages are mapped 128 KiB at a time as rows
	// reach them, in one system call each (madvise MADV_POPULATE_WRITE),
	// where each page would otherwise cost a page fault when first
	// written. The reservation is held from the first generation on (from
	// the input after the warm-up, see WarmUp) and comes out of
	// CacheBytes: Bytes counts it, and a generation holds that much less
	// room for states. Leave it 0 for automata kept by the thousand.
	ReserveBytes int
	// Escape lists bytes at which MatchPrefix stops and reports that it could
	// not decide: a caller that must rewrite some bytes of its input (for
	// example percent-escapes) scans the raw input first and rewrites only
	// when the answer depends on such a byte.
	Escape string
	// End lists bytes at which an input ends: Match and MatchPrefix
	// answer as if the input stopped just before the first of them (a
	// pattern byte among them never matches). A caller whose input runs on
	// past its end marker (a URL's '#' fragment) need not find the marker
	// first: the scan stops there, or earlier when the answer is final. End
	// wins over Escape for a byte in both.
	End string
	// WarmUp is the number of inputs decided by matching the patterns one
	// by one, best first, before the DFA builds its first state; 0 means
	// DefaultWarmUp, a negative value none. The warm-up ends early at an
	// input that more than a few dozen patterns could match, or that would
	// cost it more than the bounds the package doc gives, and an automaton
	// whose every input would has none. Most automata a crawler keeps
	// decide fewer inputs than that, and then never build a state:
	// deciding them costs less in all, though an input costs more than on
	// built states, and they hold less memory.
	WarmUp int
	// Text, when the patterns' Bytes are substrings of it (as slicing one
	// string gives), lets the Set keep each pattern as an offset and a
	// length in Text, which it then holds, rather than a copy of its
	// bytes: a caller that keeps its patterns' text anyway (a parsed file)
	// saves their size. The copy the DFA reads is made only when it
	// builds its first state, which an automaton that decides its inputs
	// in the warm-up never does. A pattern outside Text (or a pattern
	// that simplifying rewrites, such as one with "**"), or a Text of 4 GiB
	// or more, makes the Set copy them all, as it does without Text.
	Text string
}

// NoMatch is what Match returns when no pattern matches.
const NoMatch = -1

// Set is the compiled form of a pattern set. A Set is safe for concurrent
// use; it behaves as immutable, its cache of states growing behind that
// face.
type Set struct {
	d *dfa // nil when no pattern can match
	// index maps the automaton's pattern numbers (the patterns it kept, in
	// rank order) to indexes in the slice given to Compile; nil when they
	// are the same (the patterns were given in rank order and all kept),
	// as for a caller that ranks its patterns: a pointer, not a slice in
	// every Set.
	index *[]int32
}

// patternIndex returns the index in the slice given to Compile of the
// automaton's pattern k.
func (s *Set) patternIndex(k int) int {
	if s.index == nil {
		return k
	}
	return int((*s.index)[k])
}

// Transition values: a value with specialBit clear is the premultiplied
// offset of an ordinary state's row; with specialBit set it is one of the
// sentinels below or the offset of a state in which a pattern completes.
const (
	specialBit   = 1 << 31
	deadState    = ^uint32(0)
	escapeState  = ^uint32(0) - 1
	endState     = ^uint32(0) - 2 // the column of Options.End bytes
	unknownState = ^uint32(0) - 3 // a transition not computed yet
	giveUpState  = ^uint32(0) - 4 // scan's answer when the DFA gives up: never in a table
)

// dfa is a lazily built automaton: its program, its current cache
// generation, and the fallback matcher with the state of the policy that
// chooses between them (policy.go).
type dfa struct {
	prog
	cur atomic.Pointer[generation]
	// skip is the number of inputs the fallback, or during the warm-up the
	// direct matcher, decides before the DFA is tried (again); 0 (or less)
	// when the DFA decides (see Match).
	skip atomic.Int32
	// backoff is the inputs the fallback decides before the next probe
	// (policy.go); beside skip, not in policy, so that the fields pack: a
	// Set and its dfa are one allocation of 208 bytes.
	backoff atomic.Int32
	// dir is the direct matcher's index, nil when there is no warm-up. The
	// warm-up lasts while no generation exists (cur is nil).
	dir direct
	// warm is the inputs of the warm-up, when there is one; when it ended
	// before its count (endWarmUp), -1 less the inputs decided directly.
	warm     atomic.Int32
	curBytes atomic.Int32 // the current generation's bytes, for Bytes (at most MaxCacheBytes)
	// mu guards misses: the current generation's growth and its
	// replacement.
	mu     sync.Mutex
	clears atomic.Int64 // generations started because one was full
	policy
}

// Compile prepares the automaton for patterns. It never fails, and costs
// time and memory linear in the patterns' bytes: states are built later,
// as inputs reach them (see the package doc).
func Compile(patterns []Pattern, opts Options) *Set {
	budget := opts.CacheBytes
	if budget == 0 {
		budget = DefaultCacheBytes
	}
	budget = min(budget, MaxCacheBytes)
	// The Set and its dfa in one allocation.
	sd := &struct {
		s Set
		d dfa
	}{}
	s, d := &sd.s, &sd.d
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	order := sc.rankOrder(patterns)
	// One End byte, however often End repeats it, is looked for alone.
	d.endByte = noEnd
	if opts.End != "" {
		d.endByte = int16(opts.End[0])
		if strings.Trim(opts.End, opts.End[:1]) != "" {
			d.endByte = severalEnds
		}
	}
	d.stops = opts.Escape != "" || d.endByte == severalEnds
	index, kept := d.layout(sc, patterns, order, opts.End, opts.Text)
	if kept == 0 {
		return s
	}
	if index != nil {
		s.index = new([]int32)
		*s.index = index
	}
	if d.stops {
		for k, set := range [...]string{opts.Escape, opts.End} {
			for i := 0; i < len(set); i++ {
				setBit(d.stopSet(int32(k)), int(set[i]))
			}
		}
	}
	if budget < 0 {
		d.skip.Store(fallbackOnly)
		budget = 0
	}
	d.budget = int32(budget)
	d.reserve = int32(min(max(opts.ReserveBytes, 0), budget/4) / 4)
	s.d = d
	warm := opts.WarmUp
	if warm == 0 {
		warm = DefaultWarmUp
	}
	if d.skip.Load() == 0 && warm > 0 {
		if dm, ok := directFor(&d.prog, sc); ok {
			// The first generation is made when the DFA first runs
			// (scan).
			d.dir = dm
			d.warm.Store(int32(min(warm, fallbackOnly-2)))
			d.skip.Store(d.warm.Load() + 1) // the input after the warm-up's runs the DFA
			return s
		}
	}
	d.startGen(sc)
	return s
}

// directs returns the number of inputs the direct matcher decided: those
// of the warm-up, less those left while it lasts (exact unless inputs
// were decided concurrently as it ended). It is called under d.mu, which
// both ends of the warm-up hold (endWarmUp, firstGen): its three loads
// then see the warm-up before its end or after it, never one of each (an
// early end read as a full warm-up).
func (d *dfa) directs() int64 {
	if d.dir.index == nil {
		return 0
	}
	w := d.warm.Load()
	if w < 0 {
		return int64(-w - 1)
	}
	// skip first: once cur exists, skip counts the fallback's inputs.
	left := d.skip.Load()
	if d.cur.Load() == nil {
		return int64(min(max(w+1-left, 0), w))
	}
	return int64(w)
}

// endWarmUp ends the warm-up before its count: the direct matcher gave up
// on an input (directGaveUp), and the DFA decides it and the inputs after
// it. Another input may have ended it first, by the count or by giving up
// too: then the DFA has started, and skip is the policy's, not the
// warm-up's.
func (d *dfa) endWarmUp() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cur.Load() != nil {
		return
	}
	// The input that gave up was counted down; those before it were
	// decided directly.
	left := d.skip.Swap(0)
	w := d.warm.Load()
	d.warm.Store(-min(max(w-left, 0), w) - 1)
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	d.startGen(sc)
}

// startGen makes d's first generation, under d.mu or before d is shared.
func (d *dfa) startGen(sc *scratch) *generation {
	// An automaton with a reservation starts wide: it is expected to build
	// more states than a narrow table holds, and starting narrow would
	// build the first of them twice (see Options.ReserveBytes).
	d.items()
	d.buildClasses()
	g, _ := d.prog.newGen(nil, sc, d.reserve == 0, nil, 0, nil)
	d.cur.Store(g)
	d.curBytes.Store(int32(g.bytes))
	return g
}

// firstGen returns d's first generation, making it if no input has yet
// (after a warm-up).
func (d *dfa) firstGen() *generation {
	d.mu.Lock()
	defer d.mu.Unlock()
	if g := d.cur.Load(); g != nil {
		return g
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	return d.startGen(sc)
}

// rankOrder returns the indexes of patterns in rank order (highest
// Priority first, then given order), or nil when they are given in that
// order already, as a caller that knows its priorities may do.
func (sc *scratch) rankOrder(patterns []Pattern) []int32 {
	sorted := true
	for i := 1; i < len(patterns) && sorted; i++ {
		sorted = patterns[i-1].Priority >= patterns[i].Priority
	}
	if sorted {
		return nil
	}
	order := grow(&sc.order, len(patterns))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		return cmp.Compare(patterns[b].Priority, patterns[a].Priority)
	})
	return order
}

// hashSeed seeds Compile's duplicate check.
var hashSeed = maphash.MakeSeed()

// layout lays out patterns taken in order (nil: as given) as spans of
// text when every one is a substring of it (see prog), or of a text of the
// Set's own, leaving out duplicates (a duplicate never wins) and patterns
// with an End byte (no input gets past one). It returns the Set's index
// (the indexes in patterns of the patterns kept, in rank order; nil when
// they are patterns[:kept] in order) and the number kept.
func (d *dfa) layout(sc *scratch, patterns []Pattern, order []int32, end, text string) ([]int32, int) {
	p := &d.prog
	// The anchored bits and the spans in one allocation of words (it
	// holds no pointer, and does not change once laid out). index is made only
	// when the patterns kept are not those given in their order, which a
	// caller that ranks its patterns rarely sees.
	// The spans are narrow when both texts a pattern may be in, text and
	// the Set's own (at most the patterns and a byte each), are shorter
	// than maxNarrow.
	owned := 0
	for k := range patterns {
		owned += len(patterns[k].Bytes) + 1
	}
	p.wide = len(text) >= maxNarrow || owned >= maxNarrow
	p.base = int32(len(patterns)+15) / 16
	if p.stops {
		p.base += stopWords
	}
	p.words = make([]uint16, int(p.base)+p.stride()*len(patterns))
	// own is the Set's own text, laid out as the items' all (each pattern
	// followed by a byte for its end item), from the first pattern that
	// is not a substring of text on (those before it are copied into it
	// then). pat reads a pattern kept from either.
	var own []byte
	base := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	shareable := text != "" && uint64(len(text)) <= math.MaxUint32 // a span's offsets are 32 bits
	pat := func(r int) string {
		if own != nil {
			return p.spanOf(unsafe.String(unsafe.SliceData(own), len(own)), int32(r))
		}
		return p.spanOf(text, int32(r))
	}
	var index []int32
	kept := 0 // patterns kept; index is nil while they are patterns[:kept]
	// seen finds an equal pattern kept before: open addressing over the
	// patterns' hashes, rank+1 in each slot.
	seen := grow(&sc.seen, 1<<bits.Len(uint(2*len(patterns)|7)))
	clear(seen)
	mask := uint64(len(seen) - 1)
	for k := range patterns {
		pi := int32(k)
		if order != nil {
			pi = order[k]
		}
		b, anchored := simplify(patterns[pi])
		if hasEnd(b, end) {
			continue
		}
		h := maphash.String(hashSeed, b)
		if anchored {
			h = ^h
		}
		i := h & mask
		dup := false
		for ; seen[i] != 0; i = (i + 1) & mask {
			if r := int(seen[i] - 1); p.anchored(int32(r)) == anchored && pat(r) == b {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		seen[i] = int32(kept) + 1
		at := uintptr(unsafe.Pointer(unsafe.StringData(b))) - base
		if len(b) == 0 {
			at = 0
		}
		if own == nil && (len(b) == 0 || shareable && len(b) < maxNarrow && at <= uintptr(len(text)) && uintptr(len(b)) <= uintptr(len(text))-at) {
			p.appendSpan(int(at), len(b))
		} else {
			if own == nil {
				own = make([]byte, 0, owned)
				for r := range int32(kept) {
					at, n := p.span(r) // shared: shorter than maxNarrow
					b := text[at : at+n]
					p.setSpan(r, len(own), len(b))
					own = append(append(own, b...), 0)
				}
			}
			p.appendSpan(len(own), len(b))
			own = append(append(own, b...), 0) // 0: the end item's byte
		}
		if anchored {
			setBit(p.words, kept)
		}
		if index == nil && pi != int32(kept) {
			index = make([]int32, kept, len(patterns))
			for k := range index {
				index[k] = int32(k)
			}
		}
		if index != nil {
			index = append(index, pi)
		}
		kept++
	}
	if kept == 0 {
		return nil, 0
	}
	p.text = text
	if own != nil {
		p.text, p.owned = unsafe.String(unsafe.SliceData(own), len(own)), true // own is not written again
	}
	return index, kept
}

// hasEnd reports whether b holds a byte of end. End holds bytes, not
// runes (strings.ContainsAny would read "\xff" as a rune that no byte of
// b equals); the one End byte most callers have (a URL's '#') is looked
// for by IndexByte.
func hasEnd(b, end string) bool {
	if len(end) == 1 {
		return strings.IndexByte(b, end[0]) >= 0
	}
	for i := 0; i < len(end); i++ {
		if strings.IndexByte(b, end[i]) >= 0 {
			return true
		}
	}
	return false
}

// classify returns the byte classes of the patterns laid out (see
// classMap).
func (p *prog) classify(escape, end string) *classMap {
	m := &classMap{}
	var used, isEnd [256]bool
	for i := 0; i < len(end); i++ {
		isEnd[end[i]] = true
	}
	for r := range int32(p.count()) {
		b := p.pattern(r)
		for i := 0; i < len(b); i++ {
			used[b[i]] = true
		}
	}
	used[Wildcard] = false
	nclass := 1
	others := false
	for c := 0; c < 256; c++ {
		if used[c] {
			m.classes[c] = uint8(nclass)
			nclass++
		} else {
			others = others || !isEnd[c]
		}
	}
	if !others { // every byte is a literal or an End byte: class 0 is empty, drop it
		for c := 0; c < 256; c++ {
			m.classes[c]--
		}
		nclass--
	}
	m.endClass = -1
	if end != "" { // fits: at most 256-len(end) bytes have a class of their own
		m.endClass = int16(nclass)
		nclass++
		for i := 0; i < len(end); i++ {
			m.classes[end[i]] = uint8(m.endClass)
		}
	}
	m.fast = &m.classes
	m.escClass = -1
	m.hasFast = true
	switch {
	case escape == "":
	case nclass < 256:
		m.fast = new([256]uint8)
		*m.fast = m.classes
		m.escClass = int16(nclass)
		nclass++
		for i := 0; i < len(escape); i++ {
			if !isEnd[escape[i]] {
				m.fast[escape[i]] = uint8(m.escClass)
			}
		}
	default:
		m.hasFast = false
	}
	m.nclass = uint32(nclass)
	return m
}

// buildClasses builds p's class map, once, before its first generation:
// under the dfa's mutex, or before the dfa is shared.
func (p *prog) buildClasses() {
	if p.classMap == nil {
		p.classMap = p.classify(p.stopBytes())
	}
}

// stopWords is the length of the sets of Escape bytes and End bytes in a
// prog's words (see prog): a bit for each byte, in each.
const stopWords = 2 * setWords

// stopSet returns the set of Escape bytes (k 0) or of End bytes (k 1) of
// a prog with stops, in its words.
func (p *prog) stopSet(k int32) []uint16 {
	at := p.base - stopWords + setWords*k
	return p.words[at : at+setWords : at+setWords]
}

// inSet reports whether c is in the set of Escape bytes (k 0) or of End
// bytes (k 1) of a prog with stops.
func (p *prog) inSet(k int32, c byte) bool { return hasBit(p.stopSet(k), int(c)) }

// stopBytes returns the Escape bytes and the End bytes.
func (p *prog) stopBytes() (escape, end string) {
	if p.endByte >= 0 {
		end = allBytes[p.endByte : p.endByte+1]
	}
	if !p.stops {
		return "", end
	}
	var b []byte
	for k := range int32(2) {
		b = b[:0]
		for c := range 256 {
			if p.inSet(k, byte(c)) {
				b = append(b, byte(c))
			}
		}
		if k == 0 {
			escape = string(b)
		} else if p.endByte == severalEnds {
			end = string(b)
		}
	}
	return escape, end
}

// classesNow returns d's class map, or, before its DFA has run, the one it
// would build (not kept), for Stats and String.
func (d *dfa) classesNow() *classMap {
	if d.cur.Load() != nil {
		return d.classMap
	}
	return d.classify(d.stopBytes())
}

// allBytes holds every byte value once, in order.
var allBytes = func() string {
	var b [256]byte
	for i := range b {
		b[i] = byte(i)
	}
	return string(b[:])
}()

// simplify collapses runs of Wildcard and drops trailing ones, which change
// nothing: "/a**b*" matches as "/a*b", and an anchored "/a*" is "/a".
func simplify(p Pattern) (b string, anchored bool) {
	b, anchored = p.Bytes, p.Anchored
	i := strings.IndexByte(b, Wildcard)
	if i < 0 { // most patterns
		return b, anchored
	}
	if strings.Contains(b[i:], "**") {
		var sb strings.Builder
		for i := 0; i < len(b); i++ {
			if b[i] == Wildcard && i > 0 && b[i-1] == Wildcard {
				continue
			}
			sb.WriteByte(b[i])
		}
		b = sb.String()
	}
	if strings.HasSuffix(b, "*") {
		b = strings.TrimRight(b, "*")
		anchored = false
	}
	return b, anchored
}

// Match returns the index (in the slice given to Compile) of the
// highest-priority pattern matching input, or NoMatch. It is safe for
// concurrent use. In the warm-up (Options.WarmUp) it tries at most a few
// dozen patterns, allocating nothing; once the states input visits exist
// it runs in one pass, takes no lock and allocates nothing; otherwise its
// cost is bounded by the fallback's (see the package doc).
//
// Match and MatchPrefix each hold the DFA's path, the hot one, in their own
// frame: a call to a shared function costs measurably more per input.
func (s *Set) Match(input string) int {
	d := s.d
	if d == nil {
		return NoMatch
	}
	if d.skip.Load() > 0 {
		ans, _ := d.matchPolicy(false, input)
		return s.answer(ans)
	}
	g, st, best := scan(d, false, input)
	if st == giveUpState {
		ans, _ := d.giveUp(false, input)
		return s.answer(ans)
	}
	return s.answer(d.end(g, st, best))
}

// MatchPrefix is Match, except that it may stop at a byte of Options.Escape
// and then return ok false (and NoMatch): the DFA stops at the first escape
// byte that could change the answer, the warm-up and the fallback at the
// first escape byte. The DFA of a Set whose patterns name every byte but
// the star, which leaves no byte class for the escapes, returns ok false
// for every input. With ok true the answer is Match's.
func (s *Set) MatchPrefix(input string) (index int, ok bool) {
	d := s.d
	if d == nil {
		return NoMatch, true
	}
	var ans uint32
	if d.skip.Load() > 0 {
		ans, ok = d.matchPolicy(true, input)
		return s.answer(ans), ok
	}
	g, st, best := scan(d, true, input)
	switch st {
	case escapeState:
		return NoMatch, false
	case giveUpState:
		ans, ok = d.giveUp(true, input)
		return s.answer(ans), ok
	}
	return s.answer(d.end(g, st, best)), true
}

// Decided returns the answer for every input that starts with prefix, and
// ok true, when the DFA knows it from prefix alone (no pattern still alive
// could beat it); otherwise ok false. It never runs the fallback: a caller
// that must rewrite its input before matching (Options.Escape) rewrites a
// prefix first, and the whole input only when the prefix does not decide.
func (s *Set) Decided(prefix string) (index int, ok bool) {
	d := s.d
	if d == nil {
		return NoMatch, true
	}
	if d.skip.Load() > 0 {
		return NoMatch, false
	}
	if _, st, best := scan(d, false, prefix); st == deadState {
		return s.answer(best), true
	}
	return NoMatch, false
}

// giveUp records that the DFA gave up on in, and returns the fallback's
// answer for it (as fallbackMatch does).
func (d *dfa) giveUp(stop bool, in string) (uint32, bool) {
	d.gaveUp()
	return fallbackMatch(d, stop, in)
}

// matchPolicy is Match and MatchPrefix (stop: MatchPrefix's) while
// the policy sends inputs to the fallback: this one goes to it, or, when
// its turn has come, tries the DFA again (a probe). It returns the answer
// (pattern number + 1, 0 for none), and false at an escape byte.
func (d *dfa) matchPolicy(stop bool, in string) (uint32, bool) {
	if n := d.skip.Load(); n == fallbackOnly || d.skip.Add(-1) > 0 {
		return fallbackMatch(d, stop, in)
	}
	ans, ok, finished := decideDFA(d, stop, in)
	if finished {
		d.probed()
	}
	return ans, ok
}

// decideDFA decides in on the DFA, as Match and MatchPrefix do (stop:
// MatchPrefix's), and reports whether the DFA finished: an input on
// which it gives up is decided by the fallback (giveUp).
func decideDFA(d *dfa, stop bool, in string) (ans uint32, ok, finished bool) {
	g, st, best := scan(d, stop, in)
	switch st {
	case escapeState:
		return 0, false, true
	case giveUpState:
		ans, ok = d.giveUp(stop, in)
		return ans, ok, false
	}
	return d.end(g, st, best), true, true
}

// answer returns the index of the pattern an answer of the automaton
// (pattern number + 1, 0 none) stands for.
func (s *Set) answer(ans uint32) int {
	if ans == 0 {
		return NoMatch
	}
	return s.patternIndex(int(ans - 1))
}

// better returns the better of two answers (pattern number + 1, 0 for none).
func better(a, b uint32) uint32 {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}

// scan runs d from the start state of its current generation over in,
// with the byte-to-class map d.classes, or with stop d.fast, which also
// maps the escape bytes. It returns the generation it ended in (the cache
// may be replaced on the way), the state and the best answer, and stops
// early with s == deadState when the answer is final (at an End byte too,
// with the answer for the input before it), s == escapeState at an escape
// byte (only with stop), or s == giveUpState when building the states in costs more than
// the policy allows. The loop over bytes is run's (runNarrow's for a
// narrow table); once it finds a transition not computed yet, scanMissing
// goes on.
func scan(d *dfa, stop bool, in string) (*generation, uint32, uint32) {
	g := d.cur.Load()
	if g == nil {
		g = d.firstGen()
	}
	// The class map is built, and published with g.
	cls := &d.classes
	if stop {
		if !d.hasFast { // the DFA cannot stop at the escapes
			return g, escapeState, 0
		}
		cls = d.fast
	}
	s, best := g.s0, g.best0
	if s == deadState {
		return g, s, best
	}
	w := g.table()
	var i int
	var t uint32
	if g.narrow {
		i, s, best, t = runNarrow(w, cls, g.stride, g.ansAt, s, best, in, 0)
	} else {
		i, s, best, t = run(w, cls, g.ansAt, s, best, in, 0)
	}
	if t != unknownState {
		return g, s, best // the end of in, or s is dead or escape
	}
	return scanMissing(d, g, cls, s, best, in, i)
}

// scanMissing is scan from the byte at i of in, whose transition from
// state s is not computed yet: it computes the transitions run finds
// missing, with a scratch from scratchPool, and gives up when their cost
// passes d.workLimit.
func scanMissing(d *dfa, g *generation, cls *[256]uint8, s, best uint32, in string, i int) (*generation, uint32, uint32) {
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	sc.work = 0
	base, perByte := d.workLimit()
	for {
		g2, w, t := d.miss(g, sc, s, uint32(cls[in[i]]))
		if limit := base + perByte*(i+1); sc.work > limit {
			return g2, giveUpState, best
		}
		if g2 != g {
			// s is a state of g, which is now retired or replaced: t is
			// a state of g2. Enter it as run would, and go on from the
			// next byte.
			g, i = g2, i+1
			if t == deadState {
				return g, t, best
			}
			if s, best = enter(w, g.ansAt, t, best); s == deadState {
				return g, s, best
			}
		} // else the cell is known now: run reads it again
		if g.narrow {
			i, s, best, t = runNarrow(w, cls, g.stride, g.ansAt, s, best, in, i)
		} else {
			i, s, best, t = run(w, cls, g.ansAt, s, best, in, i)
		}
		if t != unknownState {
			return g, s, best
		}
	}
}

// run is the scan loop of a wide table: it runs the table w from state s
// over in[i:], one table load and one bit test per byte, and returns where
// it stopped: the index of the byte it stopped at, the state and best
// answer there, and unknownState when that byte's transition is not
// computed yet (s is then the state before it). At the end of in it
// returns len(in) and 0; when the answer is final, deadState as the state;
// at an escape byte, escapeState. run keeps only what the loop needs live,
// so that all of it stays in registers.
//
// Each byte costs a table load whose result gives the next load's address,
// and run waits for it. runNarrow does not always (see there); a wide table
// is one whose states outgrew a narrow one, over a thousand of them, and
// there guessing loses unless the same few URLs come again and again: the
// bytes of distinct URLs keep the state or lead to the next row in no order
// a branch predictor learns. A crawler decides distinct URLs, so a wide
// table waits (LIMITS.md has the measurement).
func run(w []uint32, cls *[256]uint8, ansAt, s, best uint32, in string, i int) (int, uint32, uint32, uint32) {
	for ; i < len(in); i++ {
		t := atomic.LoadUint32(&w[s+uint32(cls[in[i]])])
		if t&specialBit != 0 {
			switch t {
			case unknownState:
				return i, s, best, t
			case deadState, escapeState:
				return i, t, best, 0
			case endState:
				return i, deadState, better(best, w[s+ansAt+colEOI]), 0
			}
			if t, best = enter(w, ansAt, t, best); t == deadState {
				return i, t, best, 0
			}
		}
		s = t
	}
	return i, s, best, 0
}

// runNarrow is run for a narrow table: the class gives the word of the row
// and the half of it, and the cell is that half, so a byte costs a shift
// more than in a wide table, and half the memory. It returns what run
// does, in 32-bit transition values.
//
// Two tests let the CPU run ahead instead of waiting for each load: a byte
// that keeps the automaton where it is (a '*' waiting for what follows it)
// and a byte that leads to the next row (the next byte of a pattern, when
// states were built in that order) continue from a state computed without
// the load, and the branch predictor guesses them; the load is then
// checked, not waited for. On the corpus's real URLs the guesses neither
// win nor lose (RealCorpusDecide); on URLs decided again and again, as in
// the Decide benchmarks, the predictor learns them and they win (README's
// Results). Narrow tables are small ones, whose few states real URLs follow
// in order.
func runNarrow(w []uint32, cls *[256]uint8, stride, ansAt, s, best uint32, in string, i int) (int, uint32, uint32, uint32) {
	for ; i < len(in); i++ {
		c := uint32(cls[in[i]])
		t := atomic.LoadUint32(&w[s+c>>1]) >> (c & 1 * 16) & 0xFFFF
		if t == s {
			continue
		}
		if t == s+stride {
			s += stride // as in run
			continue
		}
		if t&narrowSpecial != 0 {
			switch t {
			case narrowUnknown:
				return i, s, best, unknownState
			case deadState & 0xFFFF, escapeState & 0xFFFF:
				return i, t | 0xFFFF0000, best, 0
			case endState & 0xFFFF:
				return i, deadState, better(best, w[s+ansAt+colEOI]), 0
			}
			if t, best = enter(w, ansAt, t&^narrowSpecial|specialBit, best); t == deadState {
				return i, t, best, 0
			}
		}
		s = t
	}
	return i, s, best, 0
}

// end returns the answer for the input scanned so far.
func (d *dfa) end(g *generation, s, best uint32) uint32 {
	if s == deadState {
		return best
	}
	return better(best, g.table()[s+g.ansAt+colEOI])
}

// Empty reports whether no pattern of s can match: every input gives
// NoMatch.
func (s *Set) Empty() bool { return s.d == nil }

// Stats describes the size of a Set and how its inputs were decided.
type Stats struct {
	Patterns int   // patterns kept (duplicates and patterns that cannot match left out)
	States   int   // states built so far (in the current cache)
	Classes  int   // byte classes
	Bytes    int   // memory held: the patterns' spans (and text, when the Set's own), their positions once the DFA ran, the cache of states, the fallback once built (not Options.Text)
	Clears   int64 // times a full cache was cleared
	// GiveUps is the number of inputs on which the DFA gave up (building
	// their states cost more than the policy allows), Fallback the number
	// of inputs the fallback decided (those, and the ones the policy gave
	// it directly), Direct the number the direct matcher decided in the
	// warm-up (Options.WarmUp).
	GiveUps, Fallback, Direct int64
}

// Stats returns the size of s, states built so far included.
func (s *Set) Stats() Stats {
	st := Stats{Bytes: s.Bytes()}
	if d := s.d; d != nil {
		st.Patterns = d.count()
		d.mu.Lock()
		if g := d.cur.Load(); g != nil {
			st.States = len(g.states)
		}
		st.Direct = d.directs()
		d.mu.Unlock()
		st.Classes = int(d.classesNow().nclass)
		st.Clears = d.clears.Load()
		st.GiveUps = d.giveUps.Load()
		st.Fallback = d.fallbacks.Load()
	}
	return st
}

// Bytes returns the memory s holds, states built so far and the fallback
// included: what Stats reports as Bytes, without a lock (atomic loads), so
// that a cache of compiled sets can charge each its growth.
func (s *Set) Bytes() int {
	n := 0
	if s.index != nil {
		n = 24 + 4*cap(*s.index)
	}
	if d := s.d; d != nil {
		n += d.fixedBytes() + int(d.curBytes.Load())
		if f := d.fb.Load(); f != nil {
			n += f.bytes
		}
	}
	return n
}

// dfaOverhead is the memory of a dfa beyond its slices: its fields and
// slice headers.
const dfaOverhead = int(unsafe.Sizeof(dfa{}))

// fixedBytes is the memory d holds but for its generations and fallback:
// its patterns' spans (and text, when its own), their items once built,
// classes and the direct matcher's index.
func (d *dfa) fixedBytes() int {
	p := &d.prog
	n := 2*cap(p.words) + dfaOverhead + 2*len(d.dir.index)
	if p.owned {
		n += len(p.text)
	}
	if d.cur.Load() != nil { // the items and classes are built, and published with it
		n += int(unsafe.Sizeof(itemLayout{})) + 8*len(p.ends) + 4*cap(p.starts) + int(unsafe.Sizeof(classMap{}))
		if !p.owned {
			n += len(p.all)
		}
		if p.fast != &p.classes {
			n += 256
		}
	}
	return n
}

// String dumps the patterns the automaton keeps (simplified, duplicates and
// patterns that cannot match left out), best first, and the states built so
// far, in the order they were built.
func (s *Set) String() string {
	var b strings.Builder
	if d := s.d; d != nil {
		for k := range d.count() {
			anchor := ""
			if d.anchored(int32(k)) {
				anchor = " (anchored)"
			}
			fmt.Fprintf(&b, "pattern #%d: %q%s\n", s.patternIndex(k), d.pattern(int32(k)), anchor)
		}
		d.dump(&b, s)
	}
	return b.String()
}

func (d *dfa) dump(b *strings.Builder, s *Set) {
	d.mu.Lock()
	defer d.mu.Unlock()
	g := d.cur.Load()
	if g == nil {
		fmt.Fprintf(b, "automaton: no state built (%d inputs decided directly), %d classes\n", d.directs(), d.classesNow().nclass)
		return
	}
	fmt.Fprintf(b, "automaton: %d states built, %d classes\n", len(g.states), d.nclass)
	members := make([][]byte, d.nclass)
	for c := 0; c < 256; c++ {
		members[d.classes[c]] = append(members[d.classes[c]], byte(c))
	}
	for k, m := range members {
		switch k {
		case int(d.endClass):
			fmt.Fprintf(b, "  class %d: %s (end)\n", k, byteSet(m))
		case int(d.escClass):
		default:
			fmt.Fprintf(b, "  class %d: %s\n", k, byteSet(m))
		}
	}
	answer := func(a uint32) string {
		if a == 0 {
			return "none"
		}
		return fmt.Sprintf("#%d", s.patternIndex(int(a-1)))
	}
	fmt.Fprintf(b, "  start: %s\n", g.name(g.s0))
	w := g.table()
	for k := range g.states {
		off := uint32(k) * g.stride
		fmt.Fprintf(b, "  %s:", g.name(off))
		for c := uint32(0); c < d.nclass; c++ {
			switch v := g.cell(w, off, c); v {
			case escapeState, endState, unknownState:
			default:
				fmt.Fprintf(b, " %d->%s", c, g.name(v))
			}
		}
		extra := w[off+g.ansAt : off+g.stride]
		fmt.Fprintf(b, " end->%s", answer(extra[colEOI]))
		if extra[colAcc] != 0 {
			fmt.Fprintf(b, " accepts %s", answer(extra[colAcc]))
		}
		b.WriteString("\n")
	}
}

func (g *generation) name(s uint32) string {
	switch s {
	case deadState:
		return "dead"
	case endState:
		return "end"
	}
	if s&specialBit != 0 {
		return fmt.Sprintf("S%d*", (s&^specialBit)/g.stride)
	}
	return fmt.Sprintf("S%d", s/g.stride)
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
