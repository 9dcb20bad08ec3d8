package automaton

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// A state of the DFA (doc.go) is the set of pattern positions alive after
// some input, with the best pattern completed so far. The patterns are
// laid out in rank order, best first, each followed by one slot for its
// end: a position is an offset in that layout, so a sorted set of
// positions is in rank order too, and every position of a pattern ranked
// below the best completed one is dropped. Within a pattern the positions
// before the last star reached are dropped as well (the star matches
// whatever they could). A state with no position left is final: its
// transitions hold the answer itself, and the scan stops there.
//
// A row holds a state's transitions, one cell per byte class, and one
// last cell: the answer if the input ends in the state. A cell is 0 when
// not computed yet, the row of the next state, or final|(rank+1) for a
// final answer; the scan loop tests one sign bit per byte. Cells are read
// with atomic loads and no lock; a miss takes the mutex, computes the
// transition and publishes it with an atomic store. The rows live in a
// cache of at most Options.CacheBytes: a full cache is replaced by an
// empty one, and an input still in the old one moves its state over at
// its next miss. An input whose misses cost more work than its budget
// (the patterns' bytes once, and some positions per byte) gives up: the
// DFA thrashes on it, and the Set's policy hands it to the piece matcher.

// final marks a cell that holds an answer rather than a row.
const final = 1 << 31

// dfa is a Set's lazily built DFA.
type dfa struct {
	set   *Set
	prog  []byte   // the program's patterns' bytes, by rank, each with one slot after it
	start []uint32 // rank r's bytes are prog[start[r] : start[r+1]-1]
	ranks []int32  // the rank of each position of prog
	class [256]uint8
	width uint32 // cells in a row: one per class, and the answer
	limit int    // the cache's budget, in bytes

	mu   sync.Mutex
	cur  atomic.Pointer[cache]
	next []uint32 // scratch for transitions, under mu
	// allowance is the work misses may still spend beyond their inputs'
	// own budgets (see budget), under mu.
	allowance int

	clears atomic.Int64
	bytes  atomic.Int64 // what the current cache holds, for Bytes
}

// cache is one generation of the DFA's states: the table of rows, read
// without a lock, and the states' sets, read and written under dfa.mu
// (an old generation's are read only, to move an input's state over). The
// table's slice never changes: rows are added in its room, and a table
// that has none left is copied into a larger one, a new cache.
type cache struct {
	table []uint32
	*states
}

// states are the sets of one generation: state k's row is at k*width
// (row 0 is never used, so that a 0 cell means "not computed") and its
// positions are pos[at[k]:at[k+1]]; the rows up to used are taken.
type states struct {
	used uint32
	pos  []uint32
	at   []uint32
	best []int32  // the best rank completed on the way to each state, -1: none
	hash []uint32 // open addressing over the states, by their sets: state k is k, 0 empty
}

// newDFA lays out the program of s.
func newDFA(s *Set, cacheBytes int) *dfa {
	size := len(s.prog) // the program's bytes, and an end slot each
	for _, in := range s.prog {
		size += int(in.n)
	}
	d := &dfa{set: s, limit: cacheBytes, allowance: max(minAllowance, 4*size)}
	d.start = make([]uint32, len(s.prog)+1)
	d.prog = make([]byte, 0, size)
	d.ranks = make([]int32, 0, cap(d.prog))
	var seen [256]bool
	for r := range s.prog {
		p := s.bytesOf(uint32(r))
		d.start[r] = uint32(len(d.prog))
		d.prog = append(append(d.prog, p...), 0)
		d.ranks = append(d.ranks, int32(r)) // the end slot's
		for k := range len(p) {
			d.ranks = append(d.ranks, int32(r))
			seen[p[k]] = true
		}
	}
	d.start[len(s.prog)] = uint32(len(d.prog))
	seen[wildcard] = false
	n := uint8(1) // class 0: the bytes no pattern names
	for b := range seen {
		if seen[b] {
			d.class[b] = n
			n++ // at most 255 bytes are named: the star is not
		}
	}
	d.width = uint32(n) + 1
	d.reset()
	return d
}

// reset starts a new generation holding the start state, under mu (or
// before the DFA is shared), and returns it.
func (d *dfa) reset() *cache {
	c := &cache{table: make([]uint32, 16*d.width), states: &states{
		at:   append(make([]uint32, 0, 32), 0, 0),
		best: append(make([]int32, 0, 32), NoMatch),
		hash: make([]uint32, 32),
		used: d.width,
	}}
	set, best := d.closure(d.next[:0], d.start[:len(d.start)-1], NoMatch) // every pattern's first position
	d.next = set
	d.add(c, set, best) // accounts c
	d.cur.Store(c)
	return c
}

// end returns the slot after the bytes of the pattern of rank r.
func (d *dfa) end(r int32) uint32 { return d.start[r+1] - 1 }

