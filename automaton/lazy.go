package automaton

import (
	"bytes"
	"hash/maphash"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// prog is what a dfa computes its states from: the patterns' positions and
// the byte classes. It is immutable once its items are built.
//
// The patterns are spans of text, in rank order. The text is the caller's
// when every pattern is a substring of Options.Text (the Set then holds
// 4 or 6 bytes a pattern, not a copy), or else the Set's own copy, laid out as
// all below. The direct matcher of the warm-up reads the spans alone; the
// DFA and the fallback read the items, built with the first generation
// (items), which an automaton that decides all its inputs in the warm-up
// never builds.
//
// Positions ("items") are numbered pattern after pattern in rank order: each
// pattern contributes one item per byte and one final item, so sorting item
// numbers sorts by rank, then by position. Item it is all[it], or the end
// item of its pattern when bit it of ends is set.
type prog struct {
	text string
	// words holds a bit for each pattern, set when it is anchored (bit r
	// in words[r>>4]); with stops, the sets of Escape bytes and of End
	// bytes (see inSet); then from base on the patterns' spans in text,
	// in rank order (see span): one slice, not several in every automaton.
	words []uint16
	// The items, nil until built: a pointer, not three slices in every
	// automaton, most of which never build them.
	*itemLayout
	// The byte classes, nil until built with the items (buildClasses),
	// since most automata never run their DFA.
	*classMap
	// stops: there are Escape bytes or several End bytes, at which the
	// warm-up and the fallback stop an input (fallbackMatch): their sets
	// are the stopWords words before base.
	stops   bool
	owned   bool  // text is the Set's own, laid out as all (no copy)
	wide    bool  // spans are wide (see span)
	n       int32 // the patterns
	base    int32 // the first word of the spans in words
	endByte int16 // the End byte when there is one, else noEnd or severalEnds
	budget  int32 // bytes of one generation (at most MaxCacheBytes)
	reserve int32 // words of a generation's first table (Options.ReserveBytes)
}

// prog.endByte when there is no End byte, or several (whose set is in
// words: see inSet).
const (
	noEnd       = -1
	severalEnds = -2
)

// A pattern's span is where its bytes are in prog.text: two words, its
// offset and its length, when the texts it may be in are shorter than
// maxNarrow bytes (narrow, as in every real robots.txt's automaton); else
// three (wide), its offset in two halves and its length, or maxNarrow for
// a pattern of 65,535 bytes or more. Only the Set's own text holds such a
// pattern (layout), where each pattern is followed by one byte and then
// the next: its length is where the next begins, less that byte.
const maxNarrow = 1<<16 - 1

// stride returns the words of a span.
func (p *prog) stride() int {
	if p.wide {
		return 3
	}
	return 2
}

// count returns the number of patterns.
func (p *prog) count() int { return int(p.n) }

// appendSpan appends the span of a pattern of n bytes at offset at (in
// the room Compile made for them).
func (p *prog) appendSpan(at, n int) {
	p.n++
	p.setSpan(p.n-1, at, n)
}

// setSpan sets the span of the pattern of rank r.
func (p *prog) setSpan(r int32, at, n int) {
	if p.wide {
		i := p.base + 3*r
		s := p.words[i : i+3 : i+3]
		s[0], s[1], s[2] = uint16(at), uint16(at>>16), uint16(min(n, maxNarrow))
		return
	}
	i := p.base + 2*r
	s := p.words[i : i+2 : i+2]
	s[0], s[1] = uint16(at), uint16(n)
}

// span returns the offset of the pattern of rank r, and its length or
// maxNarrow.
func (p *prog) span(r int32) (at, n uint32) {
	if p.wide {
		i := p.base + 3*r
		s := p.words[i : i+3 : i+3]
		return uint32(s[0]) | uint32(s[1])<<16, uint32(s[2])
	}
	i := p.base + 2*r
	s := p.words[i : i+2 : i+2]
	return uint32(s[0]), uint32(s[1])
}

// spanOf returns the bytes of the pattern of rank r in text.
func (p *prog) spanOf(text string, r int32) string {
	at, n := p.span(r)
	if n == maxNarrow && p.wide {
		end := uint32(len(text))
		if r+1 < p.n {
			end, _ = p.span(r + 1)
		}
		n = end - at - 1
	}
	return text[at : at+n]
}

// classMap is the byte classes of a prog. Class 0 holds the bytes no
// pattern names (when there are any), then one class per byte that one
// does, then the End bytes' class; the escape class is an index no byte
// of classes maps to, used only by fast, whose column holds escapeState
// in every row.
type classMap struct {
	classes [256]uint8
	// fast is classes with the Escape bytes mapped to the escape class;
	// &classes when there are none.
	fast *[256]uint8
	// hasFast is false when there are Escape bytes but no class index was
	// left for them: MatchPrefix cannot stop at them on the DFA.
	hasFast  bool
	escClass int16 // -1 if none
	endClass int16 // the class of the End bytes, -1 if none
	nclass   uint32
}

// itemLayout is the items of a prog (see prog).
type itemLayout struct {
	all    string   // the patterns' bytes, each followed by a placeholder for its end item
	ends   []uint64 // a bit per item: set for end items
	starts []int32  // starts[r]: the first item of rank r; starts[n] = len(all)
}

// items builds p's items from its spans, once, before its first
// generation: under the dfa's mutex, or before the dfa is shared. A
// generation is published after it (atomically), so whatever reads the
// items through a generation sees them built.
func (p *prog) items() {
	if p.itemLayout != nil {
		return
	}
	n := p.count()
	total := 0
	for r := range int32(n) {
		total += len(p.pattern(r)) + 1
	}
	// ends, starts and (when the text is not the Set's own) the bytes of
	// all in one allocation of words: none holds a pointer.
	ne, ns := (total+63)/64, (n+2)/2
	nb := 0
	if !p.owned {
		nb = (total + 7) / 8
	}
	words := make([]uint64, ne+ns+nb)
	ends := words[:ne:ne]
	starts := unsafe.Slice((*int32)(unsafe.Pointer(&words[ne])), 2*ns)[:n+1]
	all := p.text // the owned text is laid out as all
	var buf []byte
	if !p.owned {
		buf = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words[ne+ns:]))), total)
	}
	at := 0
	for r := range int32(n) {
		b := p.pattern(r)
		starts[r] = int32(at)
		if buf != nil {
			copy(buf[at:], b) // the end item's byte stays 0
		}
		at += len(b)
		ends[at>>6] |= 1 << (at & 63)
		at++
	}
	starts[n] = int32(at)
	if buf != nil {
		all = unsafe.String(unsafe.SliceData(buf), len(buf)) // buf is not written again
	}
	p.itemLayout = &itemLayout{all: all, ends: ends, starts: starts}
}

