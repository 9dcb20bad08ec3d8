package automaton

import (
	"slices"
	"strings"
	"sync"
)

// Positions. Every pattern contributes one item per byte plus one final item;
// items are laid out pattern after pattern in rank order, so sorting a set of
// item numbers sorts it by rank, then by position in the pattern.
const (
	itemLiteral = iota
	itemStar
	itemEnd
)

type item struct {
	kind     uint8
	b        byte
	anchored bool
	rank     int32 // pattern rank
}

// Row layout: one cell per byte class, then three cells of answers.
const (
	colEOI  = 0 // answer if the input ends in this state: an anchored pattern at its end (rank+1, 0 none)
	colAcc  = 1 // answer completed on entering this state (rank+1, 0 none)
	colMin  = 2 // rank+1 of the best pattern still alive in this state; noAlive if none
	nExtra  = 3
	noAlive = ^uint32(0) >> 1
)

// A state's position set is factored in two. P is the set of stars reached
// (at most one per pattern, its last: the star matches everything earlier
// positions could): a star persists on every byte, and so does the position
// just after it, so P is interned once with, per byte class, the positions
// it advances. T is the set of the other positions, the partial matches in
// progress; it is small. A transition then costs O(|T| + the positions P
// advances on that class), not O(|P|) per class.
type starSet struct {
	stars   []int32   // sorted star items
	classes []uint8   // classes on which some star's next position advances
	adv     [][]int32 // adv[k]: the star+1 items that advance on classes[k]
}

type builder struct {
	items  []item
	nclass int
	class  [256]uint8
	fast   [256]uint8
	// escClass is the escape class, -1 if none; endClass the class of the
	// End bytes, -1 if none.
	escClass, endClass int
	inv                uint64 // strideInverse(stride)
	hasFast            bool
	stride             uint32
	budget             int
	// work counts items handled; construction gives up past workBudget.
	work, workBudget int

	// Star sets, interned.
	psets  []starSet
	pindex map[uint64]int32

	// States: state k is (pid[k], acc[k], T = arena[off[k]:off[k+1]]).
	pid    []int32
	accs   []uint32
	arena  []int32
	off    []int32
	hashes []uint64 // hashes[k]: state k's hash
	table  []int32  // open addressing over hashes: state+1, 0 empty; a power of two long
	trans  []uint32

	// Scratch for building one successor.
	tnext    []int32 // transient items
	newStars []int32
	mark     []uint32 // per item: generation when added
	gen      uint32
	bucket   [256][]int32
	clsMark  [256]uint32
	clsGen   uint32
	seen     []uint8
	pstars   []int32
	nrank    int     // number of pattern ranks
	starOf   []int32 // rank -> star of star set `loaded`, -1 none
	loaded   int32
	pcls     [256]int32  // class -> index in the current star set's classes
	pclsMark [256]uint32 // valid when equal to clsGen
	sorted   []rankedPattern
	starts   []int32

	// firsts[k] is state k's first successor (see chainOrder), noted by
	// fillRow (in buildTrie, each node's best child); renum and order are
	// scratch of chainOrder and buildTrie.
	firsts, renum, order []int32
}

// builders keeps builders and their scratch between Compile calls: a set of
// a few patterns then costs little more than its transition table. One
// Compile uses one builder for all its automata.
var builders = sync.Pool{New: func() any {
	return &builder{pindex: make(map[uint64]int32)}
}}

// maxPooledTable is the largest state table a pooled builder keeps; a
// larger one (from a big build) is dropped rather than cleared for every
// small build after it.
const maxPooledTable = 1 << 12

// maxPooledCells is the largest scratch (transition cells, items, T sets)
// a pooled builder keeps: small builds, the common case, reuse it; the
// scratch of a big build is left to the collector rather than held.
const maxPooledCells = 1 << 16

