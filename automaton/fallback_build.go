package automaton

import (
	"math/bits"
	"slices"
	"strings"
	"unsafe"
)

// pairTable is an open-addressing map from a pair of int32s (not both -1)
// to an int32, made at its size once: the fallback's children of wide
// parents by piece (fallback.wide). It is cheaper than a Go map, and a
// look-up touches one cache line most of the time.
type pairTable struct {
	keys []uint64 // the pair plus one; 0: empty
	vals []int32
}

// newPairTable returns a table for n pairs, at most half full.
func newPairTable(n int) pairTable {
	size := 1 << bits.Len(uint(2*n|15))
	return pairTable{keys: make([]uint64, size), vals: make([]int32, size)}
}

// slot returns the key of (a, b) and the slot that holds it, or the empty
// slot where it would go.
func (t *pairTable) slot(a, b int32) (uint64, uint64) {
	k := uint64(uint32(a))<<32 | uint64(uint32(b)) + 1
	mask := uint64(len(t.keys) - 1)
	h := k * 0x9E3779B97F4A7C15
	i := (h ^ h>>29) & mask
	for t.keys[i] != k && t.keys[i] != 0 {
		i = (i + 1) & mask
	}
	return k, i
}

// get returns the value of (a, b), or -1.
func (t *pairTable) get(a, b int32) int32 {
	if k, i := t.slot(a, b); t.keys[i] == k {
		return t.vals[i]
	}
	return -1
}

// put sets the value of (a, b); the table has room (newPairTable).
func (t *pairTable) put(a, b, v int32) {
	k, i := t.slot(a, b)
	t.keys[i], t.vals[i] = k, v
}

// edgeIndex finds the edges of a tree being built, each an id whose key
// (its parent and label) the builder keeps in its own slices (keys): the
// index holds id+1 per slot, 0 for none, four bytes where a table of keys
// and values takes twelve (what the index costs is mostly the first touch
// of its pages).
type edgeIndex[K edgeKeys] struct {
	slots []int32
	n     int
}

// edgeKeys gives the key of an edge id.
type edgeKeys interface {
	edgeKey(id int32) uint64
}

func edgeKey(parent, label int32) uint64 { return uint64(uint32(parent))<<32 | uint64(uint32(label)) }

func hashEdge(k uint64) uint64 {
	h := k * 0x9E3779B97F4A7C15
	return h ^ h>>29
}

// find returns the id of the edge with key k, or -1 and the slot where it
// would go.
func (x *edgeIndex[K]) find(keys K, k uint64) (int32, uint64) {
	if len(x.slots) == 0 {
		x.slots = make([]int32, startEntries)
	}
	mask := uint64(len(x.slots) - 1)
	for i := hashEdge(k) & mask; ; i = (i + 1) & mask {
		id := x.slots[i] - 1
		if id < 0 {
			return -1, i
		}
		if keys.edgeKey(id) == k {
			return id, i
		}
	}
}

// add puts id at slot i (from find), and grows the index when it is half
// full.
func (x *edgeIndex[K]) add(keys K, i uint64, id int32) {
	x.slots[i] = id + 1
	if x.n++; 2*x.n > len(x.slots) {
		old := x.slots
		x.slots = make([]int32, 2*len(old))
		mask := uint64(len(x.slots) - 1)
		for _, v := range old {
			if v != 0 {
				j := hashEdge(keys.edgeKey(v-1)) & mask
				for x.slots[j] != 0 {
					j = (j + 1) & mask
				}
				x.slots[j] = v
			}
		}
	}
}

// trieBuilder builds a byteTrie by insertion: node 0 is the root, a node
// is numbered when first inserted (after its parent), and depth[t] is the
// length of its string.
type trieBuilder struct {
	edges edgeIndex[trieKeys]
	trieKeys
	depth []int32
}

// trieKeys are a trie node's parent and byte.
type trieKeys struct {
	parent []int32
	key    []byte
}

func (k trieKeys) edgeKey(id int32) uint64 { return edgeKey(k.parent[id], int32(k.key[id])) }

// startEntries is the size a builder's table and slices start at: they
// grow as entries come, because repeated strings share their nodes, and a
// table sized for every byte of the strings would be mostly empty memory,
// whose first touch costs a page fault a page.
const startEntries = 1 << 12

// newTrieBuilder returns an empty builder.
func newTrieBuilder() *trieBuilder {
	tb := &trieBuilder{trieKeys: trieKeys{parent: make([]int32, 1, startEntries), key: make([]byte, 1, startEntries)}, depth: make([]int32, 1, startEntries)}
	tb.parent[0] = -1
	return tb
}

