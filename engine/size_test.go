package engine

import (
	"testing"
	"unsafe"
)

// TestSizes_FitSizeClasses keeps what a crawler holds for every file in
// the allocator's size classes it was fitted to: a Robots in 240 bytes and
// its first cached matcher in 256 (the next classes are 256 and 288).
func TestSizes_FitSizeClasses(t *testing.T) {
	if n := unsafe.Sizeof(Robots{}); n > 240 {
		t.Errorf("a Robots takes %d bytes, more than 240", n)
	}
	if n := unsafe.Sizeof(matcherOnce{}); n > 256 {
		t.Errorf("a cached matcher takes %d bytes, more than 256", n)
	}
}
