package automaton

import "testing"

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
