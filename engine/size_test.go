package engine

import (
	"testing"
	"unsafe"

	"github.com/seed-275a9bd5/robotstxt/automaton"
)

// TestSizes checks the sizes Bytes counts against the structs' own, on
// 64-bit platforms. The structs are not laid out to fit the allocator's
// size classes: a Robots or a cached matcher 16 bytes past one (240 ->
// 256) adds 16 bytes to a file's heap of 3-5 KB (BenchmarkClient_CorpusBytes,
// bench's RealCorpus heap-decided), too little to keep by hand.
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
}
