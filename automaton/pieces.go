package automaton

import (
	"slices"
	"strings"
	"sync"
)

// The piece matcher decides any input in time that does not grow with the
// patterns alive at a byte: the fallback of the linear engine and of the
// DFA. A pattern is a head, literal pieces between stars, and, when it is
// anchored and does not end with a star, a tail that must end the input.
// It matches when the input starts with its head, each piece occurs after
// the one before (the leftmost occurrence is never worse), and the tail
// ends the input after the last piece. One pass of an Aho-Corasick
// automaton over the distinct pieces finds every occurrence; a pattern
// waits, in a queue of the piece it needs next, from the position that
// piece may start at, and an occurrence of the piece moves every pattern
// waiting for it long enough one piece on. Cost per input of n bytes: O(n)
// automaton steps, plus the pieces that end at each byte (at most the
// number of distinct piece lengths), plus O(1) for each piece of each
// pattern whose head the input starts with.

// pieces is the piece matcher of a Set, built once and then read only.
type pieces struct {
	// Pattern i's pieces are ids[at[i]:at[i+1]], by their node in the
	// automaton (a piece is the node that spells it).
	at  []uint32
	ids []int32

	// The automaton, its nodes numbered breadth first so that node v's
	// children are the nodes first[v] to first[v+1]-1, sorted by label
	// (the byte into them). fail[v] is v's failure link, dict[v] the
	// nearest node on v's failure chain, v excluded, that spells a piece
	// (-1: none), depth[v] the length of what v spells, and piece[v]
	// whether v spells a piece. Node 0 is the root, whose children root
	// holds by byte.
	label []byte
	first []int32
	fail  []int32
	dict  []int32
	depth []int32
	piece []bool
	root  [256]int32
}

func (pc *pieces) bytes() int {
	n := len(pc.label)
	return 1200 + 4*(len(pc.at)+len(pc.ids)) + n*(1+4+4+4+4+1)
}

// segments returns pattern p's head, its pieces (appended to buf) and its
// tail: the pieces are the non-empty runs between stars that must occur in
// order; the tail is the last run when p is anchored and does not end with
// a star ("" otherwise). literal reports that p has no star.
func segments(p string, anchored bool, buf []string) (h string, ps []string, tail string, literal bool) {
	star := strings.IndexByte(p, Wildcard)
	if star < 0 {
		return p, buf, "", true
	}
	h, p = p[:star], p[star+1:]
	for {
		star = strings.IndexByte(p, Wildcard)
		if star < 0 {
			break
		}
		if star > 0 {
			buf = append(buf, p[:star])
		}
		p = p[star+1:]
	}
	if anchored {
		return h, buf, p, false
	}
	if p != "" {
		buf = append(buf, p)
	}
	return h, buf, "", false
}

// buildPieces makes the piece matcher of s's patterns.
func buildPieces(s *Set) *pieces {
	pc := &pieces{at: make([]uint32, 1, len(s.pats)+1)}
	var all []string // every pattern's pieces, in order
	var buf []string
	for i := range s.pats {
		p := s.pats[i]
		_, buf, _, _ = segments(s.text[p.Start:p.end()], p.Anchored, buf[:0])
		all = append(all, buf...)
		pc.at = append(pc.at, uint32(len(all)))
	}
	distinct := slices.Clone(all)
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	spells := pc.buildTrie(distinct)
	pc.ids = make([]int32, len(all))
	for k, x := range all {
		j, _ := slices.BinarySearch(distinct, x)
		pc.ids[k] = spells[j]
	}
	pc.buildLinks()
	return pc
}

