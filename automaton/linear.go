package automaton

import (
	"slices"
	"strings"
)

// The linear engine (doc.go) builds no state and writes nothing shared,
// so it costs nothing to set up and scales with cores. Without an index
// (built at a Set's second input) it tries every pattern.

// maxTryBytes bounds the bytes the tries of one input may search, as a
// multiple of the input's length (plus tryBytesSlack), before the input
// goes to the piece matcher: a try's piece search reads the input once,
// vectorised, so a few dozen tries cost about what one pass of the piece
// matcher does.
const (
	maxTryBytes   = 128
	tryBytesSlack = 8 << 10
)

// minIndexed is the fewest patterns an index is built for: fewer are
// tried one by one in about the time an index lookup takes.
const minIndexed = 16

// matches reports whether the pattern of in, whose bytes are b, matches
// x: a prefix of x when it is not anchored, the whole of x when it is. It
// takes the leftmost occurrence of each piece, which is never worse than
// a later one, so it runs in one pass over x per piece (strings.Index) and
// reads each byte of the pattern once. It adds to *work the input bytes
// its searches could read, for the caller's bounds.
func (in *inst) matches(b, x string, work *int) bool {
	if !strings.HasPrefix(x, b[:in.head]) {
		return false
	}
	if in.head == in.n {
		return !in.anchored || len(x) == int(in.n)
	}
	i := int(in.head) // x[:i] is matched
	for p, mid := nextPiece(in.mid(b)); p != ""; p, mid = nextPiece(mid) {
		*work += len(x) - i
		k := strings.Index(x[i:], p)
		if k < 0 {
			return false
		}
		i += k + len(p)
	}
	return in.ends(b, x, i)
}

// ends reports whether the tail of in, whose bytes are b, ends x after
// its byte i (any x when it has none).
func (in *inst) ends(b, x string, i int) bool {
	return len(x)-i >= int(in.tail) && strings.HasSuffix(x, b[in.n-in.tail:])
}

// index groups a Set's patterns for the linear engine, so that an input
// tries few of them. lead is the longest prefix that every pattern whose
// head is not empty starts with.
//
//   - When several patterns have stars (minPaired), those that hold two
//     literal bytes in a row past the lead are in pairs, under the rarest
//     such pair they hold (an input tries the patterns of the pairs it
//     holds), but for those whose heads go past the lead and are shared by
//     fewer patterns with stars than their rarest pair (see place).
//   - Every other pattern whose head is longer than lead is in the bucket
//     of its byte after it (keys[k]: order[start[k]:start[k+1]]): an
//     input tries the patterns of its bucket whose head it starts with. A
//     bucket of more than minSorted patterns is sorted by head, so that a
//     walk down it finds them in O(log n) a byte of the input (heads); a
//     smaller one is read through.
//   - Every other pattern is in always, which every input tries, best
//     first.
type index struct {
	lead   string
	keys   []byte
	start  []uint32
	order  []uint32
	always []uint32
	pairs  *pairIndex
}

// minSorted is the smallest bucket that is sorted and walked rather than
// read through.
const minSorted = 32

// minPaired is the fewest patterns with stars that are filtered by pairs:
// below it, trying them all costs less than looking at every pair of
// bytes of an input.
const minPaired = 4

// pairIndex holds patterns under a pair of bytes they hold, hashed to
// pairBits bits: has says which hashes hold patterns, and keyed holds them
// by hash.
type pairIndex struct {
	has   [pairBits / 64]uint64
	keyed []pairKey
}

type pairKey struct {
	hash uint16
	rank uint32
}

const pairBits = 1 << 10

// pairHash hashes the bytes a and b to pairBits bits.
func pairHash(a, b byte) uint16 {
	return uint16((uint32(a)<<8|uint32(b))*0x9E3779B1>>22) & (pairBits - 1)
}

func (ix *index) bytes() int {
	n := 64 + len(ix.keys) + 4*(len(ix.start)+len(ix.order)+len(ix.always))
	if ix.pairs != nil {
		n += pairBits/8 + 8*len(ix.pairs.keyed)
	}
	return n
}

// eachPair calls fn with every pair of literal bytes in a row of pattern
// p past its first skip bytes, and reports whether there was one.
func eachPair(p string, skip int, fn func(h uint16)) (any bool) {
	for i := skip; i+1 < len(p); i++ {
		if p[i] != wildcard && p[i+1] != wildcard {
			fn(pairHash(p[i], p[i+1]))
			any = true
		}
	}
	return any
}

// Where buildIndex puts a pattern.
const (
	inBucket = iota
	inPairs
	inAlways
)

