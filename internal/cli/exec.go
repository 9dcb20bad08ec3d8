package cli

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// fetchProgram is the program that carries out robotstxt's fetch command:
// see Fetcher.
const fetchProgram = "robotstxt-fetch"

// fetchMissing is the message when fetchProgram cannot be found.
const fetchMissing = "fetch: the fetch command is carried out by the program " + fetchProgram +
	", found neither beside this robotstxt nor on PATH: install it with" +
	" go install github.com/seed-275a9bd5/robotstxt/cmd/" + fetchProgram + "@latest" +
	" (or go install github.com/seed-275a9bd5/robotstxt/cmd/...@latest for both)"

// findFetch returns the path of fetchProgram: the one in the directory of
// the running program (where go install puts both), else the first on
// PATH.
func findFetch() (string, error) {
	if exe, err := os.Executable(); err == nil {
		if p, err := exec.LookPath(filepath.Join(filepath.Dir(exe), fetchProgram)); err == nil {
			return p, nil
		}
	}
	return exec.LookPath(fetchProgram)
}

// execFetch runs fetchProgram with the fetch command's arguments, on the
// process's standard streams, and returns its exit status (on Unix the
// process becomes fetchProgram, and this returns only if that fails).
func execFetch(args []string, stderr io.Writer) int {
	p, err := findFetch()
	if err != nil {
		return fail(stderr, "%s", fetchMissing)
	}
	return runProgram(p, args, stderr)
}
