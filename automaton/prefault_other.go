//go:build !linux

package automaton

// prefault does nothing here: see prefault_linux.go.
func prefault[T any](s []T) {}