// buildIndex makes the index of s's patterns.
func buildIndex(s *Set) *index {
	ix := &index{lead: s.lead()}
	where := make([]uint8, len(s.prog))
	var counts [pairBits]uint16
	ix.place(s, where, &counts)
	var n [3]int
	for _, w := range where {
		n[w]++
	}
	ix.always = make([]uint32, 0, n[inAlways])
	if n[inPairs] > 0 {
		ix.pairs = &pairIndex{keyed: make([]pairKey, 0, n[inPairs])}
	}
	for r, w := range where {
		switch w {
		case inPairs:
			h := rarestPair(s.bytesOf(uint32(r)), len(ix.lead), &counts)
			ix.pairs.has[h>>6] |= 1 << (h & 63)
			ix.pairs.keyed = append(ix.pairs.keyed, pairKey{h, uint32(r)})
		case inAlways:
			ix.always = append(ix.always, uint32(r))
		}
	}
	if ix.pairs != nil {
		slices.SortStableFunc(ix.pairs.keyed, func(a, b pairKey) int { return int(a.hash) - int(b.hash) })
	}
	ix.setBuckets(s, where, n[inBucket])
	return ix
}

// place says where each pattern goes (see index), and counts the pairs of
// the patterns that could go to pairs: so "/*?sort=" is found by a pair,
// and "/fr/*color=" by its head "/fr/", unless a thousand patterns start
// "/fr/*".
func (ix *index) place(s *Set, where []uint8, counts *[pairBits]uint16) {
	l := len(ix.lead)
	// sameHead counts the patterns that could go to pairs by a hash of
	// their heads, where those go past the lead: a collision counts more,
	// which sends a pattern to pairs, never wrong.
	var sameHead [pairBits]uint16
	npairable := 0
	for r := range s.prog {
		p, h := s.bytesOf(uint32(r)), s.head(uint32(r))
		switch {
		case len(h) < len(p) && eachPair(p, l, func(h uint16) { counts[h] = min(counts[h]+1, 1<<16-1) }):
			where[r] = inPairs
			npairable++
			if len(h) > l {
				k := headHash(h)
				sameHead[k] = min(sameHead[k]+1, 1<<16-1)
			}
		case len(h) > l:
			where[r] = inBucket
		default:
			where[r] = inAlways
		}
	}
	for r := range s.prog {
		switch h := s.head(uint32(r)); {
		case where[r] != inPairs:
		case npairable < minPaired && len(h) > l:
			where[r] = inBucket
		case npairable < minPaired:
			where[r] = inAlways
		case len(h) > l && sameHead[headHash(h)] <= counts[rarestPair(s.bytesOf(uint32(r)), l, counts)]:
			where[r] = inBucket
		}
	}
}

// headHash hashes h to pairBits bits (FNV-1a).
func headHash(h string) uint16 {
	x := uint32(2166136261)
	for i := 0; i < len(h); i++ {
		x = (x ^ uint32(h[i])) * 16777619
	}
	return uint16(x>>16^x) & (pairBits - 1)
}

// lead returns the longest prefix that every non-empty head starts with.
func (s *Set) lead() (lead string) {
	first := true
	for r := range s.prog {
		switch h := s.head(uint32(r)); {
		case h == "":
		case first:
			lead, first = h, false
		default:
			k := 0
			for k < min(len(lead), len(h)) && lead[k] == h[k] {
				k++
			}
			lead = lead[:k]
		}
	}
	return lead
}

// rarestPair returns the pair of literal bytes of p past its first skip
// bytes that counts says the fewest patterns hold.
func rarestPair(p string, skip int, counts *[pairBits]uint16) uint16 {
	rarest, found := uint16(0), false
	eachPair(p, skip, func(h uint16) {
		if !found || counts[h] < counts[rarest] {
			rarest, found = h, true
		}
	})
	return rarest
}

// setBuckets lays out the n patterns placed inBucket in their buckets (a
// counting sort, which keeps them in rank order), and sorts each bucket of
// more than minSorted by head.
func (ix *index) setBuckets(s *Set, where []uint8, n int) {
	l := len(ix.lead)
	var count [257]uint32
	nk := 0
	for r, w := range where {
		if w != inBucket {
			continue
		}
		c := int(s.bytesOf(uint32(r))[l]) // an int: count[c+1] for the byte 0xFF
		if count[c+1] == 0 {
			nk++
		}
		count[c+1]++
	}
	ix.keys, ix.start = make([]byte, 0, nk), make([]uint32, 0, nk+1)
	for c := range 256 {
		if count[c+1] > 0 {
			ix.keys = append(ix.keys, byte(c))
			ix.start = append(ix.start, count[c])
		}
		count[c+1] += count[c]
	}
	ix.start = append(ix.start, uint32(n))
	ix.order = make([]uint32, n)
	for r, w := range where {
		if w == inBucket {
			c := s.bytesOf(uint32(r))[l]
			ix.order[count[c]] = uint32(r)
			count[c]++
		}
	}
	var scratch []headKey
	for k := range ix.keys {
		if b := ix.order[ix.start[k]:ix.start[k+1]]; len(b) > minSorted {
			if cap(scratch) < len(b) {
				scratch = make([]headKey, len(b))
			}
			s.sortHeads(b, l+1, scratch[:len(b)])
		}
	}
}