// anchored reports whether the pattern of rank r is anchored.
func (p *prog) anchored(r int32) bool { return hasBit(p.words, int(r)) }

// setBit and hasBit treat words as a set of small integers: i is bit
// i&15 of words[i>>4] (a prog's anchored patterns and stop sets, the
// direct matcher's bytes after the lead).
func setBit(words []uint16, i int) { words[i>>4] |= 1 << (i & 15) }

func hasBit(words []uint16, i int) bool { return words[i>>4]&(1<<(i&15)) != 0 }

// Item kinds.
const (
	itemLiteral = iota
	itemStar
	itemEnd
)

// pattern returns the bytes of the pattern of rank r (its end item left
// out).
func (p *prog) pattern(r int32) string { return p.spanOf(p.text, r) }

// rank returns the rank of the pattern item it belongs to.
func (p *prog) rank(it int32) int32 {
	lo, hi := 0, len(p.starts)-2
	for lo < hi {
		mid := int(uint(lo+hi+1) >> 1)
		if p.starts[mid] <= it {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return int32(lo)
}

// samePattern reports whether items a <= b belong to one pattern: no end
// item lies in [a, b). It is rank(a) == rank(b) without a search.
func (p *prog) samePattern(a, b int32) bool {
	wa, wb := a>>6, b>>6
	lo := ^uint64(0) << (a & 63)
	if wa == wb {
		return p.ends[wa]&lo&(1<<(b&63)-1) == 0
	}
	if p.ends[wa]&lo != 0 || p.ends[wb]&(1<<(b&63)-1) != 0 {
		return false
	}
	for w := wa + 1; w < wb; w++ {
		if p.ends[w] != 0 {
			return false
		}
	}
	return true
}

// kind returns the kind of item it.
func (p *prog) kind(it int32) uint8 {
	switch {
	case p.ends[it>>6]&(1<<(it&63)) != 0:
		return itemEnd
	case p.all[it] == Wildcard:
		return itemStar
	}
	return itemLiteral
}

// Row layout: one cell per byte class, then three 32-bit words of answers
// at word ansAt of the row.
const (
	colEOI  = 0 // answer if the input ends in this state: an anchored pattern at its end (rank+1, 0 none)
	colAcc  = 1 // answer completed on entering this state (rank+1, 0 none)
	colMin  = 2 // rank+1 of the best pattern still alive in this state; noAlive if none
	nExtra  = 3
	noAlive = ^uint32(0) >> 1
)

// A state is a set of items, factored in two. P is the set of stars reached
// (at most one per pattern, its last: that star matches everything earlier
// items could): a star persists on every byte, and so does the item just
// after it, so P is interned once per generation with, per byte class, the
// items it advances. T is the set of the other items, the partial matches in
// progress (literal items, and anchored end items waiting for the input to
// end); it is small. A transition whose patterns reach no new star costs
// O(|T| + the items P advances on that class), not O(|P|); one in which a
// pattern reaches a later star makes a new star set, which costs O(|P|) to
// merge, hash and intern. On files where thousands of stars are alive that
// is what a state costs, and what the give-up policy counts (policy.go).
//
// A star set's items live in its generation's arenas, not in slices of
// their own: a real file's URLs make a dozen star sets, and a slice each
// would be most of the allocations its states cost.
type starSet struct {
	hash uint64
	// In sarena from at: the n stars (sorted star items); then the items
	// after them (star+1), grouped by the class on which they advance, in
	// the order of classes; then each group's end, relative to the first
	// item after the stars.
	at, n int32
	// In carena from cls: the nc classes on which the item after some star
	// advances.
	cls, nc int32
}

// stars returns star set q's stars, sorted.
func (g *generation) stars(q int32) []int32 {
	ps := &g.psets[q]
	return g.sarena[ps.at : ps.at+ps.n : ps.at+ps.n]
}

// starClasses returns the classes on which the item after one of star set
// q's stars advances.
func (g *generation) starClasses(q int32) []byte {
	ps := &g.psets[q]
	return g.carena[ps.cls : ps.cls+ps.nc]
}

// advances returns the items after star set q's stars that advance on its
// k-th class (starClasses(q)[k]).
func (g *generation) advances(q int32, k int) []int32 {
	ps := &g.psets[q]
	adv := ps.at + ps.n
	ends := g.sarena[adv+ps.n:]
	from := int32(0)
	if k > 0 {
		from = ends[k-1]
	}
	return g.sarena[adv+from : adv+ends[k]]
}

// A generation's transition table is rows of stride 32-bit words, read by
// the scan with atomic loads. It is replaced, never resized in place: a
// reader holding an older table sees every state that existed when it was
// replaced, and its offsets stay valid in the newer one. A table's array
// starts with a word that holds its length, and the generation holds an
// atomic pointer to that word, not a slice behind a pointer, so that a
// growth costs one allocation, not two. One pointer gives the array and its
// length together: a reader of a pointer and a length loaded apart could
// pair a new array with an old length, shorter than the rows its cells
// lead to.
//
// A table is narrow or wide. A wide row has one 32-bit word per class, a
// transition value as the package doc says (a row's offset in words, the
// top bit for special states, sentinels at the top). A narrow row packs two
// 16-bit cells per word, class c in word c/2 and its low half when c is
// even, with the same values in 16 bits (narrowSpecial and the sentinels
// 0xFFFC..0xFFFF): half the memory, for tables of up to narrowMaxWords
// words, which is every table a real robots.txt's URLs build. The class
// picks the word and the half, so finding a cell costs the scan a shift
// but no more loads. A generation that outgrows narrowMaxWords is followed
// by a wide one.

// newTable returns a table of n words, all zero, in an array that starts
// with its length (see table).
func newTable(n int) []uint32 {
	a := make([]uint32, n+1)
	a[0] = uint32(n)
	return a[1:]
}

// table returns g's transition table: the words after the length word its
// pointer points to.
func (g *generation) table() []uint32 {
	p := g.tab.Load()
	if p == nil {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Add(unsafe.Pointer(p), 4)), *p)
}

// setTable makes w, from newTable, g's transition table.
func (g *generation) setTable(w []uint32) {
	g.tab.Store((*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(w)), -4)))
}

