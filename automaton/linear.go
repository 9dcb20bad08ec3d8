package automaton

import (
	"cmp"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/seed-275a9bd5/robotstxt/internal/bytesearch"
)

// The linear engine decides an input by trying the patterns that could
// match it, best first, each by a greedy match of its literal pieces
// (matchOne): it builds no state and writes nothing shared, so it costs
// nothing to set up and scales with cores. Without an index every pattern
// is tried; the index, built at a Set's second input, groups the patterns
// by the byte after the literal prefix they all share, so that an input
// tries its group and the patterns that every input must try. An input
// whose tries would search its bytes too often (many patterns with stars
// alive) is handed to the piece matcher (pieces.go), whose cost does not
// grow with the patterns alive.

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

// matchOne reports whether pattern p matches input x: a prefix of x
// when p is not anchored, the whole of x when it is. It takes the leftmost
// occurrence of each piece between stars, which is never worse than a
// later one, so it runs in one pass over x per piece (strings.Index) and
// reads each byte of p once. starInX says whether x holds a '*' byte (the
// caller looks once per input). work is the number of input bytes its
// searches could read, for the caller's bounds.
//
// Most patterns tried have no star, or differ from x before their first
// one: the common prefix of p and x says so without looking for a star,
// as a star of p within it is a '*' of x. (A star matches that byte too,
// so p matching x byte for byte is a match all the same.)
func matchOne(p string, anchored bool, x string, starInX bool) (ok bool, work int) {
	p, anchored = trimStars(p, anchored)
	k := commonPrefix(p, x)
	if k == len(p) {
		return !anchored || len(x) == len(p) || starInX && matchStars(p, anchored, x, &work), work
	}
	if p[k] != Wildcard && !(starInX && strings.IndexByte(p[:k], Wildcard) >= 0) {
		return false, 0
	}
	return matchStars(p, anchored, x, &work), work
}