// insert adds s and returns its node.
func (tb *trieBuilder) insert(s string) int32 {
	t := int32(0)
	for i := 0; i < len(s); i++ {
		k := edgeKey(t, int32(s[i]))
		c, slot := tb.edges.find(tb.trieKeys, k)
		if c < 0 {
			c = int32(len(tb.parent))
			tb.parent = append(tb.parent, t)
			tb.key = append(tb.key, s[i])
			tb.depth = append(tb.depth, tb.depth[t]+1)
			tb.edges.add(tb.trieKeys, slot, c)
		}
		t = c
	}
	return t
}

// trie lays the nodes' children out, each node's sorted by byte.
func (tb *trieBuilder) trie() byteTrie {
	n := len(tb.parent)
	tr := byteTrie{at: make([]int32, n+1), key: make([]byte, n-1), kid: make([]int32, n-1)}
	for c := 1; c < n; c++ {
		tr.at[tb.parent[c]+1]++
	}
	prefixSum(tr.at)
	next := slices.Clone(tr.at[:n])
	for c := 1; c < n; c++ { // children are added in the order they were numbered
		pt := tb.parent[c]
		k := next[pt]
		next[pt]++
		// Insertion sort by byte: a node has few children, or gets them
		// in order from sorted input.
		for k > tr.at[pt] && tr.key[k-1] > tb.key[c] {
			tr.key[k], tr.kid[k] = tr.key[k-1], tr.kid[k-1]
			k--
		}
		tr.key[k], tr.kid[k] = tb.key[c], int32(c)
	}
	for k := tr.at[0]; k < tr.at[1]; k++ {
		tr.root[tr.key[k]] = tr.kid[k]
	}
	return tr
}

// byDepth returns the nodes in order of depth: parents and suffix links
// (shorter strings) come before a node.
func (tb *trieBuilder) byDepth() []int32 {
	maxDepth := int32(0)
	for _, d := range tb.depth {
		maxDepth = max(maxDepth, d)
	}
	at := make([]int32, maxDepth+2)
	for _, d := range tb.depth {
		at[d+1]++
	}
	prefixSum(at)
	order := make([]int32, len(tb.depth))
	for t, d := range tb.depth {
		order[at[d]] = int32(t)
		at[d]++
	}
	return order
}

// proto is a node of the fallback's tree while it is built: its parent (a
// head h as -1-h), its piece, and its best ranks (fbNode's done and
// subMin).
type proto struct{ parent, piece, done, subMin int32 }

type protos []proto

func (ps protos) edgeKey(id int32) uint64 { return edgeKey(ps[id].parent, ps[id].piece) }

