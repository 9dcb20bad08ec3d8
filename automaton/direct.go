package automaton

import (
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
// its bucket and that list, merged in rank order. An automaton uses the
// direct matcher only when no input has more than maxDirectCandidates
// candidates (directFor), and a candidate costs O(its bytes + the input's)
// (matchOne), so an input costs at most maxDirectCandidates times that.
//
// The direct matcher shares nothing with the DFA but the prog's layout and
// classes; the differential tests compare all three matchers with the
// reference.

// maxDirectCandidates is the most patterns the direct matcher may try on
// one input: an automaton with a bucket (with the patterns that are
// candidates everywhere) larger than that decides with its DFA from the
// first input.
const maxDirectCandidates = 32

// DefaultWarmUp is the number of inputs the direct matcher decides, when
// the automaton has one, before the DFA builds its first state
// (Options.WarmUp).
const DefaultWarmUp = 256

// direct is the direct matcher's index over a prog: the lead's length, and
// in one slice, index:
//   - at, its first nclass+2 words: the candidates of class c are
//     index[at[c]:at[c+1]], the class nclass standing for the patterns with
//     no byte after the lead;
//   - the candidates' ranks, each list in rank order;
//   - each pattern's first star (see star).
type direct struct {
	lead  int32
	index []uint16
}

// farStar is a first star too far into its pattern for 16 bits.
const farStar = 1<<16 - 1

// directFor returns the direct matcher's index for p, and false when some
// input would have more than maxDirectCandidates candidates.
func directFor(p *prog) (direct, bool) {
	n := int32(len(p.starts) - 1)
	if n == 0 {
		return direct{}, false
	}
	// The lead: the bytes before the first star of pattern 0 that every
	// pattern starts with.
	first := p.all[p.starts[0] : p.starts[1]-1]
	lead := int32(len(first))
	if i := strings.IndexByte(first, Wildcard); i >= 0 {
		lead = int32(i)
	}
	for r := int32(1); r < n && lead > 0; r++ {
		b := p.all[p.starts[r] : p.starts[r+1]-1]
		k := int32(0)
		for k < lead && int(k) < len(b) && b[k] == first[k] {
			k++
		}
		lead = k
	}
	nc := int32(p.nclass)
	// A bucket's key: the class of the byte after the lead, nc for none.
	key := func(r int32) int32 {
		b := p.all[p.starts[r] : p.starts[r+1]-1]
		if int(lead) >= len(b) || b[lead] == Wildcard {
			return nc
		}
		return int32(p.classes[b[lead]])
	}
	var count [258]int32 // per key; nclass <= 257
	for r := range n {
		count[key(r)]++
	}
	if slices.Max(count[:nc])+count[nc] > maxDirectCandidates {
		return direct{}, false
	}
	// Every bucket holds at most maxDirectCandidates patterns, so the
	// patterns and the offsets all fit in 16 bits.
	index := make([]uint16, nc+2+2*n)
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
	// Each pattern's first star, +1 (0: none; farStar: look it up).
	for r := range n {
		b := p.all[p.starts[r] : p.starts[r+1]-1]
		index[nc+2+n+r] = uint16(min(strings.IndexByte(b, Wildcard)+1, farStar))
	}
	return direct{lead: lead, index: index}, true
}

// match returns the best pattern (rank+1) that matches in, 0 if none: in
// is the input up to its first End byte.
func (dm *direct) match(p *prog, in string) uint32 {
	lead := int(dm.lead)
	if lead > 0 && (len(in) < lead || in[:lead] != p.all[p.starts[0]:int(p.starts[0])+lead]) {
		return 0
	}
	nc := p.nclass
	everywhere := dm.index[dm.index[nc]:dm.index[nc+1]]
	var bucket []uint16
	if len(in) > lead {
		c := int(p.classes[in[lead]])
		bucket = dm.index[dm.index[c]:dm.index[c+1]]
	}
	// Merge the two lists in rank order: the first match is the best.
	for len(bucket) > 0 || len(everywhere) > 0 {
		var r int32
		if len(everywhere) == 0 || (len(bucket) > 0 && bucket[0] < everywhere[0]) {
			r, bucket = int32(bucket[0]), bucket[1:]
		} else {
			r, everywhere = int32(everywhere[0]), everywhere[1:]
		}
		if p.matchOne(r, in, dm.star(p, r)) {
			return uint32(r) + 1
		}
	}
	return 0
}

// star returns the offset of the first star of the pattern of rank r in
// its bytes, -1 if it has none.
func (dm *direct) star(p *prog, r int32) int32 {
	switch v := dm.index[len(dm.index)-(len(p.starts)-1)+int(r)]; v {
	case farStar:
		return int32(strings.IndexByte(p.all[p.starts[r]:p.starts[r+1]-1], Wildcard))
	default:
		return int32(v) - 1
	}
}

// matchOne reports whether the pattern of rank r, whose first star is at
// star, matches in (a prefix of it, or all of it when the pattern is
// anchored). Its pieces between stars
// are looked for in turn, each at its leftmost place after the one before:
// that leaves the most input for the rest, so it finds a match if there is
// one, in O(len(in) + the pattern's bytes).
func (p *prog) matchOne(r int32, in string, star int32) bool {
	b := p.all[p.starts[r] : p.starts[r+1]-1]
	anchored := p.anchored(r)
	i := int(star)
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