// release drops scratch too big to keep in the pool, once a Compile is
// done with b.
func (b *builder) release() {
	if cap(b.trans) > maxPooledCells {
		b.trans = nil
	}
	if cap(b.arena) > maxPooledCells {
		b.arena = nil
	}
	if cap(b.mark) > maxPooledCells {
		b.mark = nil
	}
	if cap(b.items) > maxPooledCells {
		b.items = nil
	}
	if cap(b.pid) > maxPooledCells {
		b.pid, b.accs, b.off, b.hashes = nil, nil, nil, nil
		b.firsts, b.renum, b.order = nil, nil, nil
	}
	if len(b.psets) > maxPooledCells/64 {
		b.psets = nil
	}
	if len(b.table) > maxPooledTable {
		b.table = nil
	}
}

// reset readies a pooled builder for a new build. Marks keep their
// generations: values from earlier builds are below the current one.
func (b *builder) reset(budget, workBudget int) {
	b.budget, b.workBudget, b.work = budget, workBudget, 0
	b.class, b.fast = [256]uint8{}, [256]uint8{}
	b.items = b.items[:0]
	b.psets = b.psets[:0]
	clear(b.pindex)
	b.pid, b.accs, b.arena, b.off, b.hashes = b.pid[:0], b.accs[:0], b.arena[:0], b.off[:0], b.hashes[:0]
	if len(b.table) == 0 || len(b.table) > maxPooledTable {
		b.table = make([]int32, 64)
	} else {
		clear(b.table)
	}
	b.trans = b.trans[:0]
	b.tnext, b.newStars, b.seen, b.pstars = b.tnext[:0], b.newStars[:0], b.seen[:0], b.pstars[:0]
	b.firsts = b.firsts[:0]
	b.loaded = -1
	for c := range b.bucket { // a build that failed mid-row leaves some filled
		b.bucket[c] = b.bucket[c][:0]
	}
}

// forceSubset makes build use subset construction for wildcard-free sets
// too: the tests compare its automata with buildTrie's.
var forceSubset = false

