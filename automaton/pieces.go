package automaton

import (
	"slices"
	"strings"
	"sync"
)

// The piece matcher (doc.go) decides any input in time that does not grow
// with the patterns alive at a byte: the fallback of the linear engine and
// of the DFA. A pattern starts at the first occurrence of its first piece
// past its head (the patterns of each first piece are listed by head
// length, so that an occurrence starts those whose heads it is past); from
// then on it waits, in a queue of the piece it needs next, and an
// occurrence of that piece moves it one piece on (the leftmost occurrence
// is never worse); past its last piece, its tail decides. A pattern with
// no piece is found by its head and decided at once. Cost per input of n
// bytes: O(n) automaton steps, plus the pieces that end at each byte (at
// most the number of distinct piece lengths), plus O(1) for each piece of
// each pattern whose first piece the input holds, plus a binary search a
// byte for the patterns with no piece whose heads it starts with.

// pieces is the piece matcher of a Set, built once and then read only.
// It reads the patterns from the Set's program, by rank.
type pieces struct {
	// The pieces of the pattern of rank r are ids[at[r]:at[r+1]], by
	// their node in the automaton (a piece is the node that spells it).
	at  []uint32
	ids []int32
	// The patterns whose first piece node v spells are
	// firsts[firstAt[v]:firstAt[v+1]], by head length; plain are those
	// with no piece, sorted by head (walkHeads finds them).
	firstAt []uint32
	firsts  []uint32
	plain   []uint32

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
	return 1200 + 4*(len(pc.at)+len(pc.ids)+len(pc.firsts)+len(pc.plain)) + n*(1+4+4+4+4+4+1)
}

// buildPieces makes the piece matcher of s's patterns: a trie of their
// distinct pieces (a set of tens of thousands of patterns has few), and
// each pattern's pieces by node.
func buildPieces(s *Set) *pieces {
	pc := &pieces{at: make([]uint32, 1, len(s.prog)+1)}
	node := map[string]int32{}
	var distinct []string
	for r := range s.prog {
		for p, mid := nextPiece(s.mid(uint32(r))); p != ""; p, mid = nextPiece(mid) {
			if _, ok := node[p]; !ok {
				node[p] = 0
				distinct = append(distinct, p)
			}
		}
	}
	slices.Sort(distinct)
	for k, v := range pc.buildTrie(distinct) {
		node[distinct[k]] = v
	}
	for r := range s.prog {
		for p, mid := nextPiece(s.mid(uint32(r))); p != ""; p, mid = nextPiece(mid) {
			pc.ids = append(pc.ids, node[p])
		}
		pc.at = append(pc.at, uint32(len(pc.ids)))
	}
	pc.buildLinks()
	pc.listFirsts(s)
	return pc
}

// listFirsts lists the patterns by their first piece (a counting sort of
// them ordered by head length), and those with no piece by head.
func (pc *pieces) listFirsts(s *Set) {
	byHead := make([]uint32, 0, len(s.prog))
	for r := range s.prog {
		if pc.at[r] == pc.at[r+1] {
			pc.plain = append(pc.plain, uint32(r))
		} else {
			byHead = append(byHead, uint32(r))
		}
	}
	s.sortHeads(pc.plain, 0, make([]headKey, len(pc.plain)))
	slices.SortStableFunc(byHead, func(a, b uint32) int { return int(s.prog[a].head) - int(s.prog[b].head) })
	pc.firstAt = make([]uint32, len(pc.label)+1)
	for _, r := range byHead {
		pc.firstAt[pc.ids[pc.at[r]]+1]++
	}
	for v := range len(pc.label) {
		pc.firstAt[v+1] += pc.firstAt[v]
	}
	pc.firsts = make([]uint32, len(byHead))
	next := slices.Clone(pc.firstAt[:len(pc.label)])
	for _, r := range byHead {
		v := pc.ids[pc.at[r]]
		pc.firsts[next[v]] = r
		next[v]++
	}
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

// step returns the automaton's node after node v reads byte b: v's child
// on b, or else that of the next node on v's failure chain that has one.
func (pc *pieces) step(v int32, b byte) int32 {
	for ; v != 0; v = pc.fail[v] {
		lo := pc.first[v]
		if k, ok := slices.BinarySearch(pc.label[lo:pc.first[v+1]], b); ok {
			return lo + int32(k)
		}
	}
	return pc.root[b] // 0, the root itself, when it has no child on b
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
		if pc.dict[v] = pc.dict[f]; pc.piece[f] {
			pc.dict[v] = f
		}
	}
}

// waiter is a pattern (a rank) waiting for its piece k, which may start
// at req or later; next links the queue it is in.
type waiter struct {
	rank, k, req, next int32
}

// pieceScratch is the per-input state of the piece matcher. A node's
// queue and its cursor in the node's first-piece list are valid only when
// its stamp is the input's (gen), so nothing is cleared between inputs.
type pieceScratch struct {
	gen          uint32
	stamp        []uint32
	qhead, qtail []int32
	cursor       []uint32
	waiters      []waiter
	// The input is read no further once no pattern waits in a queue
	// (live) and none is still to start (pending).
	live, pending int
}

