package fetch

import (
	"runtime"
	"sync/atomic"
	_ "unsafe" // go:linkname
)

// stripes is a counter that the goroutines of each P (the runtime's
// processors, GOMAXPROCS of them) add to in a cache line of their own, so
// that counting from many cores at once shares no write; sum adds them up.
// What it earns over one atomic counter (2026-12-07, 2 cores,
// BenchmarkClient_CachedAllowed -cpu 1,2, 8 runs each, in turn): a cache
// hit from 2 goroutines at once, 17.5-18.9 ns against 39-57 ns
// (parallel-lookup-only), and with its decision about 104 against 137 ns
// (parallel); from one goroutine it costs about 5 ns (canonical 191-208 ns
// against 180-195).
// A P past the stripes made (GOMAXPROCS raised after newStripes) shares a
// stripe with another: still exact, its adds then contend.
type stripes []stripe

// stripe is one P's count, alone in its cache line (64 bytes on amd64 and
// arm64; the 128 of some arm64 cores' prefetch pairs still only two).
type stripe struct {
	n atomic.Int64
	_ [56]byte
}

// newStripes returns the stripes of a counter: a power of two, at least
// GOMAXPROCS.
func newStripes() stripes {
	n := 1
	for n < runtime.GOMAXPROCS(0) {
		n *= 2
	}
	return make(stripes, n)
}

// add adds one to the stripe of the P that the goroutine runs on.
func (s stripes) add() {
	p := procPin()
	s[p&(len(s)-1)].n.Add(1)
	procUnpin()
}

// sum returns the count: the stripes added up. Adds made while it reads
// may or may not be in it.
func (s stripes) sum() int64 {
	var n int64
	for i := range s {
		n += s[i].n.Load()
	}
	return n
}

// procPin and procUnpin are the runtime's: procPin keeps the goroutine on
// its P until procUnpin and returns the P's number. sync.Pool uses them for
// its per-P lists; the runtime keeps them for packages outside the
// standard library too (go.dev/issue/67401).
//
//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()
