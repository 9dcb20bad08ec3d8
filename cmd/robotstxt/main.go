package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
)

// Exit statuses, as documented in doc.go.
const (
	exitOK      = 0 // every URL was decided; lint found nothing
	exitProblem = 1 // some input line was not decided; lint found something
	exitUsage   = 2 // bad usage, or an unreadable robots.txt or URL file
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// run is the whole program, testable in-process: it dispatches args[0] to a
// command and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		io.WriteString(stderr, usage)
		return exitUsage
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "check":
		return runCheck(rest, stdin, stdout, stderr)
	case "lint":
		return runLint(rest, stdout, stderr)
	case "dump":
		return runDump(rest, stdout, stderr)
	case "explain":
		return runExplain(rest, stdout, stderr)
	case "fetch":
		return runFetch(rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 {
			if u, ok := commandUsage[rest[0]]; ok {
				io.WriteString(stdout, u)
				return exitOK
			}
		}
		io.WriteString(stdout, usage)
		return exitOK
	case "version", "-version", "--version":
		fmt.Fprintf(stdout, "robotstxt %s\n", version())
		return exitOK
	default:
		return fail(stderr, "unknown command %q (see 'robotstxt help')", cmd)
	}
}

const usage = `robotstxt decides URLs against a robots.txt.

Usage:
  robotstxt check --robots FILE --agent TOKEN [--agent TOKEN ...] [--semantics S] [--explain] [--urls FILE] [URL ...]
  robotstxt lint [--semantics S] [--format text|json] FILE ...
  robotstxt explain --robots FILE --agent TOKEN [--agent TOKEN ...] [--semantics S] URL ...
  robotstxt dump --robots FILE --agent TOKEN [--agent TOKEN ...] [--semantics S]
  robotstxt fetch ...
  robotstxt help [COMMAND]
  robotstxt version

S is rfc9309 (default), google or koster1996.
Exit status: 0 all decided / no diagnostics, 1 some line not decided / diagnostics found, 2 bad usage or unreadable file.
`

var commandUsage = map[string]string{
	"check":   checkUsage,
	"lint":    lintUsage,
	"dump":    dumpUsage,
	"explain": explainUsage,
}

// fail prints one line "robotstxt: ..." on stderr and returns exitUsage.
func fail(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "robotstxt: "+format+"\n", args...)
	return exitUsage
}

// agentsFlag collects every --agent.
type agentsFlag []string

func (a *agentsFlag) String() string { return strings.Join(*a, ",") }
func (a *agentsFlag) Set(s string) error {
	if s == "" {
		return errors.New("empty product token")
	}
	*a = append(*a, s)
	return nil
}

// semanticsFlag is a --semantics value, checked as it is set.
type semanticsFlag struct{ s compile.Semantics }

func (f *semanticsFlag) String() string { return f.s.String() }
func (f *semanticsFlag) Set(name string) error {
	s, err := compile.ParseSemantics(name)
	if err != nil {
		return err
	}
	f.s = s
	return nil
}

// robotsFlags are the flags of the commands that decide for a crawler with
// a local robots.txt: check, dump and explain.
type robotsFlags struct {
	robots string
	agents agentsFlag
	sem    semanticsFlag
}

// addRobotsFlags defines --robots, --agent and --semantics on fs.
func addRobotsFlags(fs *flag.FlagSet) *robotsFlags {
	f := &robotsFlags{}
	fs.StringVar(&f.robots, "robots", "", "")
	fs.Var(&f.agents, "agent", "")
	fs.Var(&f.sem, "semantics", "")
	return f
}

// missing returns the message for a required flag that cmd was not given,
// or "".
func (f *robotsFlags) missing(cmd string) string {
	switch {
	case f.robots == "":
		return fmt.Sprintf("%s: --robots FILE is required (see 'robotstxt help %s')", cmd, cmd)
	case len(f.agents) == 0:
		return fmt.Sprintf("%s: at least one --agent TOKEN is required (see 'robotstxt help %s')", cmd, cmd)
	}
	return ""
}

// newFlagSet returns a FlagSet that prints nothing by itself: parse errors
// become the single line that parseFlags prints.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args with fs and returns the positional arguments. Flags
// may come after positional arguments too (check /a --agent x); after "--"
// every argument is positional. On -h it prints help to stdout and returns
// status exitOK with done set; on a bad flag it prints one line to stderr.
// flagErrLine escapes the line breaks a flag's name or value may hold, so that
// an error about it stays on one line.
var flagErrLine = strings.NewReplacer("\n", `\n`, "\r", `\r`)

func parseFlags(fs *flag.FlagSet, args []string, help string, stdout, stderr io.Writer) (pos []string, status int, done bool) {
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(stdout, help)
			return nil, exitOK, true
		}
		if err != nil {
			// One line, whatever the flag's name holds: control characters
			// (a newline in "--bo\ngus") are escaped.
			msg := flagErrLine.Replace(err.Error())
			return nil, fail(stderr, "%s: %s (see 'robotstxt help %s')", fs.Name(), msg, fs.Name()), true
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, exitOK, false
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), exitOK, false
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// readRobots reads a robots.txt from path: at most the engine's size limit
// plus one byte, so that a huge file (or /dev/zero) costs bounded memory and
// the engine still sees that it was truncated.
func readRobots(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s: is a directory", path)
	}
	body, err := io.ReadAll(io.LimitReader(f, compile.DefaultMaxFileSize+1))
	if err != nil {
		return nil, err
	}
	return body, nil
}

// compileRobots reads and compiles the robots.txt at path; on an error it
// prints one line naming the file and returns ok false.
func compileRobots(cmd, path string, sem compile.Semantics, stderr io.Writer) (*engine.Robots, bool) {
	body, err := readRobots(path)
	if err != nil {
		fail(stderr, "%s: cannot read robots.txt: %v", cmd, err)
		return nil, false
	}
	return engine.Compile(body, engine.Options{Semantics: sem}), true
}

// isBrokenPipe reports whether err says the reader of our output went away.
func isBrokenPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) || errors.Is(err, io.ErrClosedPipe)
}

// writeFailed handles an error writing standard output: a closed pipe
// (robotstxt check | head -1) stops quietly with status; anything else (a
// full disk) is reported in one line and gives exitProblem.
func writeFailed(err error, status int, stderr io.Writer) int {
	if isBrokenPipe(err) {
		return status
	}
	fmt.Fprintf(stderr, "robotstxt: writing output: %v\n", err)
	return exitProblem
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
