package automaton

import (
	"cmp"
	"math/bits"
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
// Every pattern but those that start with a star starts with the same
// literal bytes, the lead ("/" for the paths of a robots.txt). The
// patterns are bucketed by the byte that follows the lead, with a
// list of those that have no byte there (they end at the lead, or a star
// follows it, or they start with a star: "headless") and so are
// candidates for every input. An input that does not start with the lead
// can match only the headless patterns, in that list; otherwise its
// candidates are its bucket and that list. A list longer than maxUnfiltered is filtered
// by pairs of bytes: an input's candidates from it are the patterns one of
// whose pieces has a pair of bytes that the input has too (see
// maxUnfiltered).
//
// A bucket small enough that its patterns and the list (none, when it is
// filtered) are at most maxDirectCandidates is kept in rank order: the
// two lists are merged, and the first pattern that matches is the best. A
// larger bucket (a file with
// a hundred rules under "/gp/") is sorted by the patterns' heads, their
// bytes before the first star, and each entry points up to the nearest
// entry before it whose head is a prefix of its own. The candidates of an
// input are then the last entry whose head sorts at or before the input
// and the entries up from it: among them every entry whose head is a
// prefix of the input (such a head sorts between that entry's and the
// input, so it is a prefix of that entry's head too), and others that
// fail at once.
//
// The direct matcher tries at most maxDirectCandidates patterns on an
// input, looking for at most maxDirectSearches pieces after their first
// stars in all, each search costing O(the input's bytes times
// maxDirectPiece, plus the piece's) at worst (matchOne, find); plus a
// binary search in a large bucket, and, with a filtered list, a pass over
// the input's pairs and one over the list. Where it would try or step
// over more patterns (a long chain up, many of the list's patterns
// passing the filter), or search more pieces, or finds a piece longer
// than maxDirectPiece where it might not be the leftmost, it gives up
// (directGaveUp): the warm-up ends there, and the DFA decides that input
// and the ones after it. An automaton whose every input would give up
// (more than maxDirectCandidates patterns with no byte after the lead and
// no pair to filter them by), or whose list is longer than maxFiltered, or
// with a bucket too large to sort (maxChainedBucket), or a first star past
// its index's 16 bits, has no warm-up (directFor).
//
// The direct matcher shares nothing with the DFA but the prog's spans
// (not its classes, which the DFA builds when it first runs); the
// differential tests compare all three matchers with the
// reference.

// maxDirectCandidates is the most patterns the direct matcher may try, or
// step over, on one input: an input with more candidates ends the
// warm-up, and the DFA decides it.
const maxDirectCandidates = 32

// maxChainedBucket is the largest bucket the direct matcher sorts by head
// (sortHeads: a radix sort of words, linear in the heads' bytes); an
// automaton with a larger bucket decides with its DFA from the first
// input. Sorting, and pointing each entry up, cost Compile up to about
// twice what laying out the DFA's positions does (LIMITS.md), and the
// warm-up spares an automaton that layout, and its memory, until the DFA
// runs: the corpus's largest group, 19,000 rules, is sorted.
const maxChainedBucket = 1 << 15

// DefaultWarmUp is the number of inputs the direct matcher decides, when
// the automaton has one, before the DFA builds its first state
// (Options.WarmUp).
const DefaultWarmUp = 1 << 10

// direct is the direct matcher's index over a prog: the lead's length, and
// in one slice, index:
//   - its first keyWords words, a bit for each byte some pattern has
//     after the lead (the nk bytes with a bucket), and their counts
//     before each 64 bytes (see bucket);
//   - at, its next nk+2 words: bucket c (the bucket of the c-th of those
//     bytes) is index[at[c]:at[c+1]], bucket nk standing for the list of
//     patterns with no byte after the lead;
//   - the buckets' ranks, each in rank order, or sorted by head when it
//     is large (see chained);
//   - up, for the entries from the first large bucket's to the last's
//     end (none in most automata, which have no large bucket): the place
//     in its bucket of the entry an entry's chain goes up to, +1 (0:
//     none);
//   - when the list is filtered, its patterns' keys (see keyPairs);
//   - the offset in index of the first entry with an up entry;
//   - each pattern's first star (see star).
type direct struct {
	lead uint16
	// nk is the number of bytes that follow the lead in some pattern, and
	// of their buckets.
	nk uint16
	// leadRank is a pattern that starts with the lead (the first in rank
	// order that does not start with a star).
	leadRank uint16
	// filtered: the list of patterns with no byte after the lead is
	// filtered by pairs of bytes (see maxUnfiltered), and its keys follow
	// the up entries in index.
	filtered bool
	// headless: some patterns start with a star, so do not start with the
	// lead (when it is not empty).
	headless bool
	index    []uint16
}

// maxDirectSearches is the most pieces after a first star the direct
// matcher looks for in one input, over all the patterns it tries: a few
// each for maxDirectCandidates patterns. An input that would need more
// (patterns of hundreds of stars) gives up: each search reads the
// pattern's piece, which the DFA reads once for all inputs.
const maxDirectSearches = 4 * maxDirectCandidates

// maxDirectPiece is the most bytes of a piece after a first star (the
// bytes between two stars, or after the last) that the direct matcher
// looks for in an input (see find). A search of a piece of m bytes costs
// O(len(input) * m) at worst in the standard library's strings.Index (its
// brute force on short needles, Rabin-Karp with chosen collisions on long
// ones), so the bound keeps every candidate linear in the input.
const maxDirectPiece = 32

// keyWords is the length of the bit set at the start of a direct index,
// the bytes some pattern has after the lead, one bit each (16 words),
// followed by the number of them before each 64 bytes (see bucket).
const keyWords = setWords + 2

// setWords is the length of a set of bytes in 16-bit words.
const setWords = 256 / 16

// at returns the offsets of dm's buckets in its index (see direct).
func (dm *direct) at() []uint16 {
	return dm.index[keyWords : keyWords+int(dm.nk)+2]
}

// bucket returns the bucket of the inputs whose byte after the lead is c,
// and false when no pattern has c there: its number is how many of the
// bytes before c some pattern has there, those before its 64 bytes
// counted in a byte each of the two words after the set.
func (dm *direct) bucket(c byte) (int, bool) {
	set := dm.index[:keyWords:keyWords]
	j, bit := int(c>>6), uint64(1)<<(c&63)
	w := setWord(set, j)
	if w&bit == 0 {
		return 0, false
	}
	before := (uint32(set[setWords]) | uint32(set[setWords+1])<<16) >> (8 * j) & 0xff
	return int(before) + bits.OnesCount64(w&(bit-1)), true
}

// putCounts writes the counts bucket reads after a direct index's bit set:
// the bytes of the set before each 64 bytes, a byte each (0, then those
// before 64, 128 and 192: at most 192), in two words.
func putCounts(set []uint16) {
	var before [4]uint32
	for j := 1; j < 4; j++ {
		before[j] = before[j-1] + uint32(bits.OnesCount64(setWord(set, j-1)))
	}
	set[setWords], set[setWords+1] = uint16(before[1]<<8), uint16(before[2]|before[3]<<8)
}

// setWord returns the 64 bits of the bytes 64j to 64j+63 of a direct
// index's bit set.
func setWord(set []uint16, j int) uint64 {
	s := set[4*j : 4*j+4 : 4*j+4]
	return uint64(s[0]) | uint64(s[1])<<16 | uint64(s[2])<<32 | uint64(s[3])<<48
}

// max16 bounds the index's 16-bit offsets, ranks and first stars.
const max16 = 1<<16 - 1

// directFor returns the direct matcher's index for p, and false when every
// input with a byte after the lead would have more than
// maxDirectCandidates candidates, or the list of patterns with no byte
// after the lead is longer than maxFiltered, or a bucket is larger than
// maxChainedBucket, or the index passes its 16 bits (a first star past
// 65,533 bytes, tens of thousands of patterns).
func directFor(p *prog, sc *scratch) (direct, bool) {
	n := int32(p.count())
	if n == 0 {
		return direct{}, false
	}
	// The lead: the bytes before the first star of the first pattern
	// that does not start with one, that every such pattern starts with.
	// A headless pattern goes in the list of those with no byte after the
	// lead, and spoils no lead ("*.pdf$" beside a file's "/..." rules).
	leadRank := int32(0)
	for leadRank+1 < n && headless(p.pattern(leadRank)) {
		leadRank++
	}
	first := p.pattern(leadRank)
	lead := int32(len(first))
	if i := strings.IndexByte(first, Wildcard); i >= 0 {
		lead = int32(i)
	}
	anyHeadless := false
	for r := range n {
		if b := p.pattern(r); headless(b) {
			anyHeadless = true
		} else if lead > 0 && (len(b) < int(lead) || b[:lead] != first[:lead]) {
			lead = int32(commonPrefix(first[:lead], b))
		}
	}
	if lead >= max16 {
		return direct{}, false
	}
	// A pattern's byte after the lead, 256 for none.
	byteOf := func(r int32) int32 {
		b := p.pattern(r)
		if int(lead) >= len(b) || b[lead] == Wildcard || headless(b) {
			return 256
		}
		return int32(b[lead])
	}
	var perByte [257]int32
	for r := range n {
		perByte[byteOf(r)]++
	}
	// A bucket for each byte some pattern has after the lead, in byte
	// order, numbered from 0; then the list, nc.
	var bucketOf [257]int32
	var count [258]int32 // per bucket
	nc := int32(0)
	for c, k := range perByte[:256] {
		if k > 0 {
			bucketOf[c], count[nc] = nc, k
			nc++
		}
	}
	bucketOf[256], count[nc] = nc, perByte[256]
	key := func(r int32) int32 { return bucketOf[byteOf(r)] }
	everywhere := count[nc]
	filtered := everywhere > maxUnfiltered
	sized := everywhere
	if filtered {
		sized = 0
		if everywhere > maxFiltered {
			return direct{}, false
		}
	}
	for c := range nc {
		if chained(count[c], sized) && count[c] > maxChainedBucket {
			return direct{}, false
		}
	}
	// The index's offsets and ranks are 16 bits: with at most
	// maxChainedBucket patterns a bucket, only an automaton of tens of
	// thousands of patterns is turned away here.
	if keyWords+nc+2+n >= max16 {
		return direct{}, false
	}
	keys := int32(0)
	if filtered {
		keys = everywhere
	}
	// The entries that have up entries: from the first large bucket's to
	// the last's end.
	upsFrom, upsTo, off := int32(-1), int32(0), keyWords+nc+2
	for c := range nc {
		if chained(count[c], sized) {
			if upsFrom < 0 {
				upsFrom = off
			}
			upsTo = off + count[c]
		}
		off += count[c]
	}
	if upsFrom < 0 { // no large bucket: no up entries
		upsFrom = upsTo
	}
	dm := direct{lead: uint16(lead), nk: uint16(nc), leadRank: uint16(leadRank), filtered: filtered, headless: anyHeadless && lead > 0,
		index: make([]uint16, keyWords+nc+2+n+(upsTo-upsFrom)+keys+1+n)}
	dm.index[len(dm.index)-int(n)-1] = uint16(upsFrom)
	index := dm.index
	for c, k := range perByte[:256] {
		if k > 0 {
			setBit(index, c)
		}
	}
	putCounts(index[:keyWords:keyWords])
	at := dm.at()
	at[0] = uint16(keyWords + nc + 2)
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
	at[0] = uint16(keyWords + nc + 2)
	// Each pattern's first star, +1 (0: none), within 16 bits.
	for r := range n {
		star := strings.IndexByte(p.pattern(r), Wildcard)
		if star >= max16-1 {
			return direct{}, false
		}
		index[len(index)-int(n)+int(r)] = uint16(star + 1)
	}
	for c := range nc {
		if chained(count[c], sized) {
			dm.chain(p, sc, c)
		}
	}
	if filtered && !dm.keyPairs(p) {
		return direct{}, false
	}
	return dm, true
}

// headless reports whether pattern b starts with a star, and so not with
// the lead of the direct matcher (see direct).
func headless(b string) bool { return len(b) > 0 && b[0] == Wildcard }

// chained reports whether a bucket of size patterns, with everywhere
// patterns in the list of those with no byte after the lead (0 when the
// list is filtered), is large: sorted by head, its entries pointing up.
func chained(size, everywhere int32) bool {
	return size+everywhere > maxDirectCandidates
}

// The list of patterns with no byte after the lead (a star follows it:
// "/*.pdf$", "/*?sort=") holds candidates of every input. Where it is
// longer than maxUnfiltered, each of its patterns is keyed by a pair of
// bytes that follow each other in one of its pieces, the pair fewest of
// the list's patterns have (keyPairs), and an input's candidates from the
// list are those whose pair the input has after the lead, found by a hash
// of its pairs (pairSet; a collision only lets a pattern through), and
// those with no pair (pieces of one byte). An input with more than
// maxDirectCandidates candidates gives up; an automaton whose list is
// longer than maxFiltered has no warm-up, since reading the list costs
// every input. LIMITS.md has the measurements behind both.
const (
	maxUnfiltered = 4
	maxFiltered   = 512
	// noPair is the key of a pattern with no pair of bytes in a piece.
	noPair = 1 << 15
)

// pairHash hashes a pair of bytes to one of the 512 bits of a pairSet.
func pairHash(a, b byte) uint32 {
	return (uint32(a)<<8 | uint32(b)) * 0x9E3779B1 >> 23
}

// pairSet is the set of the hashes of the pairs of bytes of an input.
type pairSet [8]uint64

// add adds the pairs of in.
func (s *pairSet) add(in string) {
	for i := 1; i < len(in); i++ {
		s.set(pairHash(in[i-1], in[i]))
	}
}

func (s *pairSet) set(h uint32) { s[h>>6] |= 1 << (h & 63) }

func (s *pairSet) has(h uint16) bool { return s[h>>6]&(1<<(h&63)) != 0 }

// keyPairs keys each pattern of the list of those with no byte after the
// lead by the hash of a pair of its bytes (see maxUnfiltered), noPair if
// it has none, and reports false when more than maxDirectCandidates have
// none: every input would give up.
func (dm *direct) keyPairs(p *prog) bool {
	at, nc := dm.at(), dm.nk
	list := dm.index[at[nc]:at[nc+1]]
	keys := dm.pairKeys(p)
	// How many of the list's patterns have each hash.
	var count [512]uint16
	var seen pairSet
	each := func(r uint16, fn func(h uint32)) {
		b := p.pattern(int32(r))
		from := int(dm.lead) + 1 // the bytes before are the lead and a star
		if headless(b) {
			from = 2 // its pieces may be anywhere in an input
		}
		for i := from; i < len(b); i++ {
			if b[i-1] != Wildcard && b[i] != Wildcard {
				fn(pairHash(b[i-1], b[i]))
			}
		}
	}
	for _, r := range list {
		seen = pairSet{}
		each(r, func(h uint32) {
			if !seen.has(uint16(h)) {
				seen.set(h)
				count[h]++
			}
		})
	}
	none := 0
	for k, r := range list {
		keys[k] = noPair
		best := uint16(max16)
		each(r, func(h uint32) {
			if count[h] < best {
				keys[k], best = uint16(h), count[h]
			}
		})
		if keys[k] == noPair {
			none++
		}
	}
	return none <= maxDirectCandidates
}

// pairKeys returns the keys of the list of patterns with no byte after
// the lead (see keyPairs), in the list's order; empty when it is not
// filtered.
func (dm *direct) pairKeys(p *prog) []uint16 {
	if !dm.filtered {
		return nil
	}
	at, nc, n := dm.at(), dm.nk, p.count()
	to := len(dm.index) - n - 1 // the keys come before the ups' offset
	return dm.index[to-int(at[nc+1]-at[nc]) : to]
}

// head returns the bytes of the pattern of rank r before its first star.
func (dm *direct) head(p *prog, r int32) string {
	b := p.pattern(r)
	if i := dm.star(p, r); i >= 0 {
		return b[:i]
	}
	return b
}

// headKeyBytes is the number of a head's bytes in one sort key (see
// sortHeads).
const headKeyBytes = 6

// chain sorts bucket c by head (then rank) and points each entry up.
func (dm *direct) chain(p *prog, sc *scratch, c int32) {
	at := dm.at()
	es := dm.index[at[c]:at[c+1]]
	keys := sc.heads[:0]
	for _, r := range es {
		keys = append(keys, uint64(r))
	}
	sc.heads = keys
	tmp := sc.heads2
	if cap(tmp) < len(keys) {
		tmp = make([]uint64, len(keys))
		sc.heads2 = tmp
	}
	// The bytes before the lead's end and the bucket's byte are the same
	// in a bucket.
	dm.sortHeads(p, keys, tmp[:len(keys)], int(dm.lead)+1)
	for k := range keys {
		es[k] = uint16(keys[k])
	}
	up := dm.ups(p, int(c))
	// The chain of the entry before: entries whose heads are prefixes of
	// each other, shortest first.
	stack := sc.order[:0]
	for k, r := range es {
		h := dm.head(p, int32(r))
		for len(stack) > 0 && !strings.HasPrefix(h, dm.head(p, int32(es[stack[len(stack)-1]]))) {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			up[k] = uint16(stack[len(stack)-1] + 1)
		}
		stack = append(stack, int32(k))
	}
	sc.order = stack
}

// sortHeads sorts keys, ranks in their low 16 bits, by the heads of their
// patterns, then rank, when the heads have the same bytes before from. It
// sorts them by words, each headKeyBytes bytes of the heads from from,
// big-endian and zeros after a head's end, over the rank; then each run of
// keys with the same word by the bytes after it. A level reads a word of
// each head in its run, and where all the words are the same, the heads'
// common bytes from there once: each byte of a head is read a bounded
// number of times, and each level sorts its run once.
func (dm *direct) sortHeads(p *prog, keys, tmp []uint64, from int) {
	var longer bool // some head goes on past the bytes of this key
	for {
		same := true
		longer = false
		for i, key := range keys {
			r := uint16(key)
			h := dm.head(p, int32(r))
			var k uint64
			for j := from; j < from+headKeyBytes; j++ {
				k <<= 8
				if j < len(h) {
					k |= uint64(h[j])
				}
			}
			keys[i] = k<<16 | uint64(r)
			longer = longer || len(h) > from+headKeyBytes
			same = same && keys[i]>>16 == keys[0]>>16
		}
		if !same || !longer || len(keys) < 2 {
			break
		}
		// Every head has these bytes: go on from where they differ.
		first := dm.head(p, int32(uint16(keys[0])))
		common := len(first)
		for _, key := range keys[1:] {
			h := dm.head(p, int32(uint16(key)))
			lo := min(from, common, len(h))
			common = lo + commonPrefix(first[lo:common], h[lo:])
		}
		if common < from+headKeyBytes {
			break // a head ends here: the words are the same by their zeros
		}
		from = common
	}
	sortKeys(keys, tmp)
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j]>>16 == keys[i]>>16 {
			j++
		}
		switch {
		case j-i < 2:
		case longer:
			dm.sortHeads(p, keys[i:j], tmp[i:j], from+headKeyBytes)
		default:
			// The heads end within these bytes, so are equal but for
			// NULs against their ends.
			slices.SortFunc(keys[i:j], func(a, b uint64) int {
				if c := strings.Compare(dm.head(p, int32(uint16(a))), dm.head(p, int32(uint16(b)))); c != 0 {
					return c
				}
				return cmp.Compare(uint16(a), uint16(b))
			})
		}
		i = j
	}
}