// buildFallback builds the fallback matcher of p's patterns.
func buildFallback(p *prog) *fallback {
	f := &fallback{}
	n := len(p.starts) - 1
	// Every pattern's head and pieces: the head's node, then the piece
	// occurrences' nodes in the pieces' trie (flat, pattern r's from
	// occAt[r]).
	stars := strings.Count(p.all, "*")
	heads := newTrieBuilder()
	headNode := make([]int32, n)
	pieces := newTrieBuilder()
	occAt := make([]int32, n+1)
	occ := make([]int32, 0, stars)
	for r := 0; r < n; r++ {
		b := p.pattern(int32(r))
		i := strings.IndexByte(b, Wildcard)
		if i < 0 {
			i = len(b)
		}
		headNode[r] = heads.insert(b[:i])
		for i < len(b) {
			b = b[i+1:] // a piece: stars are collapsed and never last
			i = strings.IndexByte(b, Wildcard)
			if i < 0 {
				i = len(b)
			}
			occ = append(occ, pieces.insert(b[:i]))
		}
		occAt[r+1] = int32(len(occ))
	}
	f.heads = heads.trie()
	f.pieces = pieces.trie()
	f.exact = filled(f.heads.size(), noRank)
	f.prefix = filled(f.heads.size(), noRank)
	// Pieces are numbered as first met; pieceAt maps a state to its piece.
	f.pieceAt = filled(f.pieces.size(), -1)
	for k, t := range occ {
		if f.pieceAt[t] < 0 {
			f.pieceAt[t] = int32(len(f.pieceLen))
			f.pieceLen = append(f.pieceLen, pieces.depth[t])
		}
		occ[k] = f.pieceAt[t]
	}
	f.links(pieces.byDepth())

	// The tree below the heads: nodes by (parent, piece), parent -1-head
	// for a head's children. Ranks come in increasing order, so a node's
	// best pattern is the first that reaches it.
	// At most one node per piece occurrence: the index is made at its
	// largest size at once rather than grown through every size below it.
	edges := edgeIndex[protos]{slots: make([]int32, 1<<bits.Len(uint(2*len(occ)|startEntries-1)))}
	protos := make(protos, 0, len(occ))
	var headKids, headTails []headEntry // their pieces in headKidPiece, headTailPiece
	var headKidPiece, headTailPiece []int32
	var tails []struct{ v, piece, rank int32 }
	for r := int32(0); r < int32(n); r++ {
		h, ps := headNode[r], occ[occAt[r]:occAt[r+1]]
		anch := p.anchored(r)
		switch {
		case len(ps) == 0 && anch:
			f.exact[h] = min(f.exact[h], r)
			continue
		case len(ps) == 0:
			f.prefix[h] = min(f.prefix[h], r)
			continue
		}
		mid := ps
		if anch {
			mid = ps[:len(ps)-1]
		}
		v := -1 - h
		for _, pc := range mid {
			c, slot := edges.find(protos, edgeKey(v, pc))
			if c < 0 {
				c = int32(len(protos))
				protos = append(protos, proto{v, pc, noRank, r})
				edges.add(protos, slot, c)
				if v < 0 {
					headKids = append(headKids, headEntry{head: h, v: c})
					headKidPiece = append(headKidPiece, pc)
				}
			}
			v = c
		}
		switch {
		case anch && v < 0:
			headTails = append(headTails, headEntry{head: h, v: r})
			headTailPiece = append(headTailPiece, ps[len(ps)-1])
		case anch:
			tails = append(tails, struct{ v, piece, rank int32 }{v, ps[len(ps)-1], r})
		default:
			protos[v].done = min(protos[v].done, r)
		}
	}
	// Number the nodes breadth first: the heads' children first, then each
	// node's children after those of the nodes before it.
	kidAt := make([]int32, len(protos)+1) // children by parent, in the order made
	for _, pr := range protos {
		if pr.parent >= 0 {
			kidAt[pr.parent+1]++
		}
	}
	prefixSum(kidAt)
	kids := make([]int32, kidAt[len(protos)])
	next := slices.Clone(kidAt)
	order := make([]int32, 0, len(protos)) // new number -> old
	for c, pr := range protos {
		if pr.parent >= 0 {
			kids[next[pr.parent]] = int32(c)
			next[pr.parent]++
		} else {
			order = append(order, int32(c))
		}
	}
	for k := 0; k < len(order); k++ {
		old := order[k]
		order = append(order, kids[kidAt[old]:kidAt[old+1]]...)
	}
	renum := make([]int32, len(protos)) // old -> new
	for nv, old := range order {
		renum[old] = int32(nv)
	}
	tailCount := make([]int32, len(protos))
	for _, t := range tails {
		tailCount[t.v]++
	}
	f.nodes = make([]fbNode, len(protos)+1)
	f.tails = make([]tailEntry, len(tails))
	// The heads' children come first: the nodes that are no node's child.
	firstKid, firstTail := int32(len(protos))-kidAt[len(protos)], int32(0)
	for nv, old := range order {
		pr := protos[old]
		f.nodes[nv] = fbNode{piece: pr.piece, done: pr.done, subMin: pr.subMin, kids: firstKid, tails: firstTail}
		firstKid += kidAt[old+1] - kidAt[old]
		firstTail += tailCount[old]
	}
	f.nodes[len(protos)] = fbNode{kids: firstKid, tails: firstTail}
	for nv := range f.nodes[:len(protos)] {
		next[nv] = f.nodes[nv].tails
	}
	for _, t := range tails {
		nv := renum[t.v]
		f.tails[next[nv]] = tailEntry{t.piece, t.rank}
		next[nv]++
	}
	for k := range headKids {
		headKids[k].v = renum[headKids[k].v]
	}
	// The input each node still needs, children before parents (breadth
	// first numbering puts them after).
	for v := len(protos) - 1; v >= 0; v-- {
		nd := &f.nodes[v]
		rest := noRank
		if nd.done != noRank {
			rest = 0
		}
		for c := nd.kids; c < f.nodes[v+1].kids; c++ {
			rest = min(rest, f.pieceLen[f.nodes[c].piece]+f.nodes[c].rest)
		}
		for _, t := range f.tails[nd.tails:f.nodes[v+1].tails] {
			rest = min(rest, f.pieceLen[t.piece])
		}
		nd.rest = rest
	}
	// Each head's children, in order (their numbers are their best ranks'
	// order), and the children of wide parents by piece.
	f.rootAt = make([]int32, f.heads.size()+1)
	for _, e := range headKids {
		f.rootAt[e.head+1]++
	}
	prefixSum(f.rootAt)
	f.roots = make([]int32, len(headKids))
	next = slices.Clone(f.rootAt)
	for _, e := range headKids { // in the order made, which is node order
		f.roots[next[e.head]] = e.v
		next[e.head]++
	}
	wide := 0
	for h := range f.heads.size() {
		if f.rootAt[h+1]-f.rootAt[h] > wideFanout {
			wide += int(f.rootAt[h+1] - f.rootAt[h])
		}
	}
	for v := range f.nodes[:len(protos)] {
		if k := f.nodes[v+1].kids - f.nodes[v].kids; k > wideFanout {
			wide += int(k)
		}
	}
	if wide > 0 {
		f.wide = newPairTable(wide)
		for h := range f.heads.size() {
			if f.rootAt[h+1]-f.rootAt[h] > wideFanout {
				for _, c := range f.roots[f.rootAt[h]:f.rootAt[h+1]] {
					f.wide.put(int32(-1-h), f.nodes[c].piece, c)
				}
			}
		}
		for v := range f.nodes[:len(protos)] {
			if lo, hi := f.nodes[v].kids, f.nodes[v+1].kids; hi-lo > wideFanout {
				for c := lo; c < hi; c++ {
					f.wide.put(int32(v), f.nodes[c].piece, c)
				}
			}
		}
	}
	// The static entries of each piece, by head length.
	f.initAt, f.init = byPiece(len(f.pieceLen), headKids, headKidPiece, heads.depth)
	f.initTailAt, f.initTail = byPiece(len(f.pieceLen), headTails, headTailPiece, heads.depth)

	f.bytes = f.heads.memory() + f.pieces.memory() + 4*(cap(f.exact)+cap(f.prefix)+cap(f.fail)+cap(f.pieceLen)+
		cap(f.pieceAt)+cap(f.out)+cap(f.nextOut)+cap(f.initAt)+cap(f.initTailAt)) +
		12*(cap(f.init)+cap(f.initTail)) + 8*cap(f.tails) + int(unsafe.Sizeof(fbNode{}))*cap(f.nodes) + 4*(cap(f.rootAt)+cap(f.roots)) + 12*cap(f.wide.keys)
	return f
}