// closure returns the sorted, reduced set of the positions from (sorted)
// and every position they reach without reading a byte, with the best
// rank completed: a position at a star reaches the one after it, and a
// pattern's end completes it (an anchored pattern's end stays in the set,
// for the input's end). from is read before out is written, so they may
// share an array only if from comes first in it.
func (d *dfa) closure(out, from []uint32, best int32) ([]uint32, int32) {
	out = out[:0]
	// Each position reaches a run of positions after it (past its stars):
	// the runs start in order, so emitting each from past the last one
	// emitted keeps out sorted, without repeats.
	next := uint32(0) // the least position not emitted yet
	for _, q := range from {
		if q < next && len(out) > 0 {
			continue // in the run emitted last, which reaches all of its own
		}
		for ; ; q++ {
			out = append(out, q)
			if d.prog[q] != wildcard { // an end slot is never a star
				break
			}
		}
		next = q + 1
	}
	// One pass in rank order: completions, pruning, and the positions
	// before the last star reached of each pattern dropped.
	k, r := 0, int32(-1)
	keepFrom := 0 // where the current pattern's kept positions start in out
	for _, q := range out {
		if r < 0 || q > d.end(r) {
			r = d.ranks[q]
			keepFrom = k
		}
		if best != NoMatch && r >= best {
			break
		}
		switch {
		case q == d.end(r):
			if !d.set.prog[r].anchored {
				best = r
				continue
			}
		case d.prog[q] == wildcard:
			k = keepFrom // the star covers the positions before it
		}
		out[k] = q
		k++
	}
	return out[:k], best
}

// transition returns the set after the state (set, best) reads byte b.
func (d *dfa) transition(set []uint32, best int32, b byte) ([]uint32, int32) {
	from := d.next[:0]
	for _, q := range set {
		if q == d.end(d.ranks[q]) {
			continue // an anchored pattern's end: the input goes on
		}
		switch d.prog[q] {
		case wildcard:
			from = append(from, q)
		case b:
			from = append(from, q+1)
		}
	}
	n := len(from)
	out, best := d.closure(from[n:n], from, best)
	// out was built after from in one array: move it to the front.
	d.next = append(from[:0], out...)
	return d.next, best
}

// endAnswer returns the answer a state's last cell holds: the best rank of a
// pattern that matches when the input ends there, or NoMatch.
func (d *dfa) endAnswer(set []uint32, best int32) int32 {
	for _, q := range set {
		r := d.ranks[q]
		if best != NoMatch && r >= best {
			break
		}
		if q == d.end(r) { // anchored: unanchored ends are in best already
			return r
		}
	}
	return best
}

// add interns the state (set, best) in c and returns its row, adding a
// row when it is new; ok is false when c has no room for it.
func (d *dfa) add(c *cache, set []uint32, best int32) (uint32, bool) {
	h := hashSet(set, best)
	mask := uint32(len(c.hash) - 1)
	i := h & mask // at the end, the empty slot the state goes to if new
	for ; c.hash[i] != 0; i = (i + 1) & mask {
		if k := c.hash[i]; c.best[k] == best && slices.Equal(c.pos[c.at[k]:c.at[k+1]], set) {
			return k * d.width, true
		}
	}
	k := uint32(len(c.at) - 1)
	if k >= 2 && int64(4*int(d.width)+4*len(set)+16) > int64(d.limit)-d.bytes.Load() {
		return 0, false
	}
	row := c.used
	if need := int(row + d.width); need > len(c.table) {
		// Doubled, within the budget.
		size := min(2*len(c.table), (d.limit-4*cap(c.pos)-8*cap(c.at)-4*cap(c.hash))/4)
		if size < need {
			return 0, false
		}
		t := make([]uint32, size)
		copy(t, c.table) // every writer holds the mutex: no cell changes meanwhile
		// A new object: readers of the old table go on with it, and
		// come to this one at their next miss.
		c = &cache{table: t, states: c.states}
		d.cur.Store(c)
	}
	c.used += d.width
	c.pos = append(c.pos, set...)
	c.at = append(c.at, uint32(len(c.pos)))
	c.best = append(c.best, best)
	atomic.StoreUint32(&c.table[row+d.width-1], uint32(d.endAnswer(set, best)+1))
	c.hash[i] = k
	if 2*len(c.at) > len(c.hash) {
		c.rehash()
	}
	d.bytes.Store(int64(4*len(c.table) + 4*cap(c.pos) + 8*cap(c.at) + 4*cap(c.hash)))
	return row, true
}

// rehash doubles c's hash table.
func (c *states) rehash() {
	c.hash = make([]uint32, 2*len(c.hash))
	mask := uint32(len(c.hash) - 1)
	for k := uint32(1); k+1 < uint32(len(c.at)); k++ {
		i := hashSet(c.pos[c.at[k]:c.at[k+1]], c.best[k]) & mask
		for c.hash[i] != 0 {
			i = (i + 1) & mask
		}
		c.hash[i] = k
	}
}

func hashSet(set []uint32, best int32) uint32 {
	h := uint32(2166136261) ^ uint32(best)
	for _, q := range set {
		h = (h ^ q) * 16777619
	}
	return h ^ h>>15
}

