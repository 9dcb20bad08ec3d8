package automaton

import (
	"cmp"
	"slices"
	"strings"
)

// The direct matcher decides an automaton's first inputs (Options.WarmUp)
// without building a state: it tries the patterns that could match the
// input, best first, and stops at the first that does. A crawler decides
// about a hundred URLs of each site it fetches the robots.txt of. Building
// the DFA's states for them costs more time than deciding them this way,
// though a URL costs the direct matcher more than a built DFA, and the
// states are held for as long as the file is kept. An automaton that goes
// on deciding inputs after its warm-up builds its states as usual: about
// where they start to pay (README's Results and LIMITS.md have the
// measurements).
//
// Every pattern starts with the same literal bytes, the lead ("/" for the
// paths of a robots.txt; none when some pattern starts with a star). The
// patterns are bucketed by the byte class that follows the lead, with a
// list of those that have no byte there (they end at the lead, or a star
// follows it) and so are candidates for every input. An input that does
// not start with the lead matches nothing; otherwise its candidates are
// its bucket and that list.
//
// A bucket small enough that its patterns and the list are at most
// maxDirectCandidates is kept in rank order: the two lists are merged, and
// the first pattern that matches is the best. A larger bucket (a file with
// a hundred rules under "/gp/") is sorted by the patterns' heads, their
// bytes before the first star, and each entry points up to the nearest
// entry before it whose head is a prefix of its own. The candidates of an
// input are then the last entry whose head sorts at or before the input
// and the entries up from it: among them every entry whose head is a
// prefix of the input (such a head sorts between that entry's and the
// input, so it is a prefix of that entry's head too), and others that
// fail at once. Such a bucket is kept only when no chain up, with the
// list, is longer than maxDirectCandidates.
//
// So an automaton uses the direct matcher only when no input has more than
// maxDirectCandidates candidates (directFor), and, its pieces after a
// first star being short (maxDirectPiece), a candidate costs O(its bytes +
// the input's times maxDirectPiece) at worst (matchOne): an input costs at
// most maxDirectCandidates times that, plus a binary search in a large
// bucket.
//
// The direct matcher shares nothing with the DFA but the prog's layout and
// classes; the differential tests compare all three matchers with the
// reference.

// maxDirectCandidates is the most patterns the direct matcher may try on
// one input: an automaton in which an input could have more candidates
// decides with its DFA from the first input.
const maxDirectCandidates = 32

// maxChainedBucket is the largest bucket the direct matcher sorts by head:
// sorting costs Compile about log2(maxChainedBucket) comparisons a pattern,
// each of two words or, among heads that share eight bytes after the lead,
// of two heads. An automaton with a larger bucket decides with its DFA
// from the first input.
const maxChainedBucket = 256

// DefaultWarmUp is the number of inputs the direct matcher decides, when
// the automaton has one, before the DFA builds its first state
// (Options.WarmUp).
const DefaultWarmUp = 256

// direct is the direct matcher's index over a prog: the lead's length, and
// in one slice, index:
//   - at, its first nclass+2 words: the bucket of class c is
//     index[at[c]:at[c+1]], the class nclass standing for the list of
//     patterns with no byte after the lead;
//   - the buckets' ranks, each in rank order, or sorted by head when it
//     is large (see chained);
//   - up, for the entries of a large bucket: the place in the bucket of
//     the entry its chain goes up to, +1 (0: none);
//   - each pattern's first star (see star).
type direct struct {
	lead  int32
	index []uint16
}

// maxDirectPiece is the longest piece after a first star (the bytes
// between two stars, or after the last) that the direct matcher looks for
// in an input: an automaton with a longer one has no warm-up. A search of
// a piece of m bytes costs O(len(input) * m) at worst in the standard
// library's strings.Index (its brute force on short needles, Rabin-Karp
// with chosen collisions on long ones), so the bound keeps every candidate
// linear in the input.
const maxDirectPiece = 32

// max16 bounds the index's 16-bit offsets, ranks and first stars.
const max16 = 1<<16 - 1

