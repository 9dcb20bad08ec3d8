package automaton

import (
	"slices"
	"sync"
)

// The fallback matcher finishes an input when the lazy DFA thrashes (see
// policy.go). Its cost per input byte does not grow with the number of
// patterns alive: it is one step of an Aho-Corasick automaton over the
// patterns' literal pieces plus one check per piece ending at that byte.
//
// A pattern is L0 * L1 * ... * Lk: a literal head L0 (maybe empty) and
// literal pieces L1..Lk, each between two stars. Such a pattern matches a
// prefix of an input exactly when L0 is a prefix of the input and each
// piece, taken in turn, occurs at or after the end of the one before: and
// taking the leftmost occurrence each time is never worse (it leaves the
// most input for the rest). An anchored pattern needs its last piece Lk to
// end the input instead, at or after the end of L(k-1). So a pattern's
// progress is one number, the end of its last piece found, and each of its
// pieces is looked for once.
//
// Patterns that share a head and their first pieces share that work: the
// patterns are put in a tree whose nodes are sequences (L0, L1, ..., Lj),
// and a node is reached when its last piece is found, at the leftmost place
// after its parent's. The input is read once. At each byte:
//
//   - the walk down a byte trie of the heads goes one level deeper (while
//     the input spells a head): a pattern without a star completes there;
//   - the Aho-Corasick automaton over all pieces takes one step, and for
//     each piece P ending at this byte (its output chain), the nodes that
//     wait for P from a place at or before where this occurrence starts are
//     reached: the children of heads (static lists, ordered by the head's
//     length, read once per input) and of reached nodes (a queue per piece,
//     in the order they started waiting, which is also the order of the
//     place they wait from).
//
// A reached node completes its unanchored patterns, and its children start
// waiting for their pieces; its anchored patterns wait for their last piece
// to end the input, which the automaton's state at the end says. Every node
// is reached at most once per input, and a node whose best pattern cannot
// beat the best match found is not reached at all.
//
// Cost per input of n bytes: O(n) automaton steps (amortised) plus the
// pieces ending at each byte (at most the number of distinct piece lengths:
// well under a thousand in 500 KiB of patterns), plus O(1) per node reached
// and per static entry read. No allocation once the scratch is warm.
type fallback struct {
	// heads is the byte trie of the patterns' heads; per head node, the
	// best rank of a pattern without a star that it completes (exact for
	// anchored patterns, prefix for the others), noRank if none.
	heads         byteTrie
	exact, prefix []int32

	// pieces is the Aho-Corasick automaton over the distinct pieces;
	// pieceLen[P] is the length of piece P, pieceAt[s] the piece that
	// state s spells (-1 if none), out[s] the first state on s's suffix
	// chain (s itself included) that spells a piece, next[s] the one after
	// it (-1 when none).
	pieces         byteTrie
	fail           []int32
	pieceLen       []int32
	pieceAt        []int32
	out, nextOut   []int32
	init, initTail []headEntry // per piece (CSR by initAt/initTailAt), by head length
	initAt         []int32
	initTailAt     []int32

	// The tree of pieces below the heads, numbered breadth first so that
	// a node's children are consecutive: node v's children are the nodes
	// nodes[v].kids to nodes[v+1].kids, its anchored patterns' last pieces
	// tails[nodes[v].tails:nodes[v+1].tails]. The last node is a sentinel.
	nodes []fbNode
	tails []tailEntry

	// roots[rootAt[h]:rootAt[h+1]] are head h's children, in node order.
	// wide maps (parent, piece) to the child, for parents with more than
	// wideFanout children (a head h as -1-h), so that fbSearch can look
	// the children up from the pieces that occur.
	rootAt, roots []int32
	wide          pairTable

	bytes int // memory held, for Bytes
}

// noRank is "no pattern" in the fallback's rank fields: worse than any.
const noRank = int32(^uint32(0) >> 1)

// headEntry is a static entry of a piece: a node (or an anchored
// pattern's rank, for tails) whose parent is a head, waiting for the
// piece from the head's end.
type headEntry struct {
	head, headLen int32 // the head's trie node and length
	v             int32 // the node reached (init) or the rank (initTail)
}

// tailEntry is an anchored pattern's last piece below a node.
type tailEntry struct{ piece, rank int32 }

