//go:build !linux

package automaton

// prefault does nothing here: see prefault_linux.go.
func prefault(w []uint32) {}