var pieceScratchPool = sync.Pool{New: func() any { return new(pieceScratch) }}

// pieceRun is one input's match.
type pieceRun struct {
	pc   *pieces
	s    *Set
	x    string
	best int
	sc   *pieceScratch
}

// match returns the rank of the best pattern of s matching x.
func (pc *pieces) match(s *Set, x string) int {
	sc := pieceScratchPool.Get().(*pieceScratch)
	defer pieceScratchPool.Put(sc) // sc, not r.sc: x, in r, is not kept
	sc.reset(len(pc.label), len(pc.firsts))
	r := pieceRun{pc: pc, s: s, x: x, best: NoMatch, sc: sc}
	s.walkHeads(pc.plain, 0, x, r.decide)
	v := int32(0)
	for e := 0; e < len(x) && sc.live+sc.pending > 0; e++ {
		v = pc.step(v, x[e])
		for u := v; u >= 0; u = pc.dict[u] { // the pieces ending at e
			if pc.piece[u] {
				r.occurs(u, e)
			}
		}
	}
	return r.best
}

// better reports whether rank i is better than the best found so far.
func (r *pieceRun) better(i uint32) bool { return r.best == NoMatch || int(i) < r.best }

// decide decides the pattern of rank i, which has no piece, on the input,
// by its head and tail: inst.matches here cost a quarter more a decision.
func (r *pieceRun) decide(i uint32) {
	in := &r.s.prog[i]
	if !r.better(i) || !strings.HasPrefix(r.x, r.s.head(i)) {
		return
	}
	if in.head == in.n && (!in.anchored || len(r.x) == int(in.n)) || in.head < in.n && in.ends(r.s.bytesOf(i), r.x, int(in.head)) {
		r.best = int(i)
	}
}

// occurs moves on the patterns waiting for the piece node u spells, which
// occurs ending at byte e, long enough, and starts the patterns whose
// first piece it is and whose heads it is past: each to its next piece,
// or to its end (the tail, if any, ending the input after it).
func (r *pieceRun) occurs(u int32, e int) {
	pc, sc := r.pc, r.sc
	sc.touch(u, pc.firstAt[u])
	from := int32(e) + 1 - pc.depth[u]
	for ; sc.cursor[u] < pc.firstAt[u+1]; sc.cursor[u]++ {
		i := pc.firsts[sc.cursor[u]]
		if int32(r.s.prog[i].head) > from {
			break // it and the rest start at a later occurrence
		}
		sc.pending--
		if r.better(i) && strings.HasPrefix(r.x, r.s.head(i)) {
			r.moveOn(i, 0, e)
		}
	}
	for sc.qhead[u] >= 0 && sc.waiters[sc.qhead[u]].req <= from {
		w := sc.pop(u)
		if i := uint32(sc.waiters[w].rank); r.better(i) {
			r.moveOn(i, sc.waiters[w].k, e)
		}
	}
}

// moveOn moves the pattern of rank i, whose piece k ends at byte e, to
// its next piece, or, past its last, decides it by its tail.
func (r *pieceRun) moveOn(i uint32, k int32, e int) {
	pc, sc := r.pc, r.sc
	if at := pc.at[i] + uint32(k+1); at < pc.at[i+1] {
		u := pc.ids[at]
		sc.touch(u, pc.firstAt[u])
		sc.push(u, waiter{rank: int32(i), k: k + 1, req: int32(e) + 1, next: -1})
		return
	}
	if r.s.prog[i].ends(r.s.bytesOf(i), r.x, e+1) {
		r.best = int(i)
	}
}

// reset readies sc for an input, over an automaton of nodes nodes, with
// pending patterns to start.
func (sc *pieceScratch) reset(nodes, pending int) {
	sc.gen++
	if len(sc.stamp) < nodes || sc.gen == 0 {
		sc.stamp = make([]uint32, nodes)
		sc.qhead, sc.qtail = make([]int32, nodes), make([]int32, nodes)
		sc.cursor = make([]uint32, nodes)
		sc.gen = 1
	}
	sc.waiters = sc.waiters[:0]
	sc.live, sc.pending = 0, pending
}

// touch makes node u's queue (empty) and its cursor (first) the input's,
// unless they are already.
func (sc *pieceScratch) touch(u int32, first uint32) {
	if sc.stamp[u] != sc.gen {
		sc.stamp[u], sc.qhead[u], sc.cursor[u] = sc.gen, -1, first
	}
}

// push appends w to the queue of node u (touched).
func (sc *pieceScratch) push(u int32, w waiter) {
	k := int32(len(sc.waiters))
	sc.waiters = append(sc.waiters, w)
	sc.live++
	if sc.qhead[u] < 0 {
		sc.qhead[u] = k
	} else {
		sc.waiters[sc.qtail[u]].next = k
	}
	sc.qtail[u] = k
}

// pop removes the first waiter of u's queue and returns it.
func (sc *pieceScratch) pop(u int32) int32 {
	w := sc.qhead[u]
	sc.qhead[u] = sc.waiters[w].next
	sc.live--
	return w
}