// fbNode is a node of the fallback's tree: the sequence of a head and
// pieces, reached when its last piece is found.
type fbNode struct {
	piece  int32 // its last piece
	done   int32 // the best rank of an unanchored pattern that completes here
	subMin int32 // the best rank of a pattern at or below it
	kids   int32 // its first child (see fallback.nodes)
	tails  int32 // its first tail
	// rest is the fewest input bytes a pattern at or below it still needs
	// after it is reached: a node reached within rest of the input's end
	// completes nothing.
	rest int32
}

// byteTrie is a trie over bytes with its children laid out in one slice:
// node t's children are kid[at[t]:at[t+1]], sorted by their byte in key.
// Node 0 is the root; root holds its children densely, for the step that
// the Aho-Corasick automaton takes most.
type byteTrie struct {
	at   []int32
	key  []byte
	kid  []int32
	root [256]int32 // root's child per byte, 0 if none
}

// child returns t's child on byte b, or -1.
func (tr *byteTrie) child(t int32, b byte) int32 {
	if t == 0 {
		if c := tr.root[b]; c != 0 {
			return c
		}
		return -1
	}
	lo, hi := tr.at[t], tr.at[t+1]
	if hi-lo <= 8 {
		for k := lo; k < hi; k++ {
			if tr.key[k] == b {
				return tr.kid[k]
			}
		}
		return -1
	}
	keys := tr.key[lo:hi]
	if k, ok := slices.BinarySearch(keys, b); ok {
		return tr.kid[lo+int32(k)]
	}
	return -1
}

func (tr *byteTrie) size() int { return len(tr.at) - 1 }

func (tr *byteTrie) memory() int { return 4*cap(tr.at) + cap(tr.key) + 4*cap(tr.kid) + 4*256 }

// step returns the automaton's state after state s reads byte b.
func (f *fallback) step(s int32, b byte) int32 {
	for {
		if x := f.pieces.child(s, b); x >= 0 {
			return x
		}
		if s == 0 {
			return 0
		}
		s = f.fail[s]
	}
}

// fbScratch is the per-input state of the fallback: the head trie's path,
// and per piece touched by this input a slot (a sparse set shared by the
// two ways of matching: dense holds the touched pieces' slots, sparse[P]
// P's place in dense when it is there).
type fbScratch struct {
	path   []int32
	sparse []int32
	work   int // chain steps, entries and nodes, for the policy

	// scan: per piece the cursor in its static entries and its queues of
	// waiting nodes and tails (linked lists in entries).
	dense   []fbSlot
	entries []fbEntry

	// search: per piece its occurrences (starts[at:at+n]), and the nodes
	// to visit.
	odense []occSlot
	occ    []fbEntry // (piece, start) of every occurrence, in order of their ends
	starts []int32
	heap   []fbFrame
	cands  []fbEntry // (node, occurrence) lists of frames
	n      int32     // the input's length
}

type fbSlot struct {
	piece, cursor, qhead, qtail, tails int32
}

type occSlot struct {
	piece, at, n int32
	suffix       bool // the piece ends the input
}

// fbEntry is a node or a rank with a position (and for queues, the next
// entry).
type fbEntry struct {
	v, pos, next int32
}

var fbPool = sync.Pool{New: func() any { return new(fbScratch) }}

// wideFanout is the most children a node has without an entry in
// fallback.wide.
const wideFanout = 16

// wideRatio is how many times more children than pieces occurring a
// parent must have for fbSearch to look its children up from the pieces.
const wideRatio = 8

// maxOccurrences bounds the piece occurrences that fbMatch records to
// search an input; an input with more is scanned instead (fbScan), whose
// memory does not grow with its length. 16,384 occurrences cover a few
// KiB of URL even where several pieces end at every byte, in 192 KiB of
// scratch.
const maxOccurrences = 1 << 14

// fbMatch returns the best rank (noRank if none) of a pattern matching in,
// which ends at len(in) (the caller cuts it at an End byte). It searches
// (fbSearch) when the input's piece occurrences are few enough to record,
// and scans (fbScan) otherwise.
func fbMatch(f *fallback, sc *fbScratch, in string) int32 {
	sc.sparse = grow(&sc.sparse, len(f.pieceLen))
	if best, ok := fbSearch(f, sc, in); ok {
		return best
	}
	return fbScan(f, sc, in)
}

// onPath reports whether head node h, of length l, is a prefix of the
// input: the input's walk down the heads' trie passed it.
func (sc *fbScratch) onPath(h, l int32) bool { return int(l) < len(sc.path) && sc.path[l] == h }

