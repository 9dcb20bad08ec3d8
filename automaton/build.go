package automaton

import (
	"encoding/binary"
	"slices"
	"sort"
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

type builder struct {
	items  []item
	starts []int32 // first item of each pattern, in the order given
	nclass int
	class  [256]uint8
	budget int

	ids    map[string]uint32 // set key -> premultiplied offset of a live state
	sets   [][]int32         // live state number -> its set
	bests  []uint32          // live state number -> best completed answer (rank+1, 0 none)
	trans  []uint32
	stride uint32

	// scratch
	key    []byte
	next   []int32
	mark   []uint32 // item -> generation when added to next
	gen    uint32
	bucket [256][]int32
	seen   []uint8
}

// build constructs one automaton for ps, or returns errBudget when it would
// need more than budget live states.
func build(ps []rankedPattern, budget int) (*dfa, error) {
	b := &builder{budget: budget, ids: make(map[string]uint32)}
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
	// nclass can be 257 only if all 256 bytes are used, and then class 0 is
	// empty; renumber so that classes fit in a byte.
	if b.nclass == 257 {
		for c := 0; c < 256; c++ {
			b.class[c]--
		}
		b.nclass = 256
	}
	b.stride = uint32(b.nclass + 1)

	// Items, in rank order.
	sorted := append([]rankedPattern(nil), ps...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].rank < sorted[j].rank })
	for _, p := range sorted {
		b.starts = append(b.starts, int32(len(b.items)))
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

	// Start state: every pattern at its first position.
	b.beginSet()
	best := uint32(0)
	for _, st := range b.starts {
		best = b.add(st, best)
	}
	start, err := b.finishSet(best)
	if err != nil {
		return nil, err
	}
	// Breadth-first over live states; rows are appended as states are found.
	for n := 0; n < len(b.sets); n++ {
		if err := b.fillRow(n); err != nil {
			return nil, err
		}
	}
	d := &dfa{
		classes: b.class,
		stride:  b.stride,
		trans:   b.trans,
		start:   start,
		nstates: len(b.sets),
		nclass:  b.nclass,
	}
	return d, nil
}

// fillRow computes the transitions of live state n.
func (b *builder) fillRow(n int) error {
	set := b.sets[n]
	best := b.bests[n]
	row := b.trans[uint32(n)*b.stride : uint32(n+1)*b.stride]

	// The default transition (a byte no literal item of this set expects):
	// every star stays, and its closure is taken again.
	b.beginSet()
	nb := best
	for _, it := range set {
		if b.items[it].kind == itemStar {
			nb = b.add(it, nb)
		}
	}
	def, err := b.finishSet(nb)
	if err != nil {
		return err
	}
	// Re-read the row: finishSet may have grown b.trans.
	row = b.trans[uint32(n)*b.stride : uint32(n+1)*b.stride]
	for c := 0; c < b.nclass; c++ {
		row[c] = def
	}
	// The end-of-input answer: the best completed, or an anchored pattern
	// sitting at its end.
	eoi := best
	for _, it := range set {
		x := b.items[it]
		if x.kind == itemEnd && x.anchored {
			eoi = better(eoi, uint32(x.rank)+1)
		}
	}
	row[b.nclass] = eoi

	// Each class some literal item expects.
	classesSeen := b.seen[:0]
	for _, it := range set {
		x := b.items[it]
		if x.kind == itemLiteral {
			c := b.class[x.b]
			if len(b.bucket[c]) == 0 {
				classesSeen = append(classesSeen, c)
			}
			b.bucket[c] = append(b.bucket[c], it)
		}
	}
	for _, c := range classesSeen {
		b.beginSet()
		nb := best
		for _, it := range set {
			if b.items[it].kind == itemStar {
				nb = b.add(it, nb)
			}
		}
		for _, it := range b.bucket[c] {
			nb = b.add(it+1, nb)
		}
		t, err := b.finishSet(nb)
		if err != nil {
			return err
		}
		b.trans[uint32(n)*b.stride+uint32(c)] = t
	}
	for _, c := range classesSeen {
		b.bucket[c] = b.bucket[c][:0]
	}
	b.seen = classesSeen
	return nil
}

func (b *builder) beginSet() {
	b.next = b.next[:0]
	b.gen++
	if b.gen == 0 { // wrapped: reset marks
		for i := range b.mark {
			b.mark[i] = 0
		}
		b.gen = 1
	}
}

// add puts item it and its closure into the set being built and returns the
// best completed answer updated with any non-anchored pattern it completes.
func (b *builder) add(it int32, best uint32) uint32 {
	for {
		if b.mark[it] == b.gen {
			return best
		}
		b.mark[it] = b.gen
		x := b.items[it]
		switch x.kind {
		case itemEnd:
			if !x.anchored {
				return better(best, uint32(x.rank)+1)
			}
			b.next = append(b.next, it)
			return best
		case itemStar:
			b.next = append(b.next, it)
			it++ // a star also matches the empty run
		default:
			b.next = append(b.next, it)
			return best
		}
	}
}

// finishSet prunes and canonicalises the set being built and returns the
// transition value for it: a decided state, or a live state's offset.
func (b *builder) finishSet(best uint32) (uint32, error) {
	set := b.next
	slices.Sort(set)
	// Drop items that cannot beat best, and within each pattern the items
	// before the last star.
	out := set[:0]
	for i := 0; i < len(set); {
		r := b.items[set[i]].rank
		j := i
		lastStar := -1
		for j < len(set) && b.items[set[j]].rank == r {
			if b.items[set[j]].kind == itemStar {
				lastStar = j
			}
			j++
		}
		if best == 0 || uint32(r)+1 < best {
			from := i
			if lastStar >= 0 {
				from = lastStar
			}
			out = append(out, set[from:j]...)
		}
		i = j
	}
	if len(out) == 0 {
		return decidedBit | best, nil
	}
	// Key: best, then the items.
	b.key = b.key[:0]
	b.key = binary.LittleEndian.AppendUint32(b.key, best)
	for _, it := range out {
		b.key = binary.LittleEndian.AppendUint32(b.key, uint32(it))
	}
	if off, ok := b.ids[string(b.key)]; ok {
		return off, nil
	}
	if len(b.sets) >= b.budget {
		return 0, errBudget
	}
	off := uint32(len(b.sets)) * b.stride
	b.ids[string(b.key)] = off
	b.sets = append(b.sets, append([]int32(nil), out...))
	b.bests = append(b.bests, best)
	b.trans = append(b.trans, make([]uint32, b.stride)...)
	return off, nil
}