// Narrow tables.
const (
	narrowSpecial  = 1 << 15
	narrowMaxWords = 0x7FFC // offsets of narrow rows stay below the sentinels
	narrowUnknown  = 0xFFFC // unknownState in 16 bits
)

// widen returns the 32-bit transition value of a narrow cell's value v.
func widen(v uint32) uint32 {
	switch {
	case v >= narrowUnknown:
		return v | 0xFFFF0000 // the sentinels
	case v&narrowSpecial != 0:
		return v&^narrowSpecial | specialBit
	}
	return v
}

// narrowed returns the 16-bit form of transition value v (of a state of a
// narrow table, or a sentinel).
func narrowed(v uint32) uint32 {
	switch {
	case v >= unknownState:
		return v & 0xFFFF
	case v&specialBit != 0:
		return v&^specialBit | narrowSpecial
	}
	return v
}

// setFresh is setCell for a row that no reader can reach yet: plain
// stores, no atomic exchange.
func (g *generation) setFresh(row []uint32, c, v uint32) {
	if !g.narrow {
		row[c] = v
		return
	}
	row[c>>1] = withHalf(row[c>>1], c, v)
}

// withHalf returns the word x of a narrow row with class c's half set to
// transition value v.
func withHalf(x, c, v uint32) uint32 {
	sh := c & 1 * 16
	return x&^(0xFFFF<<sh) | narrowed(v)<<sh
}

// cell returns the transition value of class c in the row at s of w.
func (g *generation) cell(w []uint32, s, c uint32) uint32 {
	if !g.narrow {
		return atomic.LoadUint32(&w[s+c])
	}
	return widen(atomic.LoadUint32(&w[s+c>>1]) >> (c & 1 * 16) & 0xFFFF)
}

// setCell stores transition value v for class c in the row at s of w,
// under d.mu.
func (g *generation) setCell(w []uint32, s, c, v uint32) {
	if !g.narrow {
		atomic.StoreUint32(&w[s+c], v)
		return
	}
	x := &w[s+c>>1]
	atomic.StoreUint32(x, withHalf(atomic.LoadUint32(x), c, v))
}

