package automaton

import (
	"os"
	"testing"
	"unsafe"
)

// TestPrefault checks that prefault keeps a table's contents, whatever its
// size and alignment: mapping pages ahead must never change what they hold.
func TestPrefault(t *testing.T) {
	for _, n := range []int{0, 1, 1023, 1024, 1025, 64 << 10, 512<<10 + 3} {
		w := make([]uint32, n+1)
		for _, off := range []int{0, 1} {
			v := w[off : off+n]
			for i := range v {
				v[i] = uint32(i)*2654435761 + 1
			}
			prefault(v)
			for i := range v {
				if v[i] != uint32(i)*2654435761+1 {
					t.Fatalf("n=%d off=%d: word %d changed to %#x", n, off, i, v[i])
				}
			}
		}
	}
}

// TestPrefaultAhead checks the steps by which a reserved table is mapped:
// each call covers the row it was asked for, goes on from where the last
// stopped, stops at a page boundary (so that the next step's first page is
// whole) or at the table's end, and changes no word.
func TestPrefaultAhead(t *testing.T) {
	page := uintptr(os.Getpagesize())
	for _, n := range []int{1, 1000, 64 << 10, 512<<10 + 3} {
		w := make([]uint32, n)
		for i := range w {
			w[i] = uint32(i) ^ 0x5bd1e995
		}
		done := 0
		for need := 1; need <= n; need += max(1, n/7) {
			if need <= done {
				continue
			}
			stop := prefaultAhead(w, done, need)
			if stop < need || stop > n {
				t.Fatalf("n=%d: prefaultAhead(%d, %d) = %d, want need..len", n, done, need, stop)
			}
			if addr := uintptr(unsafe.Pointer(&w[0])) + 4*uintptr(stop); stop < n && addr%page != 0 {
				t.Fatalf("n=%d: prefaultAhead(%d, %d) stopped at word %d, not a page boundary", n, done, need, stop)
			}
			done = stop
		}
		for i := range w {
			if w[i] != uint32(i)^0x5bd1e995 {
				t.Fatalf("n=%d: word %d changed", n, i)
			}
		}
	}
}
