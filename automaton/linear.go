package automaton

import (
	"slices"
	"strings"
	"sync/atomic"
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
	maxTryBytes   = 32
	tryBytesSlack = 4 << 10
)

// minIndexed is the fewest patterns an index is built for: fewer are
// tried one by one in about the time an index lookup takes.
const minIndexed = 16

// matchOne reports whether pattern p matches input x: a prefix of x
// when p is not anchored, the whole of x when it is. It takes the leftmost
// occurrence of each piece between stars, which is never worse than a
// later one, so it runs in one pass over x per piece (strings.Index) and
// reads each byte of p once. work is the number of input bytes its
// searches could read, for the caller's bounds.
func matchOne(p string, anchored bool, x string) (ok bool, work int) {
	star := strings.IndexByte(p, Wildcard)
	if star < 0 {
		if anchored {
			return x == p, 0
		}
		return strings.HasPrefix(x, p), 0
	}
	if !strings.HasPrefix(x, p[:star]) {
		return false, 0
	}
	i := star // x[:i] is matched
	p = p[star+1:]
	for {
		star = strings.IndexByte(p, Wildcard)
		if star < 0 { // the last piece
			if anchored {
				return len(x)-i >= len(p) && strings.HasSuffix(x, p), work
			}
			work += len(x) - i
			return p == "" || strings.Contains(x[i:], p), work
		}
		if star > 0 {
			work += len(x) - i
			k := strings.Index(x[i:], p[:star])
			if k < 0 {
				return false, work
			}
			i += k + star
		}
		p = p[star+1:]
	}
}

// head returns the bytes of p before its first star (all of p if none).
func head(p string) string {
	if i := strings.IndexByte(p, Wildcard); i >= 0 {
		return p[:i]
	}
	return p
}

// index groups a Set's patterns for the linear engine. lead is the longest
// prefix that every pattern whose head is not empty starts with; a pattern
// whose head is longer than lead is in the bucket of its byte after it
// (keys[k]: order[start[k]:start[k+1]]), the others are in always. Each
// list is in rank order, best first.
type index struct {
	lead   string
	keys   []byte
	start  []uint32
	order  []uint32
	always []uint32
}

func (ix *index) bytes() int {
	return 64 + len(ix.keys) + 4*(len(ix.start)+len(ix.order)+len(ix.always))
}

// buildIndex makes the index of s's patterns.
func buildIndex(s *Set) *index {
	ix := &index{}
	first := true
	for i := range s.pats {
		h := head(s.pattern(i))
		if h == "" {
			continue
		}
		if first {
			ix.lead, first = h, false
			continue
		}
		n := 0
		for n < len(ix.lead) && n < len(h) && ix.lead[n] == h[n] {
			n++
		}
		ix.lead = ix.lead[:n]
	}
	nk := 0
	for i := range s.pats {
		if len(head(s.pattern(i))) > len(ix.lead) {
			nk++
		}
	}
	keyed, always := make([]uint32, 0, nk), make([]uint32, 0, len(s.pats)-nk)
	for i := range s.pats {
		if len(head(s.pattern(i))) > len(ix.lead) {
			keyed = append(keyed, uint32(i))
		} else {
			always = append(always, uint32(i))
		}
	}
	ix.always = always
	l := len(ix.lead)
	slices.SortFunc(keyed, func(a, b uint32) int {
		if ka, kb := s.pattern(int(a))[l], s.pattern(int(b))[l]; ka != kb {
			return int(ka) - int(kb)
		}
		return s.compareRank(a, b)
	})
	slices.SortFunc(ix.always, s.compareRank)
	ix.order = keyed
	var keys [256]bool
	n := 0
	for _, i := range keyed {
		if c := s.pattern(int(i))[l]; !keys[c] {
			keys[c] = true
			n++
		}
	}
	ix.keys, ix.start = make([]byte, 0, n), make([]uint32, 0, n+1)
	for k, i := range keyed {
		if c := s.pattern(int(i))[l]; k == 0 || c != ix.keys[len(ix.keys)-1] {
			ix.keys = append(ix.keys, c)
			ix.start = append(ix.start, uint32(k))
		}
	}
	ix.start = append(ix.start, uint32(len(keyed)))
	return ix
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

// scan decides x by trying patterns, best first where an index ranks
// them. It gives up, with gaveUp set, when the tries would search more
// than maxTryBytes times x's bytes.
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
	limit := maxTryBytes*len(x) + tryBytesSlack
	var t tried
	best := NoMatch
	try := func(list []uint32) bool {
		for _, i := range list {
			if best != NoMatch && s.compareRank(i, uint32(best)) > 0 {
				return true // the rest rank lower
			}
			t.candidates++
			p := s.pats[i]
			ok, w := matchOne(s.text[p.Start:p.End], p.Anchored, x)
			t.work += w
			if ok {
				best = int(i)
				return true
			}
			if t.work > limit {
				t.gaveUp = true
				return false
			}
		}
		return true
	}
	if try(ix.bucket(x)) {
		try(ix.always)
	}
	return best, t
}

// scanAll decides x by trying every pattern, in the order given.
func (s *Set) scanAll(x string) (int, tried) {
	limit := maxTryBytes*len(x) + tryBytesSlack
	var t tried
	best := NoMatch
	for i := range s.pats {
		p := &s.pats[i]
		if best != NoMatch && p.Priority <= s.pats[best].Priority {
			continue
		}
		t.candidates++
		ok, w := matchOne(s.text[p.Start:p.End], p.Anchored, x)
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