// build constructs one automaton for ps, or returns errBudget when it would
// need more than budget states or workBudget work.
// b's scratch is reused from one build to the next.
func (b *builder) build(ps []rankedPattern, budget, workBudget int, escape, end string) (d *dfa, work int, err error) {
	b.reset(budget, workBudget)
	defer func() { work = b.work }()
	var used, isEnd [256]bool
	for i := 0; i < len(end); i++ {
		isEnd[end[i]] = true
	}
	for _, p := range ps {
		for i := 0; i < len(p.bytes); i++ {
			if c := p.bytes[i]; c != Wildcard && !isEnd[c] {
				used[c] = true
			}
		}
	}
	// Class 0 holds the bytes no pattern names; then one class per byte
	// that one does; then the End bytes' class.
	b.nclass = 1
	others := false
	for c := 0; c < 256; c++ {
		if used[c] {
			b.class[c] = uint8(b.nclass)
			b.nclass++
		} else {
			b.class[c] = 0
			others = others || !isEnd[c]
		}
	}
	if !others { // every byte is a literal or an End byte: class 0 is empty, drop it
		for c := 0; c < 256; c++ {
			b.class[c]--
		}
		b.nclass--
	}
	b.endClass = -1
	if end != "" { // fits: at most 256-len(end) bytes have a class of their own
		b.endClass = b.nclass
		b.nclass++
		for i := 0; i < len(end); i++ {
			b.class[end[i]] = uint8(b.endClass)
		}
	}
	// The escape class: a class index no byte of b.class maps to, used only
	// by the fast map, whose column holds escapeState in every row.
	b.fast = b.class
	if escape != "" && b.nclass < 256 {
		b.escClass = b.nclass
		b.nclass++
		for i := 0; i < len(escape); i++ {
			if !isEnd[escape[i]] {
				b.fast[escape[i]] = uint8(b.escClass)
			}
		}
		b.hasFast = true
	} else if escape == "" {
		b.hasFast = true // no escapes: the fast map is the class map
		b.escClass = -1
	} else {
		b.escClass = -1
	}
	b.stride = uint32(b.nclass + nExtra)
	b.inv = strideInverse(b.stride)

	sorted := append(b.sorted[:0], ps...)
	b.sorted = sorted
	slices.SortFunc(sorted, func(x, y rankedPattern) int { return int(x.rank - y.rank) })
	if !forceSubset && !slices.ContainsFunc(sorted, func(p rankedPattern) bool { return strings.IndexByte(p.bytes, Wildcard) >= 0 }) {
		d, err := b.buildTrie(sorted)
		return d, 0, err
	}
	starts := b.starts[:0]
	maxRank := int32(0)
	for _, p := range sorted {
		starts = append(starts, int32(len(b.items)))
		for i := 0; i < len(p.bytes); i++ {
			it := item{kind: itemLiteral, b: p.bytes[i], rank: p.rank}
			if p.bytes[i] == Wildcard {
				it.kind = itemStar
			}
			b.items = append(b.items, it)
		}
		b.items = append(b.items, item{kind: itemEnd, anchored: p.anchored, rank: p.rank})
		maxRank = max(maxRank, p.rank)
	}
	b.starts = starts
	b.mark = slices.Grow(b.mark[:0], len(b.items))[:len(b.items)]
	b.nrank = int(maxRank) + 1
	b.starOf = slices.Grow(b.starOf[:0], b.nrank)[:b.nrank]
	for i := range b.starOf {
		b.starOf[i] = -1
	}
	b.off = append(b.off, 0)

	// Start: every pattern at its first position, with no stars yet.
	empty := b.internStars(nil)
	b.begin()
	acc := uint32(0)
	for _, st := range starts {
		acc = b.add(st, acc)
	}
	start, err := b.finish(empty, acc)
	if err != nil {
		return nil, 0, err
	}
	for k := 0; k < len(b.pid); k++ {
		if err := b.fillRow(int32(k)); err != nil {
			return nil, 0, err
		}
	}
	trans, start := b.chainOrder(b.trans[:len(b.pid)*int(b.stride)], start, b.firsts)
	return b.dfa(trans, start, len(b.pid)), 0, nil
}

// dfa returns the automaton of the builder's class maps with the given
// transition table (its states in chainOrder).
func (b *builder) dfa(trans []uint32, start uint32, nstates int) *dfa {
	d := &dfa{
		classes:  b.class,
		fast:     b.fast,
		hasFast:  b.hasFast,
		hasEnd:   b.endClass >= 0,
		endClass: uint8(max(b.endClass, 0)),
		stride:   b.stride,
		nclass:   uint32(b.nclass),
		trans:    trans,
		start:    start,
		nstates:  nstates,
	}
	d.setBegin()
	return d
}

func (b *builder) tset(k int32) []int32 { return b.arena[b.off[k]:b.off[k+1]] }

