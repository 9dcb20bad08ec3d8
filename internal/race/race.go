//go:build race

// Package race says whether the binary was built with the race detector,
// for tests whose allocation or memory checks mean nothing under it.
package race

// Enabled reports whether the race detector is on.
const Enabled = true