// buildTrie lays out the trie of the sorted distinct pieces breadth first
// and returns the node that spells each. The nodes of depth d are the
// distinct prefixes of length d, in sorted order: so each node's children
// follow its earlier siblings' children, in label order.
func (pc *pieces) buildTrie(pieces []string) []int32 {
	node := make([]int32, len(pieces)) // each piece's node at the depth before
	pc.label, pc.first, pc.depth, pc.piece = []byte{0}, []int32{-1}, []int32{0}, []bool{false}
	parent := []int32{-1}
	for d := 1; ; d++ {
		made := false
		prev := -1 // the last piece of length d or more
		for k, p := range pieces {
			if len(p) < d {
				continue
			}
			if prev < 0 || pieces[prev][:d] != p[:d] {
				v := int32(len(pc.label))
				pc.label = append(pc.label, p[d-1])
				pc.first = append(pc.first, -1)
				pc.depth = append(pc.depth, int32(d))
				pc.piece = append(pc.piece, false)
				parent = append(parent, node[k])
				if pc.first[node[k]] < 0 {
					pc.first[node[k]] = v
				}
				made = true
			}
			node[k] = int32(len(pc.label) - 1)
			if len(p) == d {
				pc.piece[node[k]] = true
			}
			prev = k
		}
		if !made {
			break
		}
	}
	n := int32(len(pc.label))
	pc.first = append(pc.first, n)
	for v := n - 1; v >= 0; v-- {
		if pc.first[v] < 0 {
			pc.first[v] = pc.first[v+1]
		}
	}
	pc.fail = parent // reused: buildLinks overwrites it in node order
	return node
}

// child returns v's child on byte b, or -1.
func (pc *pieces) child(v int32, b byte) int32 {
	if v == 0 {
		if c := pc.root[b]; c > 0 {
			return c
		}
		return -1
	}
	lo, hi := pc.first[v], pc.first[v+1]
	for lo < hi {
		m := int32(uint32(lo+hi) >> 1)
		switch c := pc.label[m]; {
		case c == b:
			return m
		case c < b:
			lo = m + 1
		default:
			hi = m
		}
	}
	return -1
}

// step returns the automaton's node after node v reads byte b.
func (pc *pieces) step(v int32, b byte) int32 {
	for {
		if c := pc.child(v, b); c >= 0 {
			return c
		}
		if v == 0 {
			return 0
		}
		v = pc.fail[v]
	}
}

// buildLinks sets the failure and dictionary links, in node order (which
// is breadth first: a node's failure link is shallower, so set before it).
func (pc *pieces) buildLinks() {
	parent := pc.fail
	n := len(pc.label)
	pc.fail, pc.dict = make([]int32, n), make([]int32, n)
	pc.dict[0] = -1
	for c := pc.first[0]; c < pc.first[1]; c++ {
		pc.root[pc.label[c]] = c
	}
	for v := int32(1); v < int32(n); v++ {
		if p := parent[v]; p != 0 {
			pc.fail[v] = pc.step(pc.fail[p], pc.label[v])
		}
		f := pc.fail[v]
		if pc.piece[f] {
			pc.dict[v] = f
		} else {
			pc.dict[v] = pc.dict[f]
		}
	}
}

// waiter is a pattern waiting for its piece k, which may start at req or
// later; next links the queue it is in.
type waiter struct {
	pattern, k, req, next int32
}

// pieceScratch is the per-input state of the piece matcher. A queue of a
// node is valid only when its stamp is the input's (gen), so nothing is
// cleared between inputs.
type pieceScratch struct {
	gen          uint32
	stamp        []uint32
	qhead, qtail []int32
	waiters      []waiter
	startAt      []int32 // per position of the input, the first waiter to start there (-1: none)
	live         int     // waiters in queues or still to start
	buf          []string
}

var pieceScratchPool = sync.Pool{New: func() any { return new(pieceScratch) }}

// pieceRun is one input's match: the input, the best pattern found so
// far, and the scratch.
type pieceRun struct {
	pc   *pieces
	s    *Set
	x    string
	best int
	sc   *pieceScratch
}

// match returns the best pattern of s matching x, among those the index ix
// says could (every pattern when ix is nil).
func (pc *pieces) match(s *Set, x string, ix *index) int {
	sc := pieceScratchPool.Get().(*pieceScratch)
	defer pieceScratchPool.Put(sc) // sc, not r.sc: x, in r, is not kept
	sc.reset(len(pc.label), len(x))
	r := pieceRun{pc: pc, s: s, x: x, best: NoMatch, sc: sc}
	switch {
	case ix == nil:
		for i := range s.pats {
			r.start(int32(i))
		}
	default:
		start := func(i uint32) { r.start(int32(i)) }
		s.heads(ix, x, start)
		if ix.pairs != nil {
			for _, k := range ix.pairs.keyed {
				start(k.pattern)
			}
		}
		for _, i := range ix.always {
			start(i)
		}
	}
	v := int32(0)
	for e := 0; e < len(x) && r.sc.live > 0; e++ {
		for w := r.sc.startAt[e]; w >= 0; {
			next := r.sc.waiters[w].next
			r.sc.push(pc.ids[pc.at[r.sc.waiters[w].pattern]], w)
			w = next
		}
		v = pc.step(v, x[e])
		u := v
		if !pc.piece[u] {
			u = pc.dict[u]
		}
		for ; u >= 0; u = pc.dict[u] {
			r.occurs(u, e)
		}
	}
	return r.best
}