// fillRow computes the transitions and answers of state k.
func (b *builder) fillRow(k int32) error {
	p := b.pid[k]
	t := b.tset(k)
	b.work += len(t) + len(b.psets[p].classes)
	// Bucket T's literal items by class; note the classes P advances on.
	b.clsGen++
	if b.clsGen == 0 { // wrapped
		b.clsMark, b.pclsMark = [256]uint32{}, [256]uint32{}
		b.clsGen = 1
	}
	b.seen = b.seen[:0]
	eoi := uint32(0)
	minRank := noAlive
	if st := b.psets[p].stars; len(st) > 0 {
		minRank = uint32(b.items[st[0]].rank) + 1
	}
	for _, it := range t {
		x := b.items[it]
		minRank = min(minRank, uint32(x.rank)+1)
		switch x.kind {
		case itemLiteral:
			c := b.class[x.b]
			if b.clsMark[c] != b.clsGen {
				b.clsMark[c] = b.clsGen
				b.seen = append(b.seen, c)
			}
			b.bucket[c] = append(b.bucket[c], it)
		case itemEnd: // only anchored ends are kept in a set
			eoi = better(eoi, uint32(x.rank)+1)
		}
	}
	for _, c := range b.psets[p].classes {
		if b.clsMark[c] != b.clsGen {
			b.clsMark[c] = b.clsGen
			b.seen = append(b.seen, c)
		}
	}
	base := uint32(k) * b.stride
	// Default: a byte no position expects. The stars stay; T dies.
	b.begin()
	def, err := b.finish(p, 0)
	if err != nil {
		return err
	}
	first := b.firstAfter(k, def, none)
	row := b.trans[base : base+b.stride]
	for c := 0; c < b.nclass; c++ {
		row[c] = def
	}
	if b.escClass >= 0 {
		row[b.escClass] = escapeState
	}
	for i, c := range b.psets[p].classes {
		b.pcls[c] = int32(i)
		b.pclsMark[c] = b.clsGen
	}
	for _, c := range b.seen {
		b.begin()
		acc := uint32(0)
		if b.pclsMark[c] == b.clsGen {
			for _, it := range b.psets[p].adv[b.pcls[c]] {
				acc = b.add(it+1, acc)
			}
		}
		for _, it := range b.bucket[c] {
			acc = b.add(it+1, acc)
		}
		b.bucket[c] = b.bucket[c][:0]
		v, err := b.finish(p, acc)
		if err != nil {
			return err
		}
		b.trans[base+uint32(c)] = v
		first = b.firstAfter(k, v, first)
	}
	b.firsts = append(b.firsts, first)
	if b.endClass >= 0 { // b.trans may have grown since row was taken
		b.trans[base+uint32(b.endClass)] = endState
	}
	n := uint32(b.nclass)
	b.trans[base+n+colEOI] = eoi
	b.trans[base+n+colAcc] = b.accs[k]
	b.trans[base+n+colMin] = minRank
	return nil
}

func (b *builder) begin() {
	b.tnext = b.tnext[:0]
	b.newStars = b.newStars[:0]
	b.gen++
	if b.gen == 0 { // wrapped: reset marks, also those past len (a pooled builder reuses them)
		clear(b.mark[:cap(b.mark)])
		b.gen = 1
	}
}

// add puts item it and its closure into the successor being built, and
// returns acc updated with any non-anchored pattern it completes.
func (b *builder) add(it int32, acc uint32) uint32 {
	for {
		if b.mark[it] == b.gen {
			return acc
		}
		b.mark[it] = b.gen
		x := b.items[it]
		switch x.kind {
		case itemEnd:
			if !x.anchored {
				// The pattern stays alive (its stars keep looping): dropping
				// it would split every family of states after each
				// completion, and the scan tracks the best answer itself.
				return better(acc, uint32(x.rank)+1)
			}
			b.tnext = append(b.tnext, it)
			return acc
		case itemStar:
			b.newStars = append(b.newStars, it)
			it++ // a star also matches the empty run; star+1 is implied by the star
			b.mark[it] = b.gen
			return acc
		default:
			b.tnext = append(b.tnext, it)
			return acc
		}
	}
}

