//go:build !linux

package automaton

// prefault does nothing here: see prefault_linux.go.
func prefault[T any](s []T) {}

// prefaultAhead maps nothing here, and says the whole of w is mapped: see
// prefault_linux.go.
func prefaultAhead(w []uint32, done, need int) int { return len(w) }
