package cli

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// fetchProgram is the program that carries out robotstxt's fetch command:
// see Fetcher.
const fetchProgram = "robotstxt-fetch"

// fetchMissing returns the message when fetchProgram cannot be found; err,
// when not nil, is why a candidate was refused. A robotstxt installed from
// the module path is told to install robotstxt-fetch at its own version;
// one built from a checkout, to install both from the checkout, since the
// module path works only once the module is published.
func fetchMissing(err error) string {
	msg := "fetch: the fetch command is carried out by the program " + fetchProgram +
		", found neither beside this robotstxt nor on PATH: "
	if b := build(); b.fromModulePath() {
		v := b.Version
		msg += "install it with go install " + modulePath + "/cmd/" + fetchProgram + "@" + v +
			" (or go install " + modulePath + "/cmd/...@" + v + " for both)"
	} else {
		msg += "install both with go install ./cmd/... in the checkout robotstxt was built from" +
			" (or, once the module is published, go install " + modulePath + "/cmd/...@latest)"
	}
	if err != nil {
		msg += " (" + err.Error() + ")"
	}
	return msg
}

// modulePath is the path of this module, for the go install commands that
// messages give.
const modulePath = "github.com/seed-275a9bd5/robotstxt"

// findFetch returns the path of fetchProgram: the one in the directory of
// the running program (where go install puts both), or of the file it is a
// symbolic link to, else the first on PATH. The error, when there is one,
// is why a candidate that exists was refused (exec.ErrDot, say), or nil.
func findFetch() (string, error) {
	var candidates []string
	if exe, err := os.Executable(); err == nil {
		candidates = append(candidates, filepath.Join(filepath.Dir(exe), fetchProgram))
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			candidates = append(candidates, filepath.Join(filepath.Dir(real), fetchProgram))
		}
	}
	var refused error
	for _, name := range append(candidates, fetchProgram) {
		p, err := exec.LookPath(name)
		if err == nil {
			return p, nil
		}
		if refused == nil && !errors.Is(err, exec.ErrNotFound) && !errors.Is(err, os.ErrNotExist) {
			refused = err
		}
	}
	return "", refused
}

// execFetch runs fetchProgram with the fetch command's arguments, on the
// process's standard streams, and returns its exit status (on Unix the
// process becomes fetchProgram, and this returns only if that fails).
func execFetch(args []string, stderr io.Writer) int {
	p, err := findFetch()
	if p == "" {
		return fail(stderr, "%s", fetchMissing(err))
	}
	return runProgram(p, args, stderr)
}