// trimStars returns pattern p without its trailing stars, which match
// whatever follows, so that it is anchored no more: "/a*" and "/a*",
// anchored, match what "/a" matches.
func trimStars(p string, anchored bool) (string, bool) {
	if len(p) == 0 || p[len(p)-1] != Wildcard {
		return p, anchored
	}
	for len(p) > 0 && p[len(p)-1] == Wildcard {
		p = p[:len(p)-1]
	}
	return p, false
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && bytesearch.Load64(a[i:]) == bytesearch.Load64(b[i:]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// matchStars is matchOne for a pattern with stars, reading each of its
// pieces in turn; it adds to *work the bytes its searches could read.
func matchStars(p string, anchored bool, x string, work *int) bool {
	star := strings.IndexByte(p, Wildcard)
	if star < 0 {
		return anchored && x == p || !anchored && strings.HasPrefix(x, p)
	}
	if !strings.HasPrefix(x, p[:star]) {
		return false
	}
	i := star // x[:i] is matched
	p = p[star+1:]
	for {
		star = strings.IndexByte(p, Wildcard)
		if star < 0 { // the last piece
			if anchored {
				return len(x)-i >= len(p) && strings.HasSuffix(x, p)
			}
			*work += len(x) - i
			return p == "" || strings.Contains(x[i:], p)
		}
		if star > 0 {
			*work += len(x) - i
			k := strings.Index(x[i:], p[:star])
			if k < 0 {
				return false
			}
			i += k + star
		}
		p = p[star+1:]
	}
}

// head returns the bytes of p before its first star (all of p if none):
// what an input must start with for p to match it.
func head(p string) string {
	if i := strings.IndexByte(p, Wildcard); i >= 0 {
		return p[:i]
	}
	return p
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
// read through; a walk tries the last minWalked patterns it narrows to.
const (
	minSorted = 32
	minWalked = 8
)

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
	hash    uint16
	pattern uint32
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
// p past its first skip bytes.
func eachPair(p string, skip int, fn func(h uint16)) {
	for i := skip; i+1 < len(p); i++ {
		if p[i] != Wildcard && p[i+1] != Wildcard {
			fn(pairHash(p[i], p[i+1]))
		}
	}
}

// Where buildIndex puts a pattern.
const (
	inBucket = iota
	inPairs
	inAlways
)

// buildIndex makes the index of s's patterns.
func buildIndex(s *Set) *index {
	ps := make([]placed, len(s.pats))
	for i := range s.pats {
		p, _ := trimStars(s.pattern(i), false)
		ps[i].head = head(p)
	}
	ix := &index{lead: leadOf(ps)}
	var counts [pairBits]uint16
	ix.place(s, ps, &counts)
	var n [3]int
	for _, p := range ps {
		n[p.where]++
	}
	bucketed := make([]uint32, 0, n[inBucket])
	ix.always = make([]uint32, 0, n[inAlways])
	if n[inPairs] > 0 {
		ix.pairs = &pairIndex{keyed: make([]pairKey, 0, n[inPairs])}
	}
	for i, p := range ps {
		switch p.where {
		case inBucket:
			bucketed = append(bucketed, uint32(i))
		case inPairs:
			ix.pairs.add(rarestPair(s.pattern(i), len(ix.lead), &counts), uint32(i))
		default:
			ix.always = append(ix.always, uint32(i))
		}
	}
	slices.SortFunc(ix.always, s.compareRank)
	if ix.pairs != nil {
		slices.SortFunc(ix.pairs.keyed, func(a, b pairKey) int { return int(a.hash) - int(b.hash) })
	}
	ix.setBuckets(s, bucketed, ps)
	return ix
}

// placed is a pattern's head, and where buildIndex puts it.
type placed struct {
	head  string
	where uint8 // inBucket, inPairs, inAlways
}

// place says where each pattern goes, and counts the pairs of the
// patterns that could go to pairs. A pattern with a star goes to pairs
// when there are several such (minPaired) and it holds a pair past the
// lead, unless it has a head past the lead that fewer patterns with stars
// share than hold its rarest pair: so "/*?sort=" is found by a pair, and
// "/fr/*color=" by its head "/fr/", unless a thousand patterns start
// "/fr/*".
func (ix *index) place(s *Set, ps []placed, counts *[pairBits]uint16) {
	l := len(ix.lead)
	// sameHead counts the patterns that could go to pairs by a hash of
	// their heads, where those go past the lead: a collision counts more,
	// which sends a pattern to pairs, never wrong.
	var sameHead [pairBits]uint16
	npairable := 0
	for i := range ps {
		p, _ := trimStars(s.pattern(i), false)
		h := ps[i].head
		switch {
		case len(h) < len(p) && hasPair(p, l):
			ps[i].where = inPairs
			npairable++
			eachPair(p, l, func(h uint16) { counts[h] = min(counts[h]+1, 1<<16-1) })
			if len(h) > l {
				k := headHash(h)
				sameHead[k] = min(sameHead[k]+1, 1<<16-1)
			}
		case len(h) > l:
			ps[i].where = inBucket
		default:
			ps[i].where = inAlways
		}
	}
	for i := range ps {
		h := ps[i].head
		if ps[i].where != inPairs {
			continue
		}
		switch {
		case npairable < minPaired && len(h) > l:
			ps[i].where = inBucket
		case npairable < minPaired:
			ps[i].where = inAlways
		case len(h) > l && sameHead[headHash(h)] <= counts[rarestPair(s.pattern(i), l, counts)]:
			ps[i].where = inBucket
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

// leadOf returns the longest prefix that every non-empty head of ps
// starts with.
func leadOf(ps []placed) (lead string) {
	first := true
	for _, p := range ps {
		switch h := p.head; {
		case h == "":
		case first:
			lead, first = h, false
		default:
			lead = lead[:commonPrefix(lead, h)]
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

// setBuckets lays out the patterns whose heads are longer than the lead
// in buckets by their byte after it (a counting sort), and sorts each
// bucket of more than minSorted by head (ps[i].head is pattern i's), a head
// before every longer one it is a prefix of.
func (ix *index) setBuckets(s *Set, bucketed []uint32, ps []placed) {
	l := len(ix.lead)
	var count [257]uint32
	nk := 0
	for _, i := range bucketed {
		c := int(s.pattern(int(i))[l]) // an int: count[c+1] for the byte 0xFF
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
	ix.start = append(ix.start, uint32(len(bucketed)))
	ix.order = make([]uint32, len(bucketed))
	for _, i := range bucketed {
		c := s.pattern(int(i))[l]
		ix.order[count[c]] = i
		count[c]++
	}
	var scratch []headKey
	for k := range ix.keys {
		if b := ix.order[ix.start[k]:ix.start[k+1]]; len(b) > minSorted {
			if cap(scratch) < len(b) {
				scratch = make([]headKey, len(b))
			}
			sortHeads(b, ps, l+1, scratch[:len(b)])
		}
	}
}

// headKey is a pattern and the 7 bytes of its head at some depth, as
// sortHeads compares them.
type headKey struct {
	key     uint64
	pattern uint32
}

// sortHeads sorts b, patterns whose heads (ps[i].head is pattern i's) share
// their first d bytes, by head, a head before every longer one it is a
// prefix of: by the 7 bytes at d, and each run that shares those (and
// goes on past them) by the 7 after, in scratch (len(b) of them). A sort
// of numbers in an array is several times faster than one of strings
// that share long prefixes (a site's thousands of rules under one path).
func sortHeads(b []uint32, ps []placed, d int, scratch []headKey) {
	for k, i := range b {
		scratch[k] = headKey{key7(ps[i].head, d), i}
	}
	slices.SortFunc(scratch, func(x, y headKey) int { return cmp.Compare(x.key, y.key) })
	for k, e := range scratch {
		b[k] = e.pattern
	}
	for lo := 0; lo < len(b); {
		hi := lo + 1
		for hi < len(b) && scratch[hi].key == scratch[lo].key {
			hi++
		}
		if hi-lo > 1 && scratch[lo].key&0xFF == 8 { // they go on past these 7 bytes
			sortHeads(b[lo:hi], ps, d+7, scratch[lo:hi])
		}
		lo = hi
	}
}

// key7 returns head's 7 bytes from d (zeros past its end) in its top 56
// bits, and in its low 8 bits how many bytes it has from d, at most 8: a
// head that ends there orders before every longer one, also one that goes
// on with zeros.
func key7(head string, d int) uint64 {
	var k uint64
	for j := range 7 {
		k <<= 8
		if d+j < len(head) {
			k |= uint64(head[d+j])
		}
	}
	return k<<8 | uint64(min(max(len(head)-d, 0), 8))
}

// add puts pattern i under hash h.
func (px *pairIndex) add(h uint16, i uint32) {
	px.has[h>>6] |= 1 << (h & 63)
	px.keyed = append(px.keyed, pairKey{h, i})
}

// hasPair reports whether p holds two literal bytes in a row past its
// first skip bytes.
func hasPair(p string, skip int) bool {
	found := false
	eachPair(p, skip, func(uint16) { found = true })
	return found
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
			buf[n] = px.keyed[k].pattern
			n++
		}
	}
	for _, i := range buf[:n] {
		fn(i)
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

// heads calls fn with every pattern of x's bucket whose head x starts
// with (and with the other patterns of a small bucket, read through), of a
// sorted one by a walk: the patterns whose heads share x's first d bytes are a range of
// it, those whose heads end there first; the range for d+1 is found by
// two binary searches on byte d, until it holds few enough to try them
// all (minWalked). It returns the steps it took.
func (s *Set) heads(ix *index, x string, fn func(uint32)) int {
	b := ix.bucket(x)
	if len(b) <= minSorted { // fn tries each, and a try reads the head first
		for _, i := range b {
			fn(i)
		}
		return len(b)
	}
	steps := 0
	lo, hi := 0, len(b)
	for d := len(ix.lead) + 1; lo < hi; d++ {
		if hi-lo <= minWalked {
			for _, i := range b[lo:hi] {
				fn(i)
			}
			break
		}
		for lo < hi {
			if p := s.pattern(int(b[lo])); len(p) != d && p[d] != Wildcard {
				break
			}
			fn(b[lo])
			lo++
		}
		if d >= len(x) {
			break
		}
		c := x[d]
		at := func(k int) byte { return s.text[s.pats[b[lo+k]].Start+uint32(d)] }
		lo += sortFind(hi-lo, func(k int) bool { return at(k) >= c })
		hi = lo + sortFind(hi-lo, func(k int) bool { return at(k) > c })
		steps++
	}
	return steps
}

// sortFind returns the least k in [0, n) for which f is true (f is false
// then true over that range), or n: sort.Search.
func sortFind(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if f(m) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// linear is the linear engine's state in a Set: its index, once built.
type linear struct {
	index atomic.Pointer[index]
	// seen is set by the first input: the index is built at the second.
	seen atomic.Bool
}

// tried is what the linear engine did for one input, for the policy.
type tried struct {
	candidates int  // patterns tried
	work       int  // input bytes their piece searches could read
	gaveUp     bool // the tries passed their bound: the piece matcher must decide
}

// scan decides x by trying the patterns the index says could match it,
// or all of them when it has no index yet. It gives up, with gaveUp set,
// when the tries would search more than maxTryBytes times x's bytes.
func (s *Set) scan(x string) (int, tried) {
	ix := s.lin.index.Load()
	if ix == nil {
		if len(s.pats) >= minIndexed && s.lin.seen.Load() {
			ix = s.buildIndex()
		} else {
			if !s.lin.seen.Load() {
				s.lin.seen.Store(true)
			}
			return s.scanAll(x)
		}
	}
	t := tries{s: s, x: x, starInX: strings.IndexByte(x, Wildcard) >= 0, best: NoMatch, limit: maxTryBytes*len(x) + tryBytesSlack}
	t.candidates += s.heads(ix, x, t.try)
	if ix.pairs != nil && !t.gaveUp && !ix.pairs.candidates(x, t.try) {
		t.gaveUp = true
	}
	for _, i := range ix.always {
		if t.gaveUp || t.best != NoMatch && s.compareRank(i, uint32(t.best)) > 0 {
			break // the rest rank lower
		}
		t.try(i)
	}
	return t.best, t.tried
}

// tries is the state of scan's tries on one input.
type tries struct {
	s       *Set
	x       string
	starInX bool
	best    int
	limit   int
	tried
}

// try tries pattern i on the input, unless it cannot beat the best found
// or the tries have given up.
func (t *tries) try(i uint32) {
	if t.gaveUp || t.best != NoMatch && t.s.compareRank(i, uint32(t.best)) > 0 {
		return
	}
	t.candidates++
	p := t.s.pats[i]
	ok, w := matchOne(t.s.text[p.Start:p.end()], p.Anchored, t.x, t.starInX)
	if ok {
		t.best = int(i)
	}
	if t.work += w; t.work > t.limit {
		t.gaveUp = true
	}
}

// scanAll decides x by trying every pattern, in the order given.
func (s *Set) scanAll(x string) (int, tried) {
	limit := maxTryBytes*len(x) + tryBytesSlack
	starInX := strings.IndexByte(x, Wildcard) >= 0
	var t tried
	best := NoMatch
	for i := range s.pats {
		p := &s.pats[i]
		if best != NoMatch && p.Priority <= s.pats[best].Priority {
			continue
		}
		t.candidates++
		ok, w := matchOne(s.text[p.Start:p.end()], p.Anchored, x, starInX)
		t.work += w
		if ok {
			best = i
		} else if t.work > limit {
			t.gaveUp = true
			break
		}
	}
	return best, t
}

// buildIndex builds the index once, under the Set's mutex.
func (s *Set) buildIndex() *index {
	s.mu.Lock()
	defer s.mu.Unlock()
	ix := s.lin.index.Load()
	if ix == nil {
		ix = buildIndex(s)
		s.lin.index.Store(ix)
	}
	return ix
}