// walkHead takes the walk down the heads' trie one byte further, from
// node head (>= 0; callers stop calling it once the input left the trie,
// at -1), and returns the new node and best rank.
func (f *fallback) walkHead(sc *fbScratch, head int32, b byte, best int32) (int32, int32) {
	if head = f.heads.child(head, b); head >= 0 {
		sc.path = append(sc.path, head)
		best = min(best, f.prefix[head])
	}
	return head, best
}

// slot returns P's scan slot, adding it when add (else nil when absent).
func (sc *fbScratch) slot(pc int32, add bool) *fbSlot {
	if k := sc.sparse[pc]; k >= 0 && int(k) < len(sc.dense) && sc.dense[k].piece == pc {
		return &sc.dense[k]
	}
	if !add {
		return nil
	}
	sc.sparse[pc] = int32(len(sc.dense))
	sc.dense = append(sc.dense, fbSlot{piece: pc, qhead: -1, qtail: -1, tails: -1})
	return &sc.dense[len(sc.dense)-1]
}

// fbScan matches in by the scan the fallback's doc describes: one pass, a
// queue of waiting nodes per piece.
func fbScan(f *fallback, sc *fbScratch, in string) int32 {
	sc.dense, sc.entries = sc.dense[:0], sc.entries[:0]
	sc.path = append(sc.path[:0], 0)
	best := f.prefix[0]
	head := int32(0) // -1 once the input leaves the heads' trie
	s := int32(0)
	// reach reaches node v at position at: its children (by their best
	// rank, so the first that cannot beat best ends the loop) start
	// waiting for their pieces, and so do its tails.
	n := int32(len(in))
	reach := func(v, at int32) {
		nd := &f.nodes[v]
		if nd.subMin >= best || at+nd.rest > n {
			return
		}
		sc.work++
		best = min(best, nd.done)
		for c := nd.kids; c < f.nodes[v+1].kids; c++ {
			kid := &f.nodes[c]
			if kid.subMin >= best {
				break
			}
			sl := sc.slot(kid.piece, true)
			sc.entries = append(sc.entries, fbEntry{c, at, -1})
			e := int32(len(sc.entries) - 1)
			if sl.qtail >= 0 {
				sc.entries[sl.qtail].next = e
			} else {
				sl.qhead = e
			}
			sl.qtail = e
		}
		for _, t := range f.tails[nd.tails:f.nodes[v+1].tails] {
			if t.rank >= best {
				break
			}
			sl := sc.slot(t.piece, true)
			sc.entries = append(sc.entries, fbEntry{t.rank, at, sl.tails})
			sl.tails = int32(len(sc.entries) - 1)
		}
	}
	for i := 0; i < len(in) && best > 0; i++ {
		if head >= 0 {
			head, best = f.walkHead(sc, head, in[i], best)
		}
		s = f.step(s, in[i])
		for o := f.out[s]; o >= 0; o = f.nextOut[o] {
			sc.work++
			pc := f.pieceAt[o]
			start := int32(i+1) - f.pieceLen[pc]
			sl := sc.slot(pc, f.initAt[pc] < f.initAt[pc+1])
			if sl == nil {
				continue
			}
			for end := f.initAt[pc+1]; f.initAt[pc]+sl.cursor < end; {
				e := &f.init[f.initAt[pc]+sl.cursor]
				if e.headLen > start {
					break
				}
				sl.cursor++
				sc.work++
				if sc.onPath(e.head, e.headLen) {
					reach(e.v, int32(i+1))
				}
			}
			for sl.qhead >= 0 && sc.entries[sl.qhead].pos <= start {
				e := sc.entries[sl.qhead]
				sl.qhead = e.next
				if sl.qhead < 0 {
					sl.qtail = -1
				}
				reach(e.v, int32(i+1))
			}
		}
	}
	if best == 0 {
		return best
	}
	// The end: a head that is the whole input completes its anchored
	// patterns without a star; an anchored pattern's last piece must end
	// the input, at or after where it started waiting.
	if head >= 0 {
		best = min(best, f.exact[head])
	}
	for o := f.out[s]; o >= 0; o = f.nextOut[o] {
		pc := f.pieceAt[o]
		best = f.headTails(sc, pc, int32(len(in)), best)
		if sl := sc.slot(pc, false); sl != nil {
			start := int32(len(in)) - f.pieceLen[pc]
			for k := sl.tails; k >= 0; k = sc.entries[k].next {
				if e := sc.entries[k]; e.pos <= start && e.v < best {
					best = e.v
				}
			}
		}
	}
	return best
}