// generation is one generation of a dfa's cache of states: the states built so far
// and their transitions. The scan reads its table without locking; a cell
// still unknownState is computed under the dfa's mutex (miss), written with
// an atomic store, and then read by everyone. When a generation's memory
// would pass the budget, a new one replaces it, under the same mutex: one
// reset for every goroutine, as RE2 clears its cache. The old generation is
// retired: it never grows again. An input that was running in it goes on
// reading its table, and at its next miss moves to the current generation
// (the successor is computed from the old state and added to the new
// generation), so that a retired generation is held only by inputs that
// finish without another miss, and is collected when they do.
type generation struct {
	// The transition table's length word (see table and setTable).
	tab atomic.Pointer[uint32]
	// s0 and best0 are the state and answer at the start of every input;
	// s0 is deadState when the answer is already final.
	s0, best0 uint32
	// The row layout: narrow or wide (see table), words per row, and the
	// word of a row where its answers start.
	narrow        bool
	stride, ansAt uint32
	wideItems     bool // items take two uint16s in the arena (see item)

	// Everything below, and writes to tab's cells, are guarded by the
	// dfa's mutex.

	// mapped is how many words of a reserved table are prefaulted
	// (prefaultAhead).
	mapped int
	// bytes is the memory held, as counted against prog.budget (account).
	bytes int

	// Star sets, interned: pindex is open addressing over their hashes
	// (id+1, 0 empty). Their items are in sarena, their classes in carena
	// (see starSet).
	psets  []starSet
	pindex []int32
	sarena []int32
	carena []byte

	// States: state k is states[k] (its star set, answer, and T in
	// arena), its row at word k*stride; index is open addressing over
	// their hashes (state+1, 0 empty).
	states []stateInfo
	arena  []uint16 // T sets: an item in one uint16, or two when wideItems
	index  []int32
}

// scratch is where a successor is computed. A scan that misses takes one
// from scratchPool for the rest of its input (scanMissing), so that no
// generation holds one (it would be a tenth of what a real file's automaton
// holds) and the pool is asked once per input, not once per miss.
type scratch struct {
	tnext, newStars, pstars []int32
	order, seen             []int32  // Compile's
	heads, heads2           []uint64 // directFor's
	ends, classOf           []int32  // internStars'
	// work counts the items, stars and cells this input's misses have
	// touched: what building its states cost (see workLimit).
	work int
}