// finish turns the successor being built (star set p plus b.newStars and
// b.tnext) into a transition value: the dead state,
// or a state's offset, marked special when it accepts.
func (b *builder) finish(p int32, acc uint32) (uint32, error) {
	// The new star set: old stars, less those of patterns that reached a
	// later star, plus the new stars (the last per
	// pattern).
	q := p
	if len(b.newStars) > 0 {
		slices.Sort(b.newStars)
		b.pstars = b.pstars[:0]
		old := b.psets[p].stars
		i, j := 0, 0
		for i < len(old) || j < len(b.newStars) {
			var it int32
			if j >= len(b.newStars) || (i < len(old) && old[i] < b.newStars[j]) {
				it = old[i]
				i++
			} else {
				it = b.newStars[j]
				j++
			}
			r := b.items[it].rank
			if n := len(b.pstars); n > 0 && b.items[b.pstars[n-1]].rank == r {
				b.pstars[n-1] = it // a later star of the same pattern wins
				continue
			}
			b.pstars = append(b.pstars, it)
		}
		q = b.internStars(b.pstars)
	}
	// Transient items: drop those before their pattern's star (the star matches everything they could).
	stars := b.psets[q].stars
	b.loadStars(q)
	t := b.tnext
	slices.Sort(t)
	out := t[:0]
	for _, it := range t {
		r := b.items[it].rank
		if it < b.starOf[r] {
			continue
		}
		out = append(out, it)
	}
	b.work += len(t) + 1
	if b.work > b.workBudget {
		return 0, errBudget
	}
	if len(out) == 0 && len(stars) == 0 && acc == 0 {
		return deadState, nil
	}
	h := hashState(q, acc, out)
	mask := uint64(len(b.table) - 1)
	i := h & mask
	for ; b.table[i] != 0; i = (i + 1) & mask {
		k := b.table[i] - 1
		if b.hashes[k] == h && b.pid[k] == q && b.accs[k] == acc && slices.Equal(b.tset(k), out) {
			return b.value(k), nil
		}
	}
	if len(b.pid) >= b.budget {
		return 0, errBudget
	}
	k := int32(len(b.pid))
	b.pid = append(b.pid, q)
	b.accs = append(b.accs, acc)
	b.hashes = append(b.hashes, h)
	b.arena = append(b.arena, out...)
	b.off = append(b.off, int32(len(b.arena)))
	b.table[i] = k + 1
	if 2*len(b.pid) > len(b.table) {
		b.rehash()
	}
	// A new row; fillRow writes every cell of it.
	n := len(b.trans) + int(b.stride)
	if n > cap(b.trans) {
		b.trans = slices.Grow(b.trans, max(n, 2*cap(b.trans))-len(b.trans))
	}
	b.trans = b.trans[:n]
	return b.value(k), nil
}

// rehash doubles the state table.
func (b *builder) rehash() {
	b.table = make([]int32, 2*len(b.table))
	mask := uint64(len(b.table) - 1)
	for k, h := range b.hashes {
		i := h & mask
		for b.table[i] != 0 {
			i = (i + 1) & mask
		}
		b.table[i] = int32(k) + 1
	}
}

// loadStars makes b.starOf give, for every rank, the star of star set q
// (or -1): a table rebuilt only when q changes.
func (b *builder) loadStars(q int32) {
	if b.loaded == q {
		return
	}
	if b.loaded >= 0 {
		for _, s := range b.psets[b.loaded].stars {
			b.starOf[b.items[s].rank] = -1
		}
	}
	for _, s := range b.psets[q].stars {
		b.starOf[b.items[s].rank] = s
	}
	b.loaded = q
	b.work += len(b.psets[q].stars)
}

// internStars returns the id of the star set stars (sorted), adding it with
// its per-class advances when new.
func (b *builder) internStars(stars []int32) int32 {
	h := hashState(-1, 0, stars)
	if id, ok := b.pindex[h]; ok {
		if slices.Equal(b.psets[id].stars, stars) {
			return id
		}
		// A hash collision: rare, so a linear search will do.
		for i := range b.psets {
			if slices.Equal(b.psets[i].stars, stars) {
				return int32(i)
			}
		}
	}
	ps := starSet{stars: append([]int32(nil), stars...)}
	b.work += len(stars)
	for _, s := range stars {
		nx := b.items[s+1] // a literal: stars are collapsed and never last
		c := b.class[nx.b]
		i := slices.Index(ps.classes, c)
		if i < 0 {
			ps.classes = append(ps.classes, c)
			ps.adv = append(ps.adv, nil)
			i = len(ps.classes) - 1
		}
		ps.adv[i] = append(ps.adv[i], s+1)
	}
	id := int32(len(b.psets))
	b.psets = append(b.psets, ps)
	if _, ok := b.pindex[h]; !ok {
		b.pindex[h] = id
	}
	return id
}

