package automaton

import (
	"strings"
	"sync"
	"sync/atomic"
)

// The policy that chooses, input by input, between the lazy DFA and the
// fallback. The DFA is the fast path: once the states an input visits
// exist, a byte costs one table load. But building a state costs O(items
// alive), and inputs chosen to reach new states (a hostile site writes its
// URLs as well as its rules) can make every input build states that no
// later input uses. RE2 and regex-automata's hybrid DFA give up when too
// few bytes are scanned per state built; here what is counted is the work
// itself (scratch.work: items, stars and cells touched while building), so
// that a few states that are each expensive count as much as many cheap
// ones.
//
//   - An input gives up on the DFA when its misses have cost more than
//     workLimit: the fallback then decides the whole input. The limit is
//     of the order of what the fallback could cost on it (the patterns'
//     items plus a constant per input byte; before the fallback exists,
//     plus what building it costs), so no input costs more than a constant
//     times the fallback's worst case, and the first inputs of a real
//     file, which build its states, stay well under it.
//   - After a give-up, the next inputs go to the fallback directly (skip,
//     minSkip after the first), then one input tries the DFA again (a
//     probe), with the same limit. A probe that gives up doubles the
//     number of inputs skipped (up to maxSkip); one that succeeds halves
//     it, back to the DFA alone below minSkip. The states a probe builds are
//     kept, so the probes of an automaton whose inputs come back to the same
//     states finish the work, and it returns to the DFA; a thrashing
//     automaton spends at most a limit's work per maxSkip inputs on them.
//
// The policy's counters are shared by every goroutine and updated without a
// lock: their races change which engine decides an input, never the
// answer, and each input's cost stays bounded either way.
type policy struct {
	giveUps   atomic.Int64
	fallbacks atomic.Int64
	fb        atomic.Pointer[fallback]
	fbOnce    sync.Once
}

// Limits of the policy. The work of the DFA is counted in items, stars and
// transition cells touched; the fallback's in bytes read, piece endings and
// entries (fbScratch.work): units of a few nanoseconds each, close enough
// to compare.
const (
	// giveUpPerItem, giveUpPerByte and giveUpRows set the work the misses
	// of an input may have cost when it has scanned i bytes: giveUpPerItem
	// times the patterns' items (their bytes), plus, for each byte
	// scanned, giveUpPerByte and giveUpRows rows' worth (a cache that is
	// still filling builds a state per byte, each costing its row and its
	// items). The limit grows with the bytes scanned, so an input that
	// keeps building expensive states gives up early, not at its end. The
	// first URLs of a real robots.txt build their states with a fraction
	// of it (no corpus URL gives up: TestPolicy_CorpusNeverGivesUp), and
	// the fallback costs at most about one unit per item and a few per
	// byte on any input.
	giveUpPerItem = 1
	giveUpPerByte = 64
	giveUpRows    = 4
	// fallbackSetupPerItem and fallbackSetup bound the work an input may
	// spend before the fallback is built, beyond the limit above: what
	// building it costs (about fallbackSetupPerItem units a pattern byte),
	// but at most fallbackSetup units (LIMITS.md), so that a
	// hostile 500 KiB file's first URL does not build megabytes of states
	// first. With it, 200 rules "/*a*a*...*a<n>b" decide URLs of 4 KiB of
	// 'a's on the DFA, whose forty states then serve every URL, where
	// giving up at the tenth state sent each URL to the fallback.
	fallbackSetupPerItem = 8
	fallbackSetup        = 1 << 18
	// minSkip is the number of inputs the fallback decides after a first
	// give-up, and maxSkip the most it decides between two probes. A probe
	// may cost a whole limit, so the first skips are long: short skips
	// let the probes of a hostile file cost more than the fallback's work
	// on all the inputs between them.
	minSkip = 64
	maxSkip = 1 << 12
	// fallbackOnly is skip for an automaton that builds no states
	// (Options.CacheBytes < 0).
	fallbackOnly = 1<<31 - 1
)

// workLimit returns the work the misses of an input may have cost when it
// has scanned i bytes: base plus perByte for each. Until the fallback is
// built, giving up also costs building it (about fallbackSetupPerItem units
// a pattern byte): the DFA may first spend about as much, up to fallbackSetup, as a
// ski rental spends the price of buying before it buys.
func (d *dfa) workLimit() (base, perByte int) {
	base = giveUpPerItem * len(d.all)
	if d.fb.Load() == nil {
		base += min(fallbackSetupPerItem*len(d.all), fallbackSetup)
	}
	return base, giveUpPerByte + giveUpRows*(int(d.nclass)+nExtra)
}

// gaveUp records that an input gave up on the DFA: the next inputs go to
// the fallback, twice as many as after the last give-up.
func (d *dfa) gaveUp() {
	d.giveUps.Add(1)
	b := min(max(2*d.backoff.Load(), minSkip), maxSkip)
	d.backoff.Store(b)
	d.skip.Store(b)
}

// probed records that a probe finished on the DFA: half as many inputs
// are skipped before the next one, none once the count reaches zero.
func (d *dfa) probed() {
	b := d.backoff.Load() / 2
	if b < minSkip {
		b = 0
	}
	d.backoff.Store(b)
	d.skip.Store(b)
}

// fallback returns d's fallback matcher, building it on first use (once;
// concurrent callers wait for it).
func (d *dfa) fallback() *fallback {
	d.fbOnce.Do(func() { d.fb.Store(buildFallback(&d.prog)) })
	return d.fb.Load()
}

// fallbackMatch is Match by the fallback, or, in the warm-up (no
// generation yet), by the direct matcher: the input ends at its first End
// byte, and with stop the answer is refused (false) at an escape byte
// before it. It reads the sets of a prog with stops, not its classes,
// which the DFA builds.
func fallbackMatch(d *dfa, stop bool, in string) (uint32, bool) {
	n := len(in)
	esc := stop && d.stops
	if !esc && d.endByte >= 0 {
		if i := strings.IndexByte(in, byte(d.endByte)); i >= 0 {
			n = i
		}
	} else if esc || d.endByte == severalEnds {
		// An End byte is not an escape (Options.End).
		for i := 0; i < n; i++ {
			switch c := in[i]; {
			case int16(c) == d.endByte || d.endByte == severalEnds && d.inSet(1, c):
				n = i
			case esc && d.inSet(0, c):
				return 0, false
			}
		}
	}
	if d.dir.index != nil && d.cur.Load() == nil {
		if ans, _ := d.dir.match(&d.prog, in[:n]); ans != directGaveUp {
			return ans, true
		}
		// The direct matcher cannot decide in cheaply: the warm-up ends
		// here, and the DFA decides in (the first generation is made).
		d.endWarmUp()
		ans, ok, _ := decideDFA(d, stop, in)
		return ans, ok
	}
	f := d.fallback()
	sc := fbPool.Get().(*fbScratch)
	r := fbMatch(f, sc, in[:n])
	fbPool.Put(sc)
	d.fallbacks.Add(1)
	if r == noRank {
		return 0, true
	}
	return uint32(r) + 1, true
}
