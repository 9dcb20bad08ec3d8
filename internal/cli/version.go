package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
)

const versionUsage = `Usage: robotstxt version [--json]

Prints the build of robotstxt, for a bug report: the module version
(robotstxt v1.2.3; for a build in a git checkout, Go 1.24 and later make one
of the commit: v0.0.0-20260102030405-0123456789ab+dirty); else the commit
built, with "+dirty" when the checkout had uncommitted changes, and its time
(robotstxt 0123456789ab+dirty (2026-01-02T03:04:05Z)); else "(devel)", when
the build recorded neither (go run, go build -buildvcs=false), with a
line on standard error on how to find the revision. It takes no other
argument.

Flags:
  --json    print the same as one JSON object: {"version", "revision",
            "time", "modified"} ("" and false when not recorded)
`

// buildInfo is what robotstxt version prints: what the Go toolchain
// recorded in the binary (runtime/debug.ReadBuildInfo).
type buildInfo struct {
	Version  string `json:"version"`  // the main module's version; "(devel)" when none was recorded
	Revision string `json:"revision"` // vcs.revision: the commit built, when built in a checkout
	Time     string `json:"time"`     // vcs.time: the commit's time (RFC 3339)
	Modified bool   `json:"modified"` // vcs.modified: the checkout had uncommitted changes
}

// devel is what the Go toolchain calls a main module without a version.
const devel = "(devel)"

// develHint is what version adds, on standard error, when the build
// recorded neither a version nor a commit.
const develHint = "robotstxt version: this build recorded no version and no commit (go run, or GOFLAGS=-buildvcs=false); " +
	"in a clone, 'git rev-parse HEAD' names the revision, and 'go build -buildvcs=true ./cmd/robotstxt' builds one that says it"

// readBuildInfo returns the build information of bi, which may be nil (a
// binary built without module support).
func readBuildInfo(bi *debug.BuildInfo) buildInfo {
	b := buildInfo{Version: devel}
	if bi == nil {
		return b
	}
	if bi.Main.Version != "" {
		b.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// String names the build in a word or two: the module version; else the
// revision's first 12 hex digits (as Go's pseudo-versions give it), with
// "+dirty" for uncommitted changes, and the commit's time; else "(devel)".
func (b buildInfo) String() string {
	switch {
	case b.Version != devel:
		return b.Version
	case b.Revision != "":
		s := b.Revision[:min(len(b.Revision), 12)]
		if b.Modified {
			s += "+dirty"
		}
		if b.Time != "" {
			s += " (" + b.Time + ")"
		}
		return s
	}
	return devel
}

// build returns the build information of the running program.
func build() buildInfo {
	bi, _ := debug.ReadBuildInfo()
	return readBuildInfo(bi)
}

// runVersion is 'robotstxt version [--json]', which takes no argument (as
// every command, it refuses what it does not know).
func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version")
	asJSON := fs.Bool("json", false, "")
	pos, status, done := parseFlags(fs, args, versionUsage, stdout, stderr)
	switch {
	case done:
		return status
	case len(pos) > 0:
		return fail(stderr, "version: unexpected argument %s: version takes none (see 'robotstxt help version')", quoteArg(pos[0]))
	}
	b := build()
	var err error
	if *asJSON {
		var out []byte
		out, _ = json.Marshal(b) // cannot fail: strings and a bool
		_, err = fmt.Fprintf(stdout, "%s\n", out)
	} else {
		_, err = fmt.Fprintf(stdout, "robotstxt %s\n", b)
		if b.String() == devel {
			fmt.Fprintln(stderr, develHint)
		}
	}
	if err != nil {
		return writeFailed(err, exitOK, stderr)
	}
	return exitOK
}
