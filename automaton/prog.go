package automaton

import (
	"cmp"
	"slices"
	"sort"
	"strings"
)

// The program is a Set's patterns compiled once, in rank order (best
// first), as regexp/syntax's Prog is: every engine reads the patterns
// through it and nothing of another engine. A pattern's parts are named in
// doc.go; only an anchored pattern with a star has a tail, which must end
// the input. Trailing stars are trimmed once, here: they match whatever
// follows, so "/a*", anchored or not, matches what "/a" does.

// inst is one pattern of the program.
type inst struct {
	at       uint32 // where its bytes start in the Set's text
	pattern  uint32 // its index among the patterns given to Compile
	n        uint16 // its length, trailing stars trimmed
	head     uint16 // its head's length: n when it has no star
	tail     uint16 // its tail's length: 0 when it has none
	anchored bool   // it must match the whole input
}

// compileProg returns the program of patterns, substrings of text, in
// rank order: a higher priority first, and of equal priorities the
// pattern given first. A pattern that is not a part of text is left out:
// it matches no input.
func compileProg(text string, pats []Pattern) []inst {
	prog := make([]inst, 0, len(pats))
	for _, k := range rankOrder(pats) {
		p := pats[uint32(k)]
		if int64(p.end()) > int64(len(text)) {
			continue
		}
		in := instOf(text[p.Start:p.end()], p.Anchored)
		in.at, in.pattern = p.Start, uint32(k)
		prog = append(prog, in)
	}
	return prog
}

// instOf returns the instruction of pattern p (at and pattern left 0).
func instOf(p string, anchored bool) inst {
	b := strings.TrimRight(p, "*")
	in := inst{n: uint16(len(b)), head: uint16(len(b))}
	in.anchored = anchored && len(b) == len(p)
	if star := strings.IndexByte(b, wildcard); star >= 0 {
		in.head = uint16(star)
		if in.anchored {
			in.tail = uint16(len(b) - 1 - strings.LastIndexByte(b, wildcard))
		}
	}
	return in
}

// rankOrder returns the indexes of pats in rank order, each in the low 32
// bits of a key whose high 32 are its priority complemented: a stable LSD
// radix sort by priority, one pass a byte in which priorities differ. (A
// sort by comparisons cost most of Compile on a file of thousands of
// rules: 3 ms for 20,000, against 50 us.)
func rankOrder(pats []Pattern) []uint64 {
	buf := make([]uint64, 2*len(pats))
	keys, tmp := buf[:len(pats)], buf[len(pats):]
	or, and := uint64(0), ^uint64(0)
	for i, p := range pats {
		keys[i] = uint64(^p.Priority)<<32 | uint64(i)
		or, and = or|keys[i], and&keys[i]
	}
	if len(keys) < minRadix {
		slices.Sort(keys)
		return keys
	}
	for shift := 32; shift < 64; shift += 8 {
		if (or^and)>>shift&0xFF == 0 {
			continue // every priority has this byte
		}
		var count [257]int
		for _, k := range keys {
			count[k>>shift&0xFF+1]++
		}
		for b := 1; b < 257; b++ {
			count[b] += count[b-1]
		}
		for _, k := range keys {
			tmp[count[k>>shift&0xFF]] = k
			count[k>>shift&0xFF]++
		}
		keys, tmp = tmp, keys
	}
	return keys
}

// bytesOf returns the bytes of the pattern of rank r, trailing stars
// trimmed.
func (s *Set) bytesOf(r uint32) string { return s.text[s.prog[r].at:][:s.prog[r].n] }

// head returns the head of the pattern of rank r.
func (s *Set) head(r uint32) string { return s.bytesOf(r)[:s.prog[r].head] }

// mid returns the pattern of rank r between its head and its tail: its
// pieces, between stars (nextPiece reads them).
func (s *Set) mid(r uint32) string { return s.prog[r].mid(s.bytesOf(r)) }

// mid returns the part of b, in's bytes, between its head and its tail.
func (in *inst) mid(b string) string { return b[min(in.head+1, in.n) : in.n-in.tail] }

// nextPiece returns the first piece of mid and what follows it; the piece
// is "" when mid holds none.
func nextPiece(mid string) (piece, rest string) {
	mid = strings.TrimLeft(mid, "*")
	if i := strings.IndexByte(mid, wildcard); i >= 0 {
		return mid[:i], mid[i+1:]
	}
	return mid, ""
}

// minRadix is the fewest keys rankOrder sorts by radix, not comparisons.
const minRadix = 128

// minWalked is the size of a range at which walkHeads stops narrowing it
// and calls fn with all of its patterns.
const minWalked = 8

// walkHeads calls fn with every pattern of b whose head x starts with, and
// perhaps with others (fn checks): b is sorted by head (sortHeads) and its
// heads share x's first d bytes. The patterns whose heads share x's first
// d bytes are a range of b, those whose heads end there first; the range
// for d+1 is found by two binary searches on byte d, until it holds few
// enough to call fn with all (minWalked).
func (s *Set) walkHeads(b []uint32, d int, x string, fn func(uint32)) {
	lo, hi := 0, len(b)
	for ; lo < hi; d++ {
		if hi-lo <= minWalked {
			for _, r := range b[lo:hi] {
				fn(r)
			}
			break
		}
		for ; lo < hi && int(s.prog[b[lo]].head) <= d; lo++ {
			fn(b[lo])
		}
		if d >= len(x) {
			break
		}
		c := x[d]
		at := func(k int) byte { return s.text[s.prog[b[lo+k]].at+uint32(d)] }
		lo += sort.Search(hi-lo, func(k int) bool { return at(k) >= c })
		hi = lo + sort.Search(hi-lo, func(k int) bool { return at(k) > c })
	}
}

// headKey is a pattern and the 7 bytes of its head at some depth, as
// sortHeads compares them.
type headKey struct {
	key  uint64
	rank uint32
}

// sortHeads sorts b, patterns whose heads share their first d bytes, by
// head, a head before every longer one it is a prefix of: by the 7 bytes
// at d, and each run that shares those (and goes on past them) by the 7
// after, in scratch (len(b) of them). A sort of numbers in an array is
// several times faster than one of strings that share long prefixes (a
// site's thousands of rules under one path).
func (s *Set) sortHeads(b []uint32, d int, scratch []headKey) {
	for k, r := range b {
		scratch[k] = headKey{key7(s.head(r), d), r}
	}
	slices.SortFunc(scratch, func(x, y headKey) int { return cmp.Compare(x.key, y.key) })
	for k, e := range scratch {
		b[k] = e.rank
	}
	for lo := 0; lo < len(b); {
		hi := lo + 1
		for hi < len(b) && scratch[hi].key == scratch[lo].key {
			hi++
		}
		if hi-lo > 1 && scratch[lo].key&0xFF == 8 { // they go on past these 7 bytes
			s.sortHeads(b[lo:hi], d+7, scratch[lo:hi])
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