// sortKeys sorts keys, which are in rank order with the rank in their low
// 16 bits, as slices.Sort would: many of them by a radix sort of their top
// six bytes, one byte a pass (stable, so ranks stay in order among equal
// bytes), skipping the bytes all keys share; tmp is scratch of their
// length.
func sortKeys(keys, tmp []uint64) {
	if len(keys) < 64 {
		slices.Sort(keys)
		return
	}
	and, or := ^uint64(0), uint64(0)
	for _, k := range keys {
		and, or = and&k, or|k
	}
	src, dst := keys, tmp
	for shift := 16; shift < 64; shift += 8 {
		if (and^or)>>shift&0xff == 0 {
			continue
		}
		var at [256]int32
		for _, k := range src {
			at[k>>shift&0xff]++
		}
		sum := int32(0)
		for i, c := range at {
			at[i], sum = sum, sum+c
		}
		for _, k := range src {
			b := k >> shift & 0xff
			dst[at[b]] = k
			at[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}

// commonPrefix returns the length of the longest common prefix of a and b.
// It compares prefixes of doubling lengths until one differs, then halves
// the last: the bytes compared are O(the prefix's length times its
// logarithm), at memory-speed equality, however long a and b are.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	lo := 0 // a[:lo] == b[:lo]
	for step := 8; ; step *= 2 {
		hi := min(lo+step, n)
		if a[lo:hi] != b[lo:hi] {
			n = hi
			break
		}
		if hi == n {
			return n
		}
		lo = hi
	}
	hi := n - 1 // a[:hi+1] != b[:hi+1]
	for lo < hi {
		mid := int(uint(lo+hi+1) >> 1)
		if a[lo:mid] == b[lo:mid] {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// directGaveUp is match's answer when the direct matcher cannot decide an
// input cheaply: more than maxDirectCandidates candidates, more than
// maxDirectSearches pieces, or a long piece (see matchOne). The warm-up then ends, and the DFA decides the input.
const directGaveUp = ^uint32(0)

// match returns the best pattern (rank+1) that matches in, 0 if none, or
// directGaveUp, and the number of patterns it tried or stepped over (at
// most maxDirectCandidates): in is the input up to its first End byte.
func (dm *direct) match(p *prog, in string) (uint32, int) {
	lead := int(dm.lead)
	at, nc := dm.at(), dm.nk
	everywhere := dm.index[at[nc]:at[nc+1]]
	hasLead := lead == 0 || len(in) >= lead && in[:lead] == p.pattern(int32(dm.leadRank))[:lead]
	if !hasLead && !dm.headless {
		return 0, 0
	}
	sized := int32(len(everywhere))
	if dm.filtered {
		// The list's candidates: the patterns whose pair in has, and
		// those with none. A headless pattern's pair may be anywhere in
		// in, the others' after the lead.
		var passed [maxDirectCandidates]uint16
		var set pairSet
		if dm.headless {
			set.add(in)
		} else {
			set.add(in[lead:])
		}
		keys, k := dm.pairKeys(p), 0
		for i, r := range everywhere {
			if h := keys[i]; h == noPair || set.has(h) {
				if k == len(passed) {
					return directGaveUp, 0
				}
				passed[k] = r
				k++
			}
		}
		everywhere, sized = passed[:k], 0
	}
	c, ok := 0, false
	if hasLead && len(in) > lead {
		c, ok = dm.bucket(in[lead])
	}
	if !ok { // no byte after the lead, or none a pattern has there
		return dm.first(p, everywhere, nil, in)
	}
	bucket := dm.index[at[c]:at[c+1]]
	if !chained(int32(len(bucket)), sized) {
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
	// Every step up counts, tried or not, with the list: a chain is as
	// long as the heads that are prefixes of each other, which a file may
	// make long.
	up := dm.ups(p, c)
	best, tried, pieces := uint32(0), 0, maxDirectSearches
	for k := lo - 1; k >= 0; k = int(up[k]) - 1 {
		if tried++; tried+len(everywhere) > maxDirectCandidates {
			return directGaveUp, tried - 1
		}
		if r := int32(bucket[k]); best == 0 || uint32(r)+1 < best {
			switch dm.matchOne(p, r, in, &pieces) {
			case matched:
				best = uint32(r) + 1
			case gaveUp:
				return directGaveUp, tried
			}
		}
	}
	for _, r := range everywhere {
		if best != 0 && uint32(r)+1 >= best {
			break
		}
		tried++
		switch dm.matchOne(p, int32(r), in, &pieces) {
		case matched:
			return uint32(r) + 1, tried
		case gaveUp:
			return directGaveUp, tried
		}
	}
	return best, tried
}

// first returns the first pattern (rank+1) of a and b, two lists in rank
// order, that matches in, 0 if none, or directGaveUp, and the number of
// patterns it tried. The lists hold at most maxDirectCandidates patterns
// but when a is the filtered list's candidates (up to that many, with a
// bucket of up to that many).
func (dm *direct) first(p *prog, a, b []uint16, in string) (uint32, int) {
	tried, pieces := 0, maxDirectSearches
	for len(a) > 0 || len(b) > 0 {
		var r int32
		if len(a) == 0 || (len(b) > 0 && b[0] < a[0]) {
			r, b = int32(b[0]), b[1:]
		} else {
			r, a = int32(a[0]), a[1:]
		}
		if tried++; tried > maxDirectCandidates {
			return directGaveUp, tried - 1
		}
		switch dm.matchOne(p, r, in, &pieces) {
		case matched:
			return uint32(r) + 1, tried
		case gaveUp:
			return directGaveUp, tried
		}
	}
	return 0, tried
}

// ups returns the up entries of bucket c (see direct).
func (dm *direct) ups(p *prog, c int) []uint16 {
	at, n := dm.at(), p.count()
	// They follow the entries, from the one at upsFrom on.
	base := keyWords + int(dm.nk) + 2 + n - int(dm.index[len(dm.index)-n-1])
	return dm.index[base+int(at[c]) : base+int(at[c+1])]
}

// star returns the offset of the first star of the pattern of rank r in
// its bytes, -1 if it has none.
func (dm *direct) star(p *prog, r int32) int32 {
	return int32(dm.index[len(dm.index)-p.count()+int(r)]) - 1
}

// matchOne's answers.
const (
	unmatched = iota
	matched
	gaveUp // a long piece found where it might not be the leftmost (see find), or no search left
)

// matchOne reports whether the pattern of rank r matches in (a prefix of
// it, or all of it when the pattern is anchored). Its pieces between stars
// are looked for in turn, each at its leftmost place after the one before:
// that leaves the most input for the rest, so it finds a match if there is
// one, each piece's search reading the input from the end of the last
// (see find). Each piece counts against *pieces, the searches left for the
// input: it gives up when none is left.
func (dm *direct) matchOne(p *prog, r int32, in string, pieces *int) int {
	b := p.pattern(r)
	anchored := p.anchored(r)
	i := int(dm.star(p, r))
	if i < 0 {
		// Most candidates differ from the input before their end: their
		// last byte tells them apart, and costs no call.
		if len(in) < len(b) || len(b) > 0 && in[len(b)-1] != b[len(b)-1] {
			return unmatched
		}
		if anchored && len(in) != len(b) || in[:len(b)] != b {
			return unmatched
		}
		return matched
	}
	if !strings.HasPrefix(in, b[:i]) {
		return unmatched
	}
	// Stars are collapsed and never last (simplify): each piece is
	// non-empty.
	pos, b := i, b[i+1:]
	for {
		if *pieces--; *pieces < 0 {
			return gaveUp
		}
		j := strings.IndexByte(b, Wildcard)
		if j < 0 && anchored {
			if len(in)-len(b) >= pos && strings.HasSuffix(in, b) {
				return matched
			}
			return unmatched
		}
		piece := b
		if j >= 0 {
			piece = b[:j]
		}
		k := find(in[pos:], piece)
		switch {
		case k == -1:
			return unmatched
		case k < 0:
			return gaveUp
		case j < 0:
			return matched
		}
		pos, b = pos+k+j, b[j+1:]
	}
}

// find returns the offset of the first occurrence of piece in s, -1 if
// there is none, or -2 when piece is longer than maxDirectPiece and its
// first maxDirectPiece bytes occur first where the rest does not follow,
// with room in s for it after them.
// strings.Index costs O(len(s) * len(piece)) at worst (its brute force on
// short needles, Rabin-Karp with chosen collisions on long ones): a long
// piece is looked for by its first maxDirectPiece bytes, and verified where
// they first occur, so that a search costs O(len(s) * maxDirectPiece +
// len(piece)) at worst.
func find(s, piece string) int {
	if len(piece) <= maxDirectPiece {
		return strings.Index(s, piece)
	}
	k := strings.Index(s, piece[:maxDirectPiece])
	switch {
	case k < 0 || strings.HasPrefix(s[k:], piece):
		return k
	case len(s)-k < len(piece):
		// An occurrence starts where its first bytes do, at k or after,
		// and none fits there.
		return -1
	}
	return -2
}
