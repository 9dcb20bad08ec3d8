//go:build unix

package cli

import (
	"io"
	"os"
	"syscall"
)

// runProgram replaces the process by program p with args: its exit status,
// signals and standard streams are then the process's own.
func runProgram(p string, args []string, stderr io.Writer) int {
	err := syscall.Exec(p, append([]string{p}, args...), os.Environ())
	return fail(stderr, "fetch: cannot run %s: %v", p, err)
}