// maxPairCandidates bounds the patterns an input's pairs may make it try;
// an input with more gives up its tries.
const maxPairCandidates = 256

// candidates calls fn with the patterns under the pairs of bytes x holds,
// each once, and reports false, having called it for none, when they are
// more than maxPairCandidates.
func (px *pairIndex) candidates(x string, fn func(uint32)) bool {
	var seen [pairBits / 64]uint64
	var buf [maxPairCandidates]uint32
	n := 0
	for i := 0; i+1 < len(x); i++ {
		h := pairHash(x[i], x[i+1])
		if px.has[h>>6]&(1<<(h&63)) == 0 || seen[h>>6]&(1<<(h&63)) != 0 {
			continue
		}
		seen[h>>6] |= 1 << (h & 63)
		k, _ := slices.BinarySearchFunc(px.keyed, h, func(e pairKey, h uint16) int { return int(e.hash) - int(h) })
		for ; k < len(px.keyed) && px.keyed[k].hash == h; k++ {
			if n == len(buf) {
				return false
			}
			buf[n] = px.keyed[k].rank
			n++
		}
	}
	for _, r := range buf[:n] {
		fn(r)
	}
	return true
}

// bucket returns the patterns of the bucket of x, none when x does not
// start with the lead or has no byte after it.
func (ix *index) bucket(x string) []uint32 {
	l := len(ix.lead)
	if len(x) <= l || x[:l] != ix.lead {
		return nil
	}
	k, ok := slices.BinarySearch(ix.keys, x[l])
	if !ok {
		return nil
	}
	return ix.order[ix.start[k]:ix.start[k+1]]
}

// scan returns the rank of the best pattern matching x, found by trying
// the patterns the index says could match it, or all of them, best first,
// when it has no index yet; gaveUp when the tries would search more than
// maxTryBytes times x's bytes (the piece matcher must decide).
func (s *Set) scan(x string) (best int, gaveUp bool) {
	t := tries{s: s, x: x, best: NoMatch, limit: TryBudget(len(x))}
	ix := s.index.Load()
	if ix == nil && len(s.prog) >= minIndexed && s.seen.Load() {
		ix = s.buildIndex()
	}
	if ix == nil {
		if !s.seen.Load() {
			s.seen.Store(true)
		}
		t.all()
		return t.best, t.gaveUp
	}
	if b := ix.bucket(x); len(b) <= minSorted { // read through: a try reads the head first
		for _, r := range b {
			t.try(r)
		}
	} else {
		s.walkHeads(b, len(ix.lead)+1, x, t.try)
	}
	if ix.pairs != nil && !t.gaveUp && !ix.pairs.candidates(x, t.try) {
		t.gaveUp = true
	}
	for _, r := range ix.always {
		if t.gaveUp || t.best != NoMatch && int(r) > t.best {
			break // the rest rank lower
		}
		t.try(r)
	}
	return t.best, t.gaveUp
}

// tries is the state of the tries on one input.
type tries struct {
	s      *Set
	x      string
	best   int // a rank
	work   int // input bytes the piece searches could read
	limit  int
	gaveUp bool // work passed limit
}

// try tries the pattern of rank r on the input, unless it cannot beat the
// best found or the tries have given up.
func (t *tries) try(r uint32) {
	if t.gaveUp || t.best != NoMatch && int(r) > t.best {
		return
	}
	if t.s.prog[r].matches(t.s.bytesOf(r), t.x, &t.work) {
		t.best = int(r)
	}
	t.gaveUp = t.work > t.limit
}

// all tries every pattern, best first, up to the first that matches.
func (t *tries) all() {
	for r := 0; r < len(t.s.prog) && t.best == NoMatch && !t.gaveUp; r++ {
		t.try(uint32(r))
	}
}

// buildIndex builds the index once.
func (s *Set) buildIndex() *index {
	return once(s, &s.index, func() *index { return buildIndex(s) })
}
