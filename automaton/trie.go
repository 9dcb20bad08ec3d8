package automaton

import (
	"cmp"
	"slices"
)

// buildTrie is build for a pattern set without wildcards, the common case of
// real robots.txt files. Such a set's automaton is the trie of its patterns:
// every state is one prefix, so it is built directly, in time linear in the
// patterns' bytes (plus sorting), rather than by subset construction, which
// finds the same states at several times the cost. The result is the
// automaton subset construction builds, state for state and in the same
// order (a test compares the two): states are numbered breadth first, each
// state's successors in the order of the best pattern through them, and
// then renumbered as chainOrder does.
//
// ps may be in any order; b's class maps and stride are set. Every byte of a
// pattern has a class of its own, so prefixes of bytes are prefixes of
// classes.
func (b *builder) buildTrie(ps []rankedPattern) (*dfa, error) {
	nclass := int32(b.nclass)
	bound := 1 // nodes: at most one per pattern byte, and the root
	for _, p := range ps {
		bound += len(p.bytes)
	}
	bound = min(bound, b.budget+1)
	b.work += bound
	if b.work > b.workBudget {
		return nil, errBudget
	}
	// Insert the patterns in byte order: each then shares with the one
	// before it exactly the prefix it shares with any, so the new nodes
	// are the bytes past that common prefix, and no child is looked up.
	byBytes := slices.Grow(b.starts[:0], len(ps))[:len(ps)]
	for i := range byBytes {
		byBytes[i] = int32(i)
	}
	slices.SortFunc(byBytes, func(x, y int32) int { return cmp.Compare(ps[x].bytes, ps[y].bytes) })
	b.starts = byBytes

	// Per node: acc, eoi and alive are its answer cells (rank+1); best is
	// the best rank+1 of the patterns through it, which orders siblings;
	// first and next link its children; cls is the class leading to it.
	acc, eoi, alive := make([]uint32, 0, bound), make([]uint32, 0, bound), make([]uint32, 0, bound)
	best, first, next := make([]int32, 0, bound), make([]int32, 0, bound), make([]int32, 0, bound)
	cls := make([]uint8, 0, bound)
	newNode := func(c uint8) int32 {
		acc, eoi, alive = append(acc, 0), append(eoi, 0), append(alive, noAlive)
		best, first, next, cls = append(best, int32(noAlive)), append(first, none), append(next, none), append(cls, c)
		return int32(len(acc) - 1)
	}
	newNode(0)          // the root
	path := b.tnext[:0] // path[d]: the node of the previous pattern's first d bytes
	path = append(path, 0)
	prev := ""
	for _, i := range byBytes {
		p := ps[i]
		r := p.rank + 1
		lcp := 0
		for lcp < len(p.bytes) && lcp < len(prev) && p.bytes[lcp] == prev[lcp] {
			lcp++
		}
		path = path[:lcp+1]
		for d := lcp; d < len(p.bytes); d++ {
			if len(acc) >= b.budget {
				b.tnext = path
				return nil, errBudget
			}
			parent := path[d]
			x := newNode(b.class[p.bytes[d]])
			// Siblings are created in byte order; prepend, then the
			// breadth-first pass orders them by best.
			next[x], first[parent] = first[parent], x
			path = append(path, x)
		}
		for d := 0; d <= len(p.bytes); d++ {
			n := path[d]
			best[n] = min(best[n], r)
			if d < len(p.bytes) {
				alive[n] = min(alive[n], uint32(r)) // the pattern waits here for its next byte
			}
		}
		n := path[len(p.bytes)]
		if p.anchored {
			eoi[n] = better(eoi[n], uint32(r))
			alive[n] = min(alive[n], uint32(r)) // alive until the input ends here
		} else {
			acc[n] = better(acc[n], uint32(r))
		}
		prev = p.bytes
	}
	// Number the nodes breadth first, each node's children by best: the
	// order in which subset construction, going over its patterns best
	// first, meets them. Then renumber them as chainOrder does, a node's
	// first successor being its best child (its lowest-numbered successor
	// after it).
	bfs := append(path[:0], 0) // nodes in breadth-first order
	bestChild := slices.Grow(b.firsts[:0], len(acc))[:len(acc)]
	for k := 0; k < len(bfs); k++ {
		from := len(bfs)
		for x := first[bfs[k]]; x != none; x = next[x] {
			bfs = append(bfs, x)
		}
		slices.SortFunc(bfs[from:], func(x, y int32) int { return cmp.Compare(best[x], best[y]) })
		bestChild[bfs[k]] = none
		if len(bfs) > from {
			bestChild[bfs[k]] = bfs[from]
		}
	}
	final := slices.Grow(b.renum[:0], len(acc))[:len(acc)] // node -> state number
	for i := range final {
		final[i] = none
	}
	order := placeChains(bfs, bestChild, final, b.order[:0]) // nodes by state number
	b.firsts, b.renum, b.order = bestChild, final, order
	value := func(n int32) uint32 {
		v := uint32(final[n]) * b.stride
		if acc[n] != 0 {
			v |= specialBit
		}
		return v
	}
	trans := make([]uint32, len(acc)*int(b.stride))
	for k, n := range order {
		row := trans[uint32(k)*b.stride : uint32(k+1)*b.stride]
		for c := range row[:nclass] {
			row[c] = deadState
		}
		for x := first[n]; x != none; x = next[x] {
			row[cls[x]] = value(x)
		}
		if b.escClass >= 0 {
			row[b.escClass] = escapeState
		}
		if b.endClass >= 0 {
			row[b.endClass] = endState
		}
		row[nclass+colEOI] = eoi[n]
		row[nclass+colAcc] = acc[n]
		row[nclass+colMin] = alive[n]
	}
	b.tnext = bfs
	return b.dfa(trans, value(0), len(acc)), nil
}
