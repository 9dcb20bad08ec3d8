package automaton

import (
	"syscall"
	"testing"
	"unsafe"
)

// TestCompile_TextPast4GiB checks that a Text of 4 GiB or more, whose
// offsets a span's 32 bits cannot hold, makes the Set copy its patterns
// rather than keep offsets that wrap (a review found "/secret", 4 GiB
// in, matched as "/public"). The 5 GiB are mapped without reserving
// memory; only the pages written are touched.
func TestCompile_TextPast4GiB(t *testing.T) {
	if testing.Short() {
		t.Skip("maps 5 GiB of address space")
	}
	const size = 5 << 30
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("cannot map 5 GiB: %v", err)
	}
	defer syscall.Munmap(mem)
	const far = 4<<30 + 100
	copy(mem[100:], "/public")
	copy(mem[far:], "/secret")
	text := unsafe.String(&mem[0], len(mem))
	ps := []Pattern{{Bytes: text[far : far+7], Priority: 2}, {Bytes: text[100:107], Priority: 1}}
	for _, warm := range []int{0, -1} {
		set := Compile(ps, Options{Text: text, WarmUp: warm})
		if !set.d.owned {
			t.Fatalf("WarmUp %d: a Text past 4 GiB was shared", warm)
		}
		for in, want := range map[string]int{"/secret": 0, "/public": 1, "/other": NoMatch} {
			if got := set.Match(in); got != want {
				t.Errorf("WarmUp %d: Match(%q) = %d, want %d", warm, in, got, want)
			}
		}
	}
}