// byPiece lays out entries es (of pieces piece) by piece, each piece's
// ordered by its head's length (headLen, by head node).
func byPiece(npieces int, es []headEntry, piece []int32, headLen []int32) ([]int32, []headEntry) {
	at := make([]int32, npieces+1)
	for _, pc := range piece {
		at[pc+1]++
	}
	prefixSum(at)
	out := make([]headEntry, len(es))
	next := slices.Clone(at)
	for k, e := range es {
		e.headLen = headLen[e.head]
		out[next[piece[k]]] = e
		next[piece[k]]++
	}
	for pc := 0; pc < npieces; pc++ {
		if at[pc+1]-at[pc] > 1 {
			slices.SortStableFunc(out[at[pc]:at[pc+1]], func(a, b headEntry) int { return int(a.headLen - b.headLen) })
		}
	}
	return at, out
}

func prefixSum(a []int32) {
	for i := 1; i < len(a); i++ {
		a[i] += a[i-1]
	}
}

func filled(n int, v int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// links computes the automaton's suffix links and output chains, taking
// its states in order (by depth: a state's parent and suffix link come
// before it).
func (f *fallback) links(order []int32) {
	tr := &f.pieces
	n := tr.size()
	f.fail = make([]int32, n)
	f.out = filled(n, -1)
	f.nextOut = filled(n, -1)
	for _, t := range order {
		for k := tr.at[t]; k < tr.at[t+1]; k++ {
			b, c := tr.key[k], tr.kid[k]
			if t != 0 {
				// The longest proper suffix of c's string that is a
				// state: where the links of shallower states, all set
				// already, lead from t's link on b.
				f.fail[c] = f.step(f.fail[t], b)
			}
		}
		if t != 0 {
			f.nextOut[t] = f.out[f.fail[t]]
			f.out[t] = f.nextOut[t]
		}
		if f.pieceAt[t] >= 0 {
			f.out[t] = t
		}
	}
}