// headTails returns best improved by the anchored patterns whose head is a
// prefix of the input and whose only piece, pc, ends the input (of n
// bytes) at or after the head's end.
func (f *fallback) headTails(sc *fbScratch, pc, n, best int32) int32 {
	start := n - f.pieceLen[pc]
	for _, e := range f.initTail[f.initTailAt[pc]:f.initTailAt[pc+1]] {
		if e.headLen > start {
			break
		}
		if e.v < best && sc.onPath(e.head, e.headLen) {
			best = e.v
		}
	}
	return best
}

// fbSearch matches in by recording where every piece occurs (one pass,
// up to maxOccurrences; ok false past them), and then searching the tree
// best first: a node's position is where its piece next occurs after its
// parent's, children are tried in the order of their best rank, and a
// subtree whose best rank cannot beat the best match found is not entered.
// It reaches a subset of the nodes fbScan reaches, often a small one: the
// first matches found are of the best patterns.
func fbSearch(f *fallback, sc *fbScratch, in string) (int32, bool) {
	sc.odense, sc.occ = sc.odense[:0], sc.occ[:0]
	sc.path = append(sc.path[:0], 0)
	best := f.prefix[0]
	head := int32(0)
	s := int32(0)
	for i := 0; i < len(in); i++ {
		if head >= 0 {
			head, best = f.walkHead(sc, head, in[i], best)
		}
		s = f.step(s, in[i])
		for o := f.out[s]; o >= 0; o = f.nextOut[o] {
			if len(sc.occ) == maxOccurrences {
				return 0, false
			}
			pc := f.pieceAt[o]
			sc.occ = append(sc.occ, fbEntry{v: pc, pos: int32(i+1) - f.pieceLen[pc]})
			if k := sc.sparse[pc]; k >= 0 && int(k) < len(sc.odense) && sc.odense[k].piece == pc {
				sc.odense[k].n++
			} else {
				sc.sparse[pc] = int32(len(sc.odense))
				sc.odense = append(sc.odense, occSlot{piece: pc, n: 1})
			}
		}
	}
	sc.work += len(in) + len(sc.occ)
	sc.n = int32(len(in))
	// Each piece's starts, in order, at starts[at:at+n].
	at := int32(0)
	for k := range sc.odense {
		sc.odense[k].at, at = at, at+sc.odense[k].n
		sc.odense[k].n = 0
	}
	sc.starts = grow(&sc.starts, len(sc.occ))
	for _, e := range sc.occ {
		sl := &sc.odense[sc.sparse[e.v]]
		sc.starts[sl.at+sl.n] = e.pos
		sl.n++
	}
	n := int32(len(in))
	if head >= 0 {
		best = min(best, f.exact[head])
	}
	for o := f.out[s]; o >= 0; o = f.nextOut[o] {
		pc := f.pieceAt[o]
		sc.odense[sc.sparse[pc]].suffix = true
		best = f.headTails(sc, pc, n, best)
	}
	// Best first: frames hold the children still to try of a reached node
	// (or of a head on the input's path), keyed by the best rank of the
	// next child that may be reached (its piece occurs after the parent);
	// the frame with the smallest key gives the next node to reach. When
	// that key cannot beat best, nothing left can.
	sc.heap, sc.cands = sc.heap[:0], sc.cands[:0]
	for d, h := range sc.path {
		if lo, hi := f.rootAt[h], f.rootAt[h+1]; lo < hi {
			sc.frame(f, fbFrame{parent: -1 - h, pos: int32(d), lo: lo, hi: hi, src: srcRoots}, best)
		}
	}
	for len(sc.heap) > 0 && sc.heap[0].key < best {
		fr := &sc.heap[0]
		c, q := fr.c, fr.q
		fr.lo++
		if !sc.advance(f, fr) || fr.key >= best {
			sc.popHeap()
		} else {
			sc.downHeap(0)
		}
		// Reach c, at the end of its piece's occurrence q.
		sc.work++
		nd := &f.nodes[c]
		pos := q + f.pieceLen[nd.piece]
		best = min(best, nd.done)
		for _, t := range f.tails[nd.tails:f.nodes[c+1].tails] {
			if t.rank >= best {
				break
			}
			if k := sc.sparse[t.piece]; k >= 0 && int(k) < len(sc.odense) && sc.odense[k].piece == t.piece &&
				sc.odense[k].suffix && n-f.pieceLen[t.piece] >= pos {
				best = t.rank
			}
		}
		if lo, hi := nd.kids, f.nodes[c+1].kids; lo < hi && f.nodes[lo].subMin < best {
			sc.frame(f, fbFrame{parent: c, pos: pos, lo: lo, hi: hi, src: srcNodes}, best)
		}
	}
	return best, true
}