// better reports whether pattern i ranks before the best found so far.
func (r *pieceRun) better(i int32) bool {
	return r.best == NoMatch || r.s.compareRank(uint32(i), uint32(r.best)) < 0
}

// start begins pattern i on the input: decided at once when it has no
// piece, else waiting for its first piece after its head.
func (r *pieceRun) start(i int32) {
	if !r.better(i) {
		return
	}
	p, x := r.s.pats[i], r.x
	h, ps, tail, literal := segments(r.s.text[p.Start:p.end()], p.Anchored, r.sc.buf[:0])
	r.sc.buf = ps[:0]
	switch {
	case !strings.HasPrefix(x, h):
	case literal:
		if !p.Anchored || len(x) == len(h) {
			r.best = int(i)
		}
	case len(ps) == 0:
		if len(x)-len(tail) >= len(h) && strings.HasSuffix(x, tail) {
			r.best = int(i)
		}
	default:
		r.sc.wait(waiter{pattern: i, req: int32(len(h)), next: -1})
	}
}

// occurs moves on the patterns waiting for the piece node u spells, which
// occurs ending at byte e, long enough: to their next piece, or to their
// end (the tail, if any, ending the input after it).
func (r *pieceRun) occurs(u int32, e int) {
	pc, sc := r.pc, r.sc
	from := int32(e) + 1 - pc.depth[u]
	for sc.stamp[u] == sc.gen && sc.qhead[u] >= 0 && sc.waiters[sc.qhead[u]].req <= from {
		w := sc.pop(u)
		i := sc.waiters[w].pattern
		if !r.better(i) {
			continue
		}
		k := sc.waiters[w].k + 1
		if at := pc.at[i] + uint32(k); at < pc.at[i+1] {
			sc.waiters[w].k, sc.waiters[w].req = k, int32(e)+1
			sc.push(pc.ids[at], w)
			sc.live++
			continue
		}
		p := r.s.pats[i]
		if _, _, tail, _ := segments(r.s.text[p.Start:p.end()], p.Anchored, sc.buf[:0]); len(r.x)-len(tail) > e && strings.HasSuffix(r.x, tail) {
			r.best = int(i)
		}
	}
}

// reset readies sc for an input of n bytes over an automaton of nodes
// nodes.
func (sc *pieceScratch) reset(nodes, n int) {
	sc.gen++
	if len(sc.stamp) < nodes || sc.gen == 0 {
		sc.stamp = make([]uint32, nodes)
		sc.qhead, sc.qtail = make([]int32, nodes), make([]int32, nodes)
		sc.gen = 1
	}
	if cap(sc.startAt) < n+1 {
		sc.startAt = make([]int32, n+1)
	}
	sc.startAt = sc.startAt[:n+1]
	for i := range sc.startAt {
		sc.startAt[i] = -1
	}
	sc.waiters, sc.live = sc.waiters[:0], 0
}

// wait adds w, to start waiting for its first piece at w.req.
func (sc *pieceScratch) wait(w waiter) {
	if int(w.req) >= len(sc.startAt)-1 {
		return // no piece fits after the head
	}
	w.next = sc.startAt[w.req]
	sc.startAt[w.req] = int32(len(sc.waiters))
	sc.waiters = append(sc.waiters, w)
	sc.live++
}

// push appends waiter w to the queue of node u.
func (sc *pieceScratch) push(u, w int32) {
	sc.waiters[w].next = -1
	if sc.stamp[u] != sc.gen || sc.qhead[u] < 0 {
		sc.stamp[u], sc.qhead[u] = sc.gen, w
	} else {
		sc.waiters[sc.qtail[u]].next = w
	}
	sc.qtail[u] = w
}

// pop removes the first waiter of u's queue and returns it: it is no
// longer live until pushed again.
func (sc *pieceScratch) pop(u int32) int32 {
	w := sc.qhead[u]
	sc.qhead[u] = sc.waiters[w].next
	sc.live--
	return w
}