// directFor returns the direct matcher's index for p, and false when some
// input would have more than maxDirectCandidates candidates or a bound
// above is passed (maxChainedBucket, maxDirectPiece, 16 bits).
func directFor(p *prog, sc *scratch) (direct, bool) {
	n := int32(len(p.starts) - 1)
	if n == 0 {
		return direct{}, false
	}
	// The lead: the bytes before the first star of pattern 0 that every
	// pattern starts with.
	first := p.pattern(0)
	lead := int32(len(first))
	if i := strings.IndexByte(first, Wildcard); i >= 0 {
		lead = int32(i)
	}
	for r := int32(1); r < n && lead > 0; r++ {
		b := p.pattern(r)
		k := int32(0)
		for k < lead && int(k) < len(b) && b[k] == first[k] {
			k++
		}
		lead = k
	}
	nc := int32(p.nclass)
	// A bucket's key: the class of the byte after the lead, nc for none.
	key := func(r int32) int32 {
		b := p.pattern(r)
		if int(lead) >= len(b) || b[lead] == Wildcard {
			return nc
		}
		return int32(p.classes[b[lead]])
	}
	var count [258]int32 // per key; nclass <= 257
	for r := range n {
		count[key(r)]++
	}
	everywhere := count[nc]
	if everywhere > maxDirectCandidates {
		return direct{}, false
	}
	for c := range nc {
		if chained(count[c], everywhere) && count[c] > maxChainedBucket {
			return direct{}, false
		}
	}
	// The index's offsets and ranks are 16 bits: with at most
	// maxChainedBucket patterns a bucket, only an automaton of tens of
	// thousands of patterns is turned away here.
	if nc+2+n >= max16 {
		return direct{}, false
	}
	dm := direct{lead: lead, index: make([]uint16, nc+2+3*n)}
	index := dm.index
	at := index[:nc+2]
	at[0] = uint16(nc + 2)
	for c := range nc + 1 {
		at[c+1] = at[c] + uint16(count[c])
	}
	// Place each rank at its bucket's next free slot: at[c] moves to the
	// bucket's end, then back.
	for r := range n {
		c := key(r)
		index[at[c]] = uint16(r)
		at[c]++
	}
	copy(at[1:], at[:nc+1])
	at[0] = uint16(nc + 2)
	// Each pattern's first star, +1 (0: none), within 16 bits, and every
	// piece after it short (see maxDirectPiece).
	for r := range n {
		b := p.pattern(r)
		star := strings.IndexByte(b, Wildcard)
		if star >= max16-1 {
			return direct{}, false
		}
		index[nc+2+2*n+r] = uint16(star + 1)
		for rest := b[star+1:]; star >= 0 && rest != ""; {
			end := strings.IndexByte(rest, Wildcard)
			if end < 0 {
				end = len(rest)
			}
			if end > maxDirectPiece {
				return direct{}, false
			}
			rest = rest[min(end+1, len(rest)):]
		}
	}
	for c := range nc {
		if chained(count[c], everywhere) && !dm.chain(p, sc, c) {
			return direct{}, false
		}
	}
	return dm, true
}

// chained reports whether a bucket of size patterns, with everywhere
// patterns in the list of those with no byte after the lead, is large:
// sorted by head, its entries pointing up.
func chained(size, everywhere int32) bool {
	return size+everywhere > maxDirectCandidates
}

// head returns the bytes of the pattern of rank r before its first star.
func (dm *direct) head(p *prog, r int32) string {
	b := p.pattern(r)
	if i := dm.star(p, r); i >= 0 {
		return b[:i]
	}
	return b
}

// headKey is a sort key of a pattern's head: its bytes after the bucket's
// byte (the ones before are the same in a bucket), the first eight of
// them big-endian, zeros after its end. A key smaller than another's is a
// head that sorts first; equal keys are compared whole.
type headKey struct {
	key uint64
	r   uint16
}

// chain sorts the bucket of class c by head (then rank) and points each
// entry up, and reports whether no chain up, with the patterns that have
// no byte after the lead, is longer than maxDirectCandidates.
func (dm *direct) chain(p *prog, sc *scratch, c int32) bool {
	nc := int32(p.nclass)
	at := dm.index[:nc+2]
	es := dm.index[at[c]:at[c+1]]
	from := int(dm.lead) + 1
	keys := sc.heads[:0]
	for _, r := range es {
		h := dm.head(p, int32(r))
		var k uint64
		for i := from; i < from+8; i++ {
			k <<= 8
			if i < len(h) {
				k |= uint64(h[i])
			}
		}
		keys = append(keys, headKey{k, r})
	}
	sc.heads = keys
	// By key (a compare of two words), then each run of equal keys by the
	// whole heads: the heads are read only in runs, which in real files
	// are rules that share eight bytes after the lead.
	slices.SortFunc(keys, func(a, b headKey) int {
		if a.key != b.key {
			return cmp.Compare(a.key, b.key)
		}
		return cmp.Compare(a.r, b.r)
	})
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j].key == keys[i].key {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(keys[i:j], func(a, b headKey) int {
				if c := strings.Compare(dm.head(p, int32(a.r)), dm.head(p, int32(b.r))); c != 0 {
					return c
				}
				return cmp.Compare(a.r, b.r)
			})
		}
		i = j
	}
	for k := range keys {
		es[k] = keys[k].r
	}
	up := dm.ups(p, int(c))
	limit := maxDirectCandidates - int(at[nc+1]-at[nc])
	// The chain of the entry before: entries whose heads are prefixes of
	// each other, shortest first.
	var chain [maxDirectCandidates + 1]int
	stack := chain[:0]
	for k, r := range es {
		h := dm.head(p, int32(r))
		for len(stack) > 0 && !strings.HasPrefix(h, dm.head(p, int32(es[stack[len(stack)-1]]))) {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			up[k] = uint16(stack[len(stack)-1] + 1)
		}
		if stack = append(stack, k); len(stack) > limit {
			return false
		}
	}
	return true
}