// budget is the work an input of n bytes may spend on misses of its own
// (more comes out of the DFA's allowance): a few dozen positions a byte.
func (d *dfa) budget(n int) int { return 4096 + 64*n }

// minAllowance is the least work the DFA's allowance starts with: enough
// for the few thousand states of a real file's URLs.
const minAllowance = 1 << 20

// maxClears is the number of times one input may find the cache full
// before it gives up.
const maxClears = 1

// match returns the best rank of a pattern matching x, and false when the
// input gave up.
func (d *dfa) match(x string) (int32, bool) {
	c := d.cur.Load()
	t := c.table
	s := d.width // the start state's row, in every generation
	work, clears := 0, 0
	for i := 0; i < len(x); i++ {
		next := atomic.LoadUint32(&t[s+uint32(d.class[x[i]])])
		if int32(next) <= 0 {
			if next == 0 {
				var ok bool
				next, c, ok = d.miss(c, s, x[i], &work, &clears, len(x))
				if !ok {
					return 0, false
				}
				t = c.table
			}
			if next&final != 0 {
				return int32(next&^final) - 1, true
			}
		}
		s = next
	}
	return int32(atomic.LoadUint32(&t[s+d.width-1])) - 1, true
}

// miss computes the transition of the state at row s of c on byte b,
// under the mutex, and returns it with the generation it is in. It gives
// up (false) when the input's work passes its budget or it met a full
// cache too often.
func (d *dfa) miss(c *cache, s uint32, b byte, work, clears *int, n int) (uint32, *cache, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	cur := d.cur.Load()
	set, best := c.pos[c.at[s/d.width]:c.at[s/d.width+1]], c.best[s/d.width]
	if cur.states != c.states { // the cache was replaced: move over
		var ok bool
		if s, ok = d.addOrReset(&cur, set, best, clears); !ok { // set stays valid: c is read only now
			return 0, cur, false
		}
	}
	cell := &cur.table[s+uint32(d.class[b])]
	if v := atomic.LoadUint32(cell); v != 0 {
		return v, cur, true
	}
	next, nbest := d.transition(set, best, b)
	cost := len(set) + len(next)
	if over := *work + cost - d.budget(n); over > 0 {
		if d.allowance < min(over, cost) {
			return 0, cur, false
		}
		d.allowance -= min(over, cost)
	}
	*work += cost
	if len(next) == 0 {
		v := final | uint32(nbest+1)
		atomic.StoreUint32(cell, v)
		return v, cur, true
	}
	states := cur.states
	row, ok := d.addOrReset(&cur, next, nbest, clears)
	if !ok {
		return 0, cur, false
	}
	if cur.states == states { // s is still a state of cur
		atomic.StoreUint32(&cur.table[s+uint32(d.class[b])], row)
	}
	return row, cur, true
}

// addOrReset adds the state (set, best) to *c, replacing the cache with an
// empty one when it is full (and *c with it); false when the input met a
// full cache maxClears times.
func (d *dfa) addOrReset(c **cache, set []uint32, best int32, clears *int) (uint32, bool) {
	if row, ok := d.add(*c, set, best); ok {
		*c = d.cur.Load()
		return row, true
	}
	if *clears++; *clears > maxClears {
		return 0, false
	}
	set = append([]uint32(nil), set...) // reset reuses the scratch
	d.clears.Add(1)
	row, ok := d.add(d.reset(), set, best)
	*c = d.cur.Load()
	return row, ok
}

// dump writes the patterns in rank order, the byte classes, and the states
// of the current cache with their computed transitions.
func (d *dfa) dump(b *strings.Builder) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c := d.cur.Load()
	fmt.Fprintf(b, "automaton: %d states built, %d patterns, %d classes\n", len(c.at)-2, len(d.set.prog), d.width-1)
	d.set.dumpPatterns(b)
	b.WriteString("byte classes (0: every other byte):")
	for k := uint8(1); uint32(k) < d.width-1; k++ {
		b.WriteString(" ")
		for x := range 256 {
			if d.class[x] == k {
				fmt.Fprintf(b, "%q", rune(x))
			}
		}
	}
	b.WriteString("\n")
	for k := 1; k+1 < len(c.at); k++ {
		row := uint32(k) * d.width
		fmt.Fprintf(b, "  state %d: positions %v best %d end %d\n", k, c.pos[c.at[k]:c.at[k+1]], c.best[k], int32(atomic.LoadUint32(&c.table[row+d.width-1]))-1)
		for cl := uint32(0); cl+1 < d.width; cl++ {
			switch v := atomic.LoadUint32(&c.table[row+cl]); {
			case v == 0:
			case v&final != 0:
				fmt.Fprintf(b, "    class %d -> answer %d\n", cl, int32(v&^final)-1)
			default:
				fmt.Fprintf(b, "    class %d -> state %d\n", cl, v/d.width)
			}
		}
	}
}