// value is the transition value of state k.
func (b *builder) value(k int32) uint32 {
	v := uint32(k) * b.stride
	if b.accs[k] != 0 {
		v |= specialBit
	}
	return v
}

func hashState(p int32, acc uint32, set []int32) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	h = (h ^ uint64(uint32(p))) * prime
	h = (h ^ uint64(acc)) * prime
	for _, it := range set {
		h = (h ^ uint64(uint32(it))) * prime
	}
	// FNV's low bits depend only on the inputs' low bits; the state table
	// indexes by them, so fold the high bits in.
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>32
}

// none is "no state" in state numbers.
const none = -1

// firstAfter returns the better first successor of state k (see chainOrder)
// of f and the state of transition value v.
func (b *builder) firstAfter(k int32, v uint32, f int32) int32 {
	if v >= endState { // dead, escape or end
		return f
	}
	if n := stateIndex(v, b.inv); n > k && (f == none || n < f) {
		return n
	}
	return f
}

// strideInverse returns ceil(2^32/stride), with which stateIndex divides.
func strideInverse(stride uint32) uint64 {
	return (uint64(1)<<32 + uint64(stride) - 1) / uint64(stride)
}

// stateIndex returns the number of the state of transition value v (not a
// sentinel): its offset divided by the stride, with a multiply by inv =
// strideInverse(stride). That is exact for the multiples of stride below
// 2^31: there v*ceil(2^32/stride)/2^32 exceeds v/stride by less than a
// half, and the product fits in 62 bits, stride being at least 4.
func stateIndex(v uint32, inv uint64) int32 {
	return int32(uint64(v&^specialBit) * inv >> 32)
}

// placeChains numbers nodes as chainOrder does: in visit order (0, 1, ...
// when visit is nil), each node not yet numbered, then the chain of its
// first successors (first[x], none ending it) not yet numbered. renum maps
// a node to its number and must be all none; the nodes are appended to
// order in number order, and the extended order is returned.
func placeChains(visit, first, renum, order []int32) []int32 {
	place := func(n int32) {
		for x := n; x != none && renum[x] == none; x = first[x] {
			renum[x] = int32(len(order))
			order = append(order, x)
		}
	}
	if visit == nil {
		for k := range first {
			place(int32(k))
		}
	} else {
		for _, n := range visit {
			place(n)
		}
	}
	return order
}

// chainOrder renumbers the states of a table so that each state's first
// successor (first[k]: the lowest-numbered state after k that k leads to;
// in the breadth-first numbering of construction, the first state found
// from it, so in a trie its best-ranked child) comes right after it where
// it can: states are taken in their order, each followed by the chain of
// first successors not yet placed. The states along a pattern's bytes then
// get consecutive rows, which scan's chain test follows without waiting
// for the table load. It returns the renumbered table, in new memory, and
// start value.
func (b *builder) chainOrder(trans []uint32, start uint32, first []int32) ([]uint32, uint32) {
	stride, nclass, nstates := b.stride, uint32(b.nclass), len(first)
	renum := slices.Grow(b.renum[:0], nstates)[:nstates]
	for k := range renum {
		renum[k] = none
	}
	b.renum, b.order = renum, placeChains(nil, first, renum, b.order[:0])
	value := func(v uint32) uint32 {
		if v >= endState { // dead, escape or end
			return v
		}
		return uint32(renum[stateIndex(v, b.inv)])*stride | v&specialBit
	}
	out := make([]uint32, nstates*int(stride))
	for k, n := range renum {
		src := trans[uint32(k)*stride : uint32(k+1)*stride]
		dst := out[uint32(n)*stride : uint32(n+1)*stride]
		prev, pv := deadState, deadState
		for c, v := range src[:nclass] {
			if v != prev {
				prev, pv = v, value(v)
			}
			dst[c] = pv
		}
		copy(dst[nclass:], src[nclass:])
	}
	return out, value(start)
}