// fbFrame is a node's (or a head's) children still to try in fbSearch:
// the nodes lo to hi, of the source src, after position pos. c is the next
// one that may be reached, at its piece's occurrence q, and key its best
// rank.
type fbFrame struct {
	key, c, q   int32
	parent, pos int32
	lo, hi      int32
	src         uint8
}

// Where a frame's children are.
const (
	srcNodes = iota // the nodes lo to hi
	srcRoots        // f.roots[lo:hi]
	srcCands        // sc.cands[lo:hi], with their occurrences
)

// frame adds the frame of fr's children that may beat best: straight, or,
// for a parent with wideRatio times more children than pieces occurring,
// as a list made from the pieces through fallback.wide. (A look-up in
// fallback.wide, a large table, costs several times a child's check, which
// reads the nodes in order.)
func (sc *fbScratch) frame(f *fallback, fr fbFrame, best int32) {
	if fr.hi-fr.lo > wideFanout && int(fr.hi-fr.lo) > wideRatio*len(sc.odense) {
		from := len(sc.cands)
		for _, sl := range sc.odense {
			sc.work++
			if c := f.wide.get(fr.parent, sl.piece); c >= 0 && f.nodes[c].subMin < best {
				if q := sc.nextOcc(sl, fr.pos); q >= 0 {
					sc.cands = append(sc.cands, fbEntry{v: c, pos: q})
				}
			}
		}
		cands := sc.cands[from:]
		slices.SortFunc(cands, func(a, b fbEntry) int { return int(a.v - b.v) })
		fr.lo, fr.hi, fr.src = int32(from), int32(len(sc.cands)), srcCands
	}
	if sc.advance(f, &fr) && fr.key < best {
		sc.heap = append(sc.heap, fr)
		sc.upHeap(len(sc.heap) - 1)
	}
}

// advance moves fr to its next child (from fr.lo on) whose piece occurs
// after fr.pos, and reports whether there is one. Children come in the
// order of their best rank.
func (sc *fbScratch) advance(f *fallback, fr *fbFrame) bool {
	for ; fr.lo < fr.hi; fr.lo++ {
		var c, q int32
		switch fr.src {
		case srcCands:
			e := sc.cands[fr.lo]
			c, q = e.v, e.pos
		case srcRoots:
			c = f.roots[fr.lo]
		default:
			c = fr.lo
		}
		if fr.src != srcCands {
			sc.work++
			pc := f.nodes[c].piece
			k := sc.sparse[pc]
			if k < 0 || int(k) >= len(sc.odense) || sc.odense[k].piece != pc {
				continue
			}
			if q = sc.nextOcc(sc.odense[k], fr.pos); q < 0 {
				continue
			}
		}
		if q+f.pieceLen[f.nodes[c].piece]+f.nodes[c].rest > sc.n {
			continue // too near the end for any pattern below it
		}
		fr.c, fr.q, fr.key = c, q, f.nodes[c].subMin
		return true
	}
	return false
}

func (sc *fbScratch) upHeap(i int) {
	h := sc.heap
	for i > 0 {
		p := (i - 1) / 2
		if h[p].key <= h[i].key {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (sc *fbScratch) downHeap(i int) {
	h := sc.heap
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		if r := l + 1; r < len(h) && h[r].key < h[l].key {
			l = r
		}
		if h[i].key <= h[l].key {
			return
		}
		h[i], h[l] = h[l], h[i]
		i = l
	}
}

func (sc *fbScratch) popHeap() {
	last := len(sc.heap) - 1
	sc.heap[0] = sc.heap[last]
	sc.heap = sc.heap[:last]
	sc.downHeap(0)
}

// nextOcc returns the first start at or after pos of the piece of sl, or
// -1.
func (sc *fbScratch) nextOcc(sl occSlot, pos int32) int32 {
	st := sc.starts[sl.at : sl.at+sl.n]
	if len(st) > 8 {
		k, _ := slices.BinarySearch(st, pos)
		st = st[k:]
	}
	for _, q := range st {
		if q >= pos {
			return q
		}
	}
	return -1
}
