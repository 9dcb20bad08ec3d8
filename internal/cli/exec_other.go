//go:build !unix

package cli

import (
	"errors"
	"io"
	"os"
	"os/exec"
)

// runProgram runs program p with args on the process's standard streams,
// and returns its exit status.
func runProgram(p string, args []string, stderr io.Writer) int {
	cmd := exec.Command(p, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	return fail(stderr, "fetch: cannot run %s: %v", p, err)
}
