package automaton

import (
	"slices"
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
	colMin  = 2 // rank+1 of the best pattern still alive in this state; noneAlive if none
	nExtra  = 3
	noAlive = ^uint32(0) >> 1
)

type builder struct {
	items  []item
	nclass int
	class  [256]uint8
	stride uint32
	budget int
	// work counts set items handled; construction gives up past workBudget.
	work, workBudget int

	// Live states: state k's set is arena[off[k]:off[k+1]].
	arena []int32
	off   []int32
	accs  []uint32
	index map[uint64]int32 // hash of (acc, set) -> first state with it
	chain []int32          // next state with the same hash, -1 at the end
	trans []uint32

	// Scratch.
	next   []int32
	mark   []uint32
	gen    uint32
	bucket [256][]int32
	seen   []uint8
	stars  []int32
}

// build constructs one automaton for ps, or returns errBudget when it would
// need more than budget states.
func build(ps []rankedPattern, budget, workBudget int) (*dfa, error) {
	b := &builder{budget: budget, workBudget: workBudget, index: make(map[uint64]int32)}
	// Byte classes: every byte that appears as a literal gets its own class;
	// all others share class 0.
	var used [256]bool
	for _, p := range ps {
		for i := 0; i < len(p.bytes); i++ {
			if p.bytes[i] != Wildcard {
				used[p.bytes[i]] = true
			}
		}
	}
	b.nclass = 1
	for c := 0; c < 256; c++ {
		if used[c] {
			b.class[c] = uint8(b.nclass)
			b.nclass++
		}
	}
	if b.nclass == 257 { // every byte is a literal: class 0 is empty, drop it
		for c := 0; c < 256; c++ {
			b.class[c]--
		}
		b.nclass = 256
	}
	b.stride = uint32(b.nclass + nExtra)

	// Items, in rank order.
	sorted := append([]rankedPattern(nil), ps...)
	slices.SortFunc(sorted, func(x, y rankedPattern) int { return int(x.rank - y.rank) })
	var starts []int32
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
	}
	b.mark = make([]uint32, len(b.items))
	b.off = append(b.off, 0)

	b.begin()
	acc := uint32(0)
	for _, st := range starts {
		acc = b.add(st, acc)
	}
	start, err := b.finish(acc)
	if err != nil {
		return nil, err
	}
	for k := 0; k < len(b.off)-1; k++ {
		if err := b.fillRow(int32(k)); err != nil {
			return nil, err
		}
	}
	return &dfa{
		classes: b.class,
		stride:  b.stride,
		nclass:  uint32(b.nclass),
		trans:   b.trans,
		start:   start,
		nstates: len(b.off) - 1,
	}, nil
}

func (b *builder) set(k int32) []int32 { return b.arena[b.off[k]:b.off[k+1]] }

// fillRow computes the transitions and answers of live state k.
func (b *builder) fillRow(k int32) error {
	// Stars stay on any byte; literal items advance on their class.
	b.stars = b.stars[:0]
	b.seen = b.seen[:0]
	eoi := uint32(0)
	for _, it := range b.set(k) {
		switch x := b.items[it]; x.kind {
		case itemStar:
			b.stars = append(b.stars, it)
		case itemLiteral:
			c := b.class[x.b]
			if len(b.bucket[c]) == 0 {
				b.seen = append(b.seen, c)
			}
			b.bucket[c] = append(b.bucket[c], it)
		case itemEnd: // only anchored ends stay in a set
			eoi = better(eoi, uint32(x.rank)+1)
		}
	}
	base := uint32(k) * b.stride
	// The default transition: a byte no literal item of this set expects.
	b.begin()
	acc := uint32(0)
	for _, it := range b.stars {
		acc = b.add(it, acc)
	}
	def, err := b.finish(acc)
	if err != nil {
		return err
	}
	row := b.trans[base : base+b.stride]
	for c := 0; c < b.nclass; c++ {
		row[c] = def
	}
	for _, c := range b.seen {
		b.begin()
		acc := uint32(0)
		for _, it := range b.stars {
			acc = b.add(it, acc)
		}
		for _, it := range b.bucket[c] {
			acc = b.add(it+1, acc)
		}
		t, err := b.finish(acc)
		if err != nil {
			return err
		}
		b.trans[base+uint32(c)] = t
		b.bucket[c] = b.bucket[c][:0]
	}
	n := uint32(b.nclass)
	b.trans[base+n+colEOI] = eoi
	b.trans[base+n+colAcc] = b.accs[k]
	b.trans[base+n+colMin] = noAlive
	if s := b.set(k); len(s) > 0 {
		b.trans[base+n+colMin] = uint32(b.items[s[0]].rank) + 1
	}
	return nil
}

func (b *builder) begin() {
	b.next = b.next[:0]
	b.gen++
	if b.gen == 0 { // wrapped: reset marks
		clear(b.mark)
		b.gen = 1
	}
}

// add puts item it and its closure into the set being built, and returns acc
// updated with any non-anchored pattern that it completes.
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
				return better(acc, uint32(x.rank)+1)
			}
			b.next = append(b.next, it)
			return acc
		case itemStar:
			b.next = append(b.next, it)
			it++ // a star also matches the empty run
		default:
			b.next = append(b.next, it)
			return acc
		}
	}
}

// finish prunes and canonicalises the set being built and returns the
// transition value for (set, acc): the dead state, or a state's offset,
// marked special when it accepts.
func (b *builder) finish(acc uint32) (uint32, error) {
	set := b.next
	if !slices.IsSorted(set) {
		slices.Sort(set)
	}
	// Within each pattern, drop the items before its last star: the star
	// matches everything they could. (Items are not pruned by acc: the scan
	// tracks the best answer itself, and pruning here would split every
	// family of states after each completion.)
	out := set[:0]
	for i := 0; i < len(set); {
		r := b.items[set[i]].rank
		j, lastStar := i, -1
		for j < len(set) && b.items[set[j]].rank == r {
			if b.items[set[j]].kind == itemStar {
				lastStar = j
			}
			j++
		}
		from := i
		if lastStar >= 0 {
			from = lastStar
		}
		out = append(out, set[from:j]...)
		i = j
	}
	b.work += len(set)
	if b.work > b.workBudget {
		return 0, errBudget
	}
	b.next = out
	if len(out) == 0 && acc == 0 {
		return deadState, nil
	}
	h := hashSet(acc, out)
	for k, ok := b.index[h]; ok && k >= 0; k = b.chain[k] {
		if b.accs[k] == acc && slices.Equal(b.set(k), out) {
			return b.value(k), nil
		}
	}
	if len(b.off)-1 >= b.budget {
		return 0, errBudget
	}
	k := int32(len(b.off) - 1)
	b.arena = append(b.arena, out...)
	b.off = append(b.off, int32(len(b.arena)))
	b.accs = append(b.accs, acc)
	head, ok := b.index[h]
	if !ok {
		head = -1
	}
	b.chain = append(b.chain, head)
	b.index[h] = k
	b.trans = append(b.trans, make([]uint32, b.stride)...)
	return b.value(k), nil
}

// value is the transition value of live state k.
func (b *builder) value(k int32) uint32 {
	v := uint32(k) * b.stride
	if b.accs[k] != 0 {
		v |= specialBit
	}
	return v
}

func hashSet(acc uint32, set []int32) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037) ^ uint64(acc)
	h *= prime
	for _, it := range set {
		h ^= uint64(uint32(it))
		h *= prime
	}
	return h
}