// grow returns (*s)[:n], reallocating *s when it is too short.
func grow(s *[]int32, n int) []int32 {
	if cap(*s) < n {
		*s = make([]int32, n)
	}
	return (*s)[:n]
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// stateInfo is one state of a generation: star set pid, answer acc (what
// completes on entering it), and T, the items from arena[off] to the next
// state's off (see item). One slice of them, not one per field: a
// generation's slices grow a handful of times for a real file's few dozen
// states, and each growth allocates.
type stateInfo struct {
	pid  int32
	acc  uint32
	off  int32  // T ends where the next state's begins
	hash uint32 // hashState's low half: the index rehashes without recomputing it
}

// Memory counted per state and per star set beyond their slices' items,
// for canAdd, and of a generation's fixed parts.
const (
	stateOverhead   = 16 + 2*4 // a stateInfo, two index slots
	starSetOverhead = 24 + 2*4 // a starSet, two index slots
	genOverhead     = 256      // the generation and table structs, slice headers
)

// account counts again the memory g holds: every slice at its capacity.
func (g *generation) account() {
	n := genOverhead + int(unsafe.Sizeof(starSet{}))*cap(g.psets) + 4*cap(g.sarena) + cap(g.carena)
	n += int(unsafe.Sizeof(stateInfo{})) * cap(g.states)
	n += 2*cap(g.arena) + 4*(len(g.index)+len(g.pindex)+len(g.table())+1)
	g.bytes = n
}

// newGen returns a generation (g, zero, or a new one when g is nil), with
// a narrow or wide table, holding the start state and, when stars is not
// nil, the state (stars, acc, t) (a successor computed in an older
// generation), whose transition value it also returns.
func (p *prog) newGen(g *generation, sc *scratch, narrow bool, stars []int32, acc uint32, t []int32) (*generation, uint32) {
	if g == nil {
		g = new(generation)
	}
	g.narrow, g.wideItems = narrow, len(p.all) > 1<<16
	g.ansAt = p.nclass
	if narrow {
		g.ansAt = (p.nclass + 1) / 2
	}
	g.stride = g.ansAt + nExtra
	if p.reserve > 0 {
		// Mapped as rows are added (prefaultAhead): mapping the whole
		// reservation at once would cost an input that builds a few
		// states, such as check with one URL, more than it saves.
		g.setTable(newTable(g.tableWords(int(p.reserve))))
	}
	// The indexes start in one allocation (each is replaced when it
	// grows), and the arena with room for the start state's items and
	// its successor's, as many as the patterns each.
	idx := make([]int32, 2*initialRows+initialStarSets)
	g.index, g.pindex = idx[:2*initialRows:2*initialRows], idx[2*initialRows:]
	g.states = make([]stateInfo, 0, initialRows)
	g.arena = make([]uint16, 0, g.itemWords()*2*p.count())
	// Start: every pattern at its first item, no stars yet.
	if stars != nil {
		// sc may hold them, and computing the start state overwrites sc.
		stars, t = slices.Clone(stars), slices.Clone(t)
	}
	empty := g.internStars(p, sc, nil)
	sc.begin()
	acc0 := uint32(0)
	for r := 0; r+1 < len(p.starts); r++ {
		acc0 = sc.add(p, p.starts[r], acc0)
	}
	start := g.finish(p, sc, g.nextStars(p, sc, empty), acc0)
	g.s0, g.best0 = deadState, 0
	if start != deadState {
		g.s0, g.best0 = enter(g.table(), g.ansAt, start, 0)
	}
	v := uint32(0)
	if stars != nil {
		sc.begin()
		sc.tnext = append(sc.tnext, t...)
		v = g.finish(p, sc, g.internStars(p, sc, stars), acc)
	}
	return g, v
}

// enter returns the state and best answer after entering state t (a
// transition value, not a sentinel) with best answer best: for a state in
// which a pattern completes, the better answer, and deadState when no
// pattern still alive can beat it. The scan loops and scanMissing call it
// on every state they enter.
func enter(w []uint32, ansAt, t, best uint32) (uint32, uint32) {
	if t&specialBit == 0 {
		return t, best
	}
	t &^= specialBit
	best = better(best, w[t+ansAt+colAcc])
	if best <= w[t+ansAt+colMin] {
		return deadState, best
	}
	return t, best
}

// tset returns state k's T, as stored in the arena: see item.
func (g *generation) tset(k int32) []uint16 {
	end := int32(len(g.arena))
	if int(k)+1 < len(g.states) {
		end = g.states[k+1].off
	}
	return g.arena[g.states[k].off:end]
}

// item returns item i of a T set stored in the arena: one uint16 when the
// automaton has at most 65536 items (every real robots.txt but the largest
// generated ones), else two (high half first). Half the memory of int32s
// for the sets that a state keeps only to compute its successors.
func (g *generation) item(t []uint16, i int) int32 {
	if g.wideItems {
		return int32(t[2*i])<<16 | int32(t[2*i+1])
	}
	return int32(t[i])
}

// itemWords returns the arena words an item takes: 1, or 2 when wideItems.
func (g *generation) itemWords() int {
	if g.wideItems {
		return 2
	}
	return 1
}

// items returns the number of items of a T set stored in the arena.
func (g *generation) items(t []uint16) int { return len(t) / g.itemWords() }

// equalT reports whether the stored T set t holds the items out.
func (g *generation) equalT(t []uint16, out []int32) bool {
	if g.items(t) != len(out) {
		return false
	}
	for i, it := range out {
		if g.item(t, i) != it {
			return false
		}
	}
	return true
}

// begin readies the scratch for a new successor.
func (sc *scratch) begin() {
	sc.tnext = sc.tnext[:0]
	sc.newStars = sc.newStars[:0]
}

// add puts item it into the successor being built and returns acc updated
// with the pattern it completes, if any.
func (sc *scratch) add(p *prog, it int32, acc uint32) uint32 {
	switch p.kind(it) {
	case itemEnd:
		if r := p.rank(it); !p.anchored(r) {
			// The pattern stays alive (its stars keep looping): dropping
			// it would split every family of states after each
			// completion, and the scan tracks the best answer itself.
			return better(acc, uint32(r)+1)
		}
	case itemStar:
		// A star also matches the empty run: the item after it is
		// implied by the star (its star set advances it).
		sc.newStars = append(sc.newStars, it)
		return acc
	}
	sc.tnext = append(sc.tnext, it)
	return acc
}

// successor computes, into the scratch, the successor of state k on class
// c, and returns its star set and answer for finish.
func (g *generation) successor(p *prog, sc *scratch, k int32, c uint32) (int32, uint32) {
	sc.begin()
	acc := uint32(0)
	q := g.states[k].pid
	classes := g.starClasses(q)
	if i := bytes.IndexByte(classes, byte(c)); i >= 0 {
		adv := g.advances(q, i)
		for _, it := range adv {
			acc = sc.add(p, it+1, acc)
		}
		sc.work += len(adv)
	}
	t := g.tset(k)
	sc.work += len(classes) + g.items(t)
	for i := range g.items(t) {
		if it := g.item(t, i); uint32(p.classes[p.all[it]]) == c && p.kind(it) == itemLiteral {
			acc = sc.add(p, it+1, acc)
		}
	}
	return g.states[k].pid, acc
}

// nextStars returns the star set after the successor being built: star set
// q's stars, less those of patterns that reached a later star, plus the new
// stars (the last per pattern). It returns q itself when nothing changed.
func (g *generation) nextStars(p *prog, sc *scratch, q int32) int32 {
	if len(sc.newStars) == 0 {
		return q
	}
	return g.internStars(p, sc, sc.mergeStars(p, g.stars(q)))
}

// mergeStars returns, in sc.pstars, the stars old (sorted) with the new
// stars of the successor being built, keeping the last star per pattern.
func (sc *scratch) mergeStars(p *prog, old []int32) []int32 {
	slices.Sort(sc.newStars)
	sc.pstars = sc.pstars[:0]
	sc.work += len(old) + len(sc.newStars)
	i, j := 0, 0
	for i < len(old) || j < len(sc.newStars) {
		var it int32
		if j >= len(sc.newStars) || (i < len(old) && old[i] < sc.newStars[j]) {
			it = old[i]
			i++
		} else {
			it = sc.newStars[j]
			j++
		}
		if n := len(sc.pstars); n > 0 && p.samePattern(sc.pstars[n-1], it) {
			sc.pstars[n-1] = it // a later star of the same pattern wins
			continue
		}
		sc.pstars = append(sc.pstars, it)
	}
	return sc.pstars
}

// finish turns the successor being built (star set q of g, sc.tnext and
// acc) into a transition value: the dead state, or a state's offset, marked
// special when it accepts. It adds the state when new, past the budget too:
// the caller checks the budget first (canAdd).
func (g *generation) finish(p *prog, sc *scratch, q int32, acc uint32) uint32 {
	stars := g.stars(q)
	// Transient items: sorted, without duplicates, and without those before
	// their pattern's star (the star matches everything they could).
	t := sc.tnext
	if !slices.IsSorted(t) { // items of T alone advance in order
		slices.Sort(t)
	}
	t = slices.Compact(t)
	out := t
	if len(stars) > 0 {
		out = t[:0]
		// Both are sorted: walk stars along t (j is the first star at or
		// after it), unless stars are many more than t and a search each
		// costs less than the walk.
		search := len(stars) > 8*len(t)
		if search {
			sc.work += len(t) * bits.Len(uint(len(stars)))
		} else {
			sc.work += len(stars)
		}
		j := 0
		for _, it := range t {
			if search {
				j, _ = slices.BinarySearch(stars, it)
			} else {
				for j < len(stars) && stars[j] < it {
					j++
				}
			}
			if j < len(stars) && p.samePattern(it, stars[j]) {
				continue // a later star of its pattern
			}
			out = append(out, it)
		}
	}
	sc.tnext = out
	if len(out) == 0 && len(stars) == 0 && acc == 0 {
		return deadState
	}
	h := hashState(q, acc, out)
	mask := uint64(len(g.index) - 1)
	i := h & mask
	for ; g.index[i] != 0; i = (i + 1) & mask {
		k := g.index[i] - 1
		if st := &g.states[k]; st.hash == uint32(h) && st.pid == q && st.acc == acc && g.equalT(g.tset(k), out) {
			return g.value(k)
		}
	}
	k := int32(len(g.states))
	g.states = append(g.states, stateInfo{pid: q, acc: acc, off: int32(len(g.arena)), hash: uint32(h)})
	for _, it := range out {
		if g.wideItems {
			g.arena = append(g.arena, uint16(it>>16))
		}
		g.arena = append(g.arena, uint16(it))
	}
	g.index[i] = k + 1
	if 2*len(g.states) > len(g.index) {
		g.index = rehash(g.index, len(g.states), func(k int) uint64 { return uint64(g.states[k].hash) })
	}
	sc.work += len(out) + int(g.stride) + int(g.psets[q].nc)
	g.addRow(p, k, q, out, stars, acc)
	g.account()
	return g.value(k)
}

// bigTableWords is the size (128 KiB) from which a table doubles again
// when it grows, instead of growing by half. Each growth copies the table
// into new memory, and the copy's pages are what a big table's growth
// costs: fewer, larger growths fault fewer pages, while the small tables
// the corpus's files build waste less growing by half (LIMITS.md has the
// measurement).
const bigTableWords = 128 << 10 / 4

// tableWords returns the size, in words, of a table of g that wants n: n,
// but at most narrowMaxWords when g is narrow.
func (g *generation) tableWords(n int) int {
	if g.narrow {
		return min(n, narrowMaxWords)
	}
	return n
}

// initialRows is the rows of a generation's first table: the start state
// and the first few states the first input builds. initialStarSets is the
// star sets its index starts with room for (half its slots).
const (
	initialRows     = 8
	initialStarSets = 8
)

// addRow appends state k's row (star set q, T = t): its answers, and its
// transitions unknown but for the escape and End columns and the classes
// that advance no item. Those lead where miss would find they do without
// computing a successor: to the dead state when k has no star, else to the
// state of k's stars alone if it exists (k itself, when that is k). Most
// bytes of most URLs are such bytes; each would otherwise cost a miss.
func (g *generation) addRow(p *prog, k, q int32, t, stars []int32, acc uint32) {
	tab := g.table()
	base := uint32(k) * g.stride
	if need := int(base + g.stride); need > len(tab) {
		// Double up to 32 rows, then grow by half: over the corpus's URLs
		// that leaves a sixth of a table unused, not a quarter, for a
		// sixth more bytes allocated while the states are built. From
		// bigTableWords on, double again. The old table stays valid for
		// readers still holding it.
		grown := 2 * len(tab)
		if len(tab) >= 32*int(g.stride) && len(tab) < bigTableWords {
			grown = len(tab) + len(tab)/2
		}
		// canAdd checked need against a narrow table's limit.
		w := newTable(g.tableWords(max(need, grown, initialRows*int(g.stride))))
		if p.reserve > 0 { // a process deciding many inputs: see newGen
			g.mapped = prefaultAhead(w, 0, need) // before copy writes the old rows
		}
		copy(w, tab)
		tab = w
		defer g.setTable(tab) // after the row is written
	}
	if p.reserve > 0 && int(base+g.stride) > g.mapped {
		g.mapped = prefaultAhead(tab, g.mapped, int(base+g.stride))
	}
	// Nothing reads the row before a cell leading to it is stored.
	row := tab[base : base+g.stride]
	// Every cell to other, then unknown where an item advances.
	other, unknown := g.otherValue(q), unknownState
	if g.narrow {
		other, unknown = narrowed(other)*0x10001, narrowUnknown*0x10001
	}
	for c := range row[:g.ansAt] {
		row[c] = other
	}
	if other != unknown {
		for _, it := range t {
			if p.kind(it) == itemLiteral {
				g.setFresh(row, uint32(p.classes[p.all[it]]), unknownState)
			}
		}
		for _, c := range g.starClasses(q) {
			g.setFresh(row, uint32(c), unknownState)
		}
	}
	if p.escClass >= 0 {
		g.setFresh(row, uint32(p.escClass), escapeState)
	}
	if p.endClass >= 0 {
		g.setFresh(row, uint32(p.endClass), endState)
	}
	// Items are numbered in rank order: the first of each set is its best.
	eoi, minRank := uint32(0), noAlive
	if len(stars) > 0 {
		minRank = uint32(p.rank(stars[0])) + 1
	}
	if len(t) > 0 {
		minRank = min(minRank, uint32(p.rank(t[0]))+1)
	}
	for _, it := range t {
		if p.kind(it) == itemEnd { // only anchored ends are kept in a set
			eoi = better(eoi, uint32(p.rank(it))+1)
		}
	}
	row[g.ansAt+colEOI] = eoi
	row[g.ansAt+colAcc] = acc
	row[g.ansAt+colMin] = minRank
}

// otherValue returns the transition value, from a state of star set q, of
// a class on which no item advances: the dead state when q is empty, the
// state of q's stars alone if it exists, else unknownState.
func (g *generation) otherValue(q int32) uint32 {
	if g.psets[q].n == 0 {
		return deadState
	}
	h := hashState(q, 0, nil)
	mask := uint64(len(g.index) - 1)
	for i := h & mask; g.index[i] != 0; i = (i + 1) & mask {
		k := g.index[i] - 1
		if st := &g.states[k]; st.pid == q && st.acc == 0 && len(g.tset(k)) == 0 {
			return g.value(k)
		}
	}
	return unknownState
}

// value is the transition value of state k.
func (g *generation) value(k int32) uint32 {
	v := uint32(k) * g.stride
	if g.states[k].acc != 0 {
		v |= specialBit
	}
	return v
}

// rehash returns index doubled, with the hashes of the n entries placed
// again.
func rehash(index []int32, n int, hash func(int) uint64) []int32 {
	index = make([]int32, 2*len(index))
	mask := uint64(len(index) - 1)
	for k := 0; k < n; k++ {
		i := hash(k) & mask
		for index[i] != 0 {
			i = (i + 1) & mask
		}
		index[i] = int32(k) + 1
	}
	return index
}

// internStars returns the id of the star set stars (sorted), adding it with
// its per-class advances when new.
func (g *generation) internStars(p *prog, sc *scratch, stars []int32) int32 {
	sc.work += len(stars)
	h := hashState(-1, 0, stars)
	mask := uint64(len(g.pindex) - 1)
	i := h & mask
	for ; g.pindex[i] != 0; i = (i + 1) & mask {
		id := g.pindex[i] - 1
		if g.psets[id].hash == h && slices.Equal(g.stars(id), stars) {
			return id
		}
	}
	sc.work += 2 * len(stars)
	// The classes in the order their first star reaches them, each star's
	// class among them, and how many stars each has.
	ps := starSet{hash: h, at: int32(len(g.sarena)), n: int32(len(stars)), cls: int32(len(g.carena))}
	ends, classOf := sc.ends[:0], sc.classOf[:0]
	for _, s := range stars {
		c := p.classes[p.all[s+1]] // a literal: stars are collapsed and never last
		k := bytes.IndexByte(g.carena[ps.cls:], c)
		if k < 0 {
			g.carena = append(g.carena, c)
			ends = append(ends, 0)
			k = len(ends) - 1
		}
		ends[k]++
		classOf = append(classOf, int32(k))
	}
	ps.nc = int32(len(ends))
	// The stars, then the items after them, grouped: ends[k] starts as
	// group k's first place and, once its items are in, is its end.
	at := int32(0)
	for k, n := range ends {
		ends[k], at = at, at+n
	}
	g.sarena = append(g.sarena, stars...)
	adv := len(g.sarena)
	g.sarena = slices.Grow(g.sarena, len(stars)+len(ends))[:adv+len(stars)]
	for i, s := range stars {
		k := classOf[i]
		g.sarena[adv+int(ends[k])] = s + 1
		ends[k]++
	}
	g.sarena = append(g.sarena, ends...)
	sc.ends, sc.classOf = ends, classOf
	id := int32(len(g.psets))
	g.psets = append(g.psets, ps)
	g.pindex[i] = id + 1
	if 2*len(g.psets) > len(g.pindex) {
		g.pindex = rehash(g.pindex, len(g.psets), func(k int) uint64 { return g.psets[k].hash })
	}
	g.account()
	return id
}

func hashState(p int32, acc uint32, set []int32) uint64 {
	h := uint64(uint32(p))<<32 | uint64(acc)
	if len(set) > 0 {
		h ^= maphash.Bytes(hashSeed, unsafe.Slice((*byte)(unsafe.Pointer(&set[0])), 4*len(set)))
	}
	// The tables index by the low bits: mix the high ones in.
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>32
}

// stateIndex returns the state number of a transition value (not a
// sentinel).
func (g *generation) stateIndex(v uint32) int32 { return int32((v &^ specialBit) / g.stride) }

// What canAdd says of a new state.
const (
	addOK   = iota
	addFull // the budget is spent: clear the cache
	addWide // the narrow table is full, not the budget: go on wide
)

// canAdd says whether g may add a state whose T has n items, with its row
// and possibly a new star set of m stars, within the budget. A generation
// with fewer than two states always may: the start state and one more
// exist whatever the budget.
func (g *generation) canAdd(p *prog, n, m int) int {
	if len(g.states) < 2 {
		return addOK
	}
	need := stateOverhead + 4*n + starSetOverhead + 13*m
	if k := len(g.sarena) + 3*m; k > cap(g.sarena) {
		need += 4 * max(k, 2*cap(g.sarena)) // the arena grows
	}
	rows := (len(g.states) + 1) * int(g.stride)
	if words := len(g.table()); rows > words {
		need += 4 * max(words, initialRows*int(g.stride)) // the table grows (at most doubles)
	}
	switch {
	case g.bytes+need > int(p.budget):
		return addFull
	case g.narrow && rows > narrowMaxWords:
		return addWide
	}
	return addOK
}

// miss computes the transition of state s of generation g on class c (a
// cell the scan found unknown) and returns the generation to go on in, that
// generation's table, and the transition value: a state of that
// generation. It is the only place that takes the dfa's mutex.
//
// When g is the current generation the transition is stored in g's table
// for every later input. When g is full, a new generation replaces it (one
// reset, shared by every goroutine) holding the successor. When g was
// retired by another input's reset, the successor is computed from g's
// state and added to the current generation, where the input goes on.
func (d *dfa) miss(g *generation, sc *scratch, s, c uint32) (*generation, []uint32, uint32) {
	p := &d.prog
	d.mu.Lock()
	defer d.mu.Unlock()
	cur := d.cur.Load()
	if g == cur {
		w := g.table()
		if t := g.cell(w, s, c); t != unknownState { // another input filled it
			return g, w, t
		}
	}
	q, acc := g.successor(p, sc, g.stateIndex(s), c)
	// The successor's stars: g's star set q, or (with new stars, or when g
	// is retired) a list to intern in the generation it goes to.
	var stars []int32
	move := g != cur || len(sc.newStars) > 0 // q is not cur's set as it is
	if move {
		stars = g.stars(q)
		if len(sc.newStars) > 0 {
			stars = sc.mergeStars(p, stars)
		}
	}
	fit := cur.canAdd(p, len(sc.tnext), len(stars))
	if fit == addOK {
		if move {
			q = cur.internStars(p, sc, stars)
		}
		t := cur.finish(p, sc, q, acc)
		w := cur.table()
		if g == cur {
			cur.setCell(w, s, c, t)
		}
		d.curBytes.Store(int32(cur.bytes))
		return cur, w, t
	}
	// cur is full: a new generation replaces it, wide if cur was narrow and
	// only its table was full.
	if !move {
		stars = cur.stars(q)
	}
	if stars == nil {
		stars = []int32{} // newGen reads nil as "no successor to build"
	}
	n, t := p.newGen(nil, sc, cur.narrow && fit == addFull, stars, acc, sc.tnext)
	d.cur.Store(n)
	d.curBytes.Store(int32(n.bytes))
	if fit == addFull {
		d.clears.Add(1)
	}
	return n, n.table(), t
}