// match returns the best pattern (rank+1) that matches in, 0 if none, and
// the number of patterns it tried (at most maxDirectCandidates): in is the
// input up to its first End byte.
func (dm *direct) match(p *prog, in string) (uint32, int) {
	lead := int(dm.lead)
	if lead > 0 && (len(in) < lead || in[:lead] != p.pattern(0)[:lead]) {
		return 0, 0
	}
	nc := p.nclass
	at := dm.index[:nc+2]
	everywhere := dm.index[at[nc]:at[nc+1]]
	if len(in) <= lead {
		return dm.first(p, everywhere, nil, in)
	}
	c := int(p.classes[in[lead]])
	bucket := dm.index[at[c]:at[c+1]]
	if !chained(int32(len(bucket)), int32(len(everywhere))) {
		return dm.first(p, everywhere, bucket, in)
	}
	// The last entry whose head sorts at or before in, then up.
	lo, hi := 0, len(bucket)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if dm.head(p, int32(bucket[mid])) <= in {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	up := dm.ups(p, c)
	best, tried := uint32(0), 0
	for k := lo - 1; k >= 0; k = int(up[k]) - 1 {
		if r := int32(bucket[k]); best == 0 || uint32(r)+1 < best {
			tried++
			if dm.matchOne(p, r, in) {
				best = uint32(r) + 1
			}
		}
	}
	for _, r := range everywhere {
		if best != 0 && uint32(r)+1 >= best {
			break
		}
		tried++
		if dm.matchOne(p, int32(r), in) {
			return uint32(r) + 1, tried
		}
	}
	return best, tried
}

// first returns the first pattern (rank+1) of a and b, two lists in rank
// order, that matches in, 0 if none, and the number of patterns it tried.
func (dm *direct) first(p *prog, a, b []uint16, in string) (uint32, int) {
	tried := 0
	for len(a) > 0 || len(b) > 0 {
		var r int32
		if len(a) == 0 || (len(b) > 0 && b[0] < a[0]) {
			r, b = int32(b[0]), b[1:]
		} else {
			r, a = int32(a[0]), a[1:]
		}
		tried++
		if dm.matchOne(p, r, in) {
			return uint32(r) + 1, tried
		}
	}
	return 0, tried
}

// ups returns the up entries of the bucket of class c (see direct).
func (dm *direct) ups(p *prog, c int) []uint16 {
	at, n := dm.index, len(p.starts)-1
	return dm.index[int(at[c])+n : int(at[c+1])+n]
}

// star returns the offset of the first star of the pattern of rank r in
// its bytes, -1 if it has none.
func (dm *direct) star(p *prog, r int32) int32 {
	return int32(dm.index[len(dm.index)-(len(p.starts)-1)+int(r)]) - 1
}

// matchOne reports whether the pattern of rank r matches in (a prefix of
// it, or all of it when the pattern is anchored). Its pieces between stars
// are looked for in turn, each at its leftmost place after the one before:
// that leaves the most input for the rest, so it finds a match if there is
// one, each piece's search reading the input from the end of the last
// (see maxDirectPiece).
func (dm *direct) matchOne(p *prog, r int32, in string) bool {
	b := p.pattern(r)
	anchored := p.anchored(r)
	i := int(dm.star(p, r))
	if i < 0 {
		// Most candidates differ from the input before their end: their
		// last byte tells them apart, and costs no call.
		if len(in) < len(b) || len(b) > 0 && in[len(b)-1] != b[len(b)-1] {
			return false
		}
		if anchored {
			return len(in) == len(b) && in[:len(b)] == b
		}
		return in[:len(b)] == b
	}
	if !strings.HasPrefix(in, b[:i]) {
		return false
	}
	// Stars are collapsed and never last (simplify): each piece is
	// non-empty.
	pos, b := i, b[i+1:]
	for {
		j := strings.IndexByte(b, Wildcard)
		if j < 0 {
			if anchored {
				return len(in)-len(b) >= pos && strings.HasSuffix(in, b)
			}
			return strings.Contains(in[pos:], b)
		}
		k := strings.Index(in[pos:], b[:j])
		if k < 0 {
			return false
		}
		pos, b = pos+k+j, b[j+1:]
	}
}
