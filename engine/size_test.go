package engine

import (
	"testing"
	"unsafe"

	"github.com/seed-275a9bd5/robotstxt/automaton"
)

// TestSizes checks the sizes Bytes counts against the structs' own, on
// 64-bit platforms, and keeps what a crawler holds for every file in the
// allocator's size classes: a Robots in 240 bytes and its first cached
// matcher in 240 (224 before the matcher kept the options its automaton
// is built with at its second decision).
func TestSizes(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the sizes are a 64-bit platform's")
	}
	if got := unsafe.Sizeof(matcherOnce{}) + unsafe.Sizeof(cachedMatcher{}); got != sizeofMatcher {
		t.Errorf("a cached matcher takes %d bytes; Bytes counts %d", got, sizeofMatcher)
	}
	if got := unsafe.Sizeof(matcherMore{}); got != sizeofMatcherMore {
		t.Errorf("a matcherMore takes %d bytes; Bytes counts %d", got, sizeofMatcherMore)
	}
	if got := unsafe.Sizeof(usageMatcher{}); got != sizeofUsageMatcher {
		t.Errorf("a usageMatcher takes %d bytes; Bytes counts %d", got, sizeofUsageMatcher)
	}
	if got := unsafe.Sizeof([2]*automaton.Set{}); got != sizeofVocab {
		t.Errorf("a usageMatcher's vocab array takes %d bytes; Bytes counts %d", got, sizeofVocab)
	}
	if got := unsafe.Sizeof(automaton.Pattern{}); got != sizeofPattern {
		t.Errorf("an automaton pattern takes %d bytes; Bytes counts %d", got, sizeofPattern)
	}
	if n := unsafe.Sizeof(Robots{}); n > 240 {
		t.Errorf("a Robots takes %d bytes, more than 240", n)
	}
	if n := unsafe.Sizeof(matcherOnce{}); n > 240 {
		t.Errorf("a cached matcher takes %d bytes, more than 240", n)
	}
}
