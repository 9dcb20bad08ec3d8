//go:build linux

package automaton

import (
	"os"
	"syscall"
	"unsafe"
)

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14): map the pages of a
// range now, writable, as if each had been written.
const madvPopulateWrite = 23

// prefault asks the kernel to map the whole pages of s now, in one system
// call, rather than one page fault each as rows are first written. For a
// reserved table (Options.ReserveBytes) that is most of what its pages
// cost (LIMITS.md has the measurement). A page already mapped is left as
// it is. An older kernel refuses the advice (EINVAL): the pages are then
// faulted in as before, and nothing else changes.
func prefault[T any](s []T) {
	if len(s) == 0 {
		return
	}
	n := uintptr(len(s)) * unsafe.Sizeof(s[0])
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	from, to := (start+page-1)&^(page-1), (start+n)&^(page-1) // the whole pages inside s
	if from >= to {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), n)
	_ = syscall.Madvise(b[from-start:to-start], madvPopulateWrite)
}

// prefaultChunkBytes is how much of a reserved table prefaultAhead maps at
// a time: 128 KiB, what check's first table was before it started wide.
const prefaultChunkBytes = 128 << 10

// prefaultAhead maps the pages of w from word done (where the last call
// stopped, or 0) to past word need, a prefaultChunkBytes' worth at least,
// and returns the word where it stopped: a page boundary, or len(w), so
// that the next call's first page is whole.
func prefaultAhead(w []uint32, done, need int) int {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(w)))
	page := uintptr(os.Getpagesize())
	end := start + 4*uintptr(max(need, done+prefaultChunkBytes/4))
	end = (end + page - 1) &^ (page - 1)
	stop := min(int((end-start)/4), len(w))
	prefault(w[done:stop])
	return stop
}
