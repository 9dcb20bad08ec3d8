package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
)

// Exit statuses, as documented in cmd/robotstxt/doc.go and README.md.
const (
	exitOK          = 0 // every line was a URL and was decided; lint found nothing; fetch got an answer
	exitProblem     = 1 // some input line was not a URL or path, or too long; lint found something; output failed
	exitUsage       = 2 // bad usage, or an unreadable robots.txt or URL file
	exitUnreachable = 3 // fetch: the robots.txt was unreachable (network error, timeout, 429, 5xx)
)

// The garbage collector's settings when the environment gives none. A
// command is a short process that keeps what it builds (the parsed file and
// its automaton) to the end, and allocates nothing per URL: collecting
// whenever the heap doubles from 4 MB, Go's default, only spends time. The
// soft limit keeps a hostile file's memory bounded all the same. LIMITS.md
// gives what each setting was measured to earn.
const (
	gcPercent   = 400      // GOGC
	memoryLimit = 48 << 20 // GOMEMLIMIT, soft
)

// Main is the robotstxt program (cmd/robotstxt sets its Fetcher first,
// SetFetcher): it runs the command that args (the program's arguments,
// without its name) give, on the process's standard streams, and returns
// the exit status.
func Main(args []string) int {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	return run(args, os.Stdin, os.Stdout, os.Stderr)
}

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
		return runLint(rest, stdin, stdout, stderr)
	case "dump":
		return runDump(rest, stdin, stdout, stderr)
	case "explain":
		return runExplain(rest, stdin, stdout, stderr)
	case "fetch":
		return runFetch(rest, stdout, stderr)
	case "page":
		return runPage(rest, stdin, stdout, stderr)
	case "help", "-h", "-help", "--help":
		return runHelp(rest, stdout, stderr)
	case "version", "-version", "--version":
		return runVersion(rest, stdout, stderr)
	default:
		return fail(stderr, "unknown command %s (want one of %s; see 'robotstxt help')", quoteArg(cmd), commandList)
	}
}

// runHelp is 'robotstxt help [COMMAND]'.
func runHelp(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0 || (len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help")):
		io.WriteString(stdout, usage)
		return exitOK
	case len(args) > 1:
		return fail(stderr, "help: one COMMAND at most, not %d arguments (see 'robotstxt help')", len(args))
	}
	u, ok := commandUsage[args[0]]
	if !ok {
		return fail(stderr, "help: unknown command %s (want one of %s)", quoteArg(args[0]), commandList)
	}
	io.WriteString(stdout, u)
	return exitOK
}

const usage = `robotstxt decides URLs against a robots.txt.

Usage:
  robotstxt check   --robots FILE (--agent TOKEN | --user-agent HEADER)... [--agent-chain] [--semantics S] [--explain] [--usage] [--urls FILE] [URL ...]
  robotstxt explain --robots FILE (--agent TOKEN | --user-agent HEADER)... [--agent-chain] [--semantics S] URL ...
  robotstxt dump    --robots FILE (--agent TOKEN | --user-agent HEADER)... [--agent-chain] [--semantics S] [--automaton]
  robotstxt lint    [--semantics S] [--format text|json] FILE ...
  robotstxt fetch   [--agent TOKEN ...] [--user-agent HEADER] [--agent-chain] [--semantics S] [--explain] [--usage] [--extensions] [--timeout DURATION] SITE_URL [PATH_OR_URL ...]
  robotstxt page    --agent TOKEN... [--header 'Name: value']... [--html FILE] [--robots FILE --url URL] [--tdmrep FILE] [--format text|json]
  robotstxt help    [COMMAND]
  robotstxt version [--json]

S is rfc9309 (default), google or koster1996. FILE "-" is standard input.
'robotstxt help COMMAND' describes a command, its flags and its exit statuses.

Exit status:
  0  done: every URL decided, lint found nothing, fetch got an answer,
     page gave an answer
  1  check, explain, fetch: some URL was not a URL or path, or too long;
     lint: something found; any command: the output could not be written
  2  bad usage, or a robots.txt or URL file that cannot be read
  3  fetch: the robots.txt was unreachable (everything is disallowed)
`

// commandUsage maps a command to its help; fetch adds its own.
var commandUsage = map[string]string{
	"check":   checkUsage,
	"lint":    lintUsage,
	"dump":    dumpUsage,
	"explain": explainUsage,
	"help":    "Usage: robotstxt help [COMMAND]\n\nPrints the usage of robotstxt, or of COMMAND.\n",
	"version": versionUsage,
}

const commandList = "check, explain, dump, lint, fetch, page, help, version"

// fail prints one line "robotstxt: ..." on stderr and returns exitUsage.
func fail(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "robotstxt: "+format+"\n", args...)
	return exitUsage
}

// warn prints one line "robotstxt: warning: ..." on stderr.
func warn(stderr io.Writer, format string, args ...any) {
	fmt.Fprintf(stderr, "robotstxt: warning: "+format+"\n", args...)
}

// quoteArg returns a command-line argument for a message: Go-quoted, so
// that an empty one, or one with spaces, newlines or binary bytes, is seen
// as what it is and stays on one line; cut when it is long.
func quoteArg(s string) string {
	if len(s) > maxQuotedText {
		return fmt.Sprintf("%q...", s[:maxQuotedText])
	}
	return fmt.Sprintf("%q", s)
}

// agentsFlag collects every --agent. An empty value is a valid question: it
// names no group, so the "*" group applies (as in Google's library).
type agentsFlag []string

func (a *agentsFlag) String() string { return strings.Join(*a, ",") }
func (a *agentsFlag) Set(s string) error {
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

// flagWants says, for each flag, what a valid value looks like; flag errors
// quote it.
var flagWants = map[string]string{
	"robots":      "a robots.txt file, or - for standard input",
	"agent":       "a product token such as Googlebot (letters, '-' and '_')",
	"user-agent":  `a User-Agent header such as "Mozilla/5.0 (compatible; Googlebot/2.1)"`,
	"agent-chain": "no value",
	"semantics":   "rfc9309, google or koster1996",
	"explain":     "no value",
	"usage":       "no value",
	"automaton":   "no value",
	"urls":        "a file of URLs, one a line, or - for standard input",
	"format":      "text or json",
	"timeout":     "a positive duration such as 10s, 1m or 1m30s",
}

// crawlerFlags say which crawler decides: its product tokens (--agent), its
// User-Agent header (--user-agent, read with engine.ProductTokens), and how
// the groups of several tokens combine (--agent-chain).
type crawlerFlags struct {
	agents    agentsFlag
	userAgent *string // nil until --user-agent is given
	chain     bool
}

// userAgentFlag records that --user-agent was given, also as "".
type userAgentFlag struct{ p **string }

func (f userAgentFlag) String() string {
	if f.p == nil || *f.p == nil {
		return ""
	}
	return **f.p
}
func (f userAgentFlag) Set(s string) error { *f.p = &s; return nil }

// addCrawlerFlags defines --agent, --user-agent and --agent-chain on fs.
func addCrawlerFlags(fs *flag.FlagSet) *crawlerFlags {
	c := &crawlerFlags{}
	fs.Var(&c.agents, "agent", "")
	fs.Var(userAgentFlag{&c.userAgent}, "user-agent", "")
	fs.BoolVar(&c.chain, "agent-chain", false, "")
	return c
}

// given reports whether the crawler was named at all.
func (c *crawlerFlags) given() bool { return len(c.agents) > 0 || c.userAgent != nil }

// tokens returns the crawler's product tokens: every --agent, then the
// product tokens of --user-agent.
func (c *crawlerFlags) tokens() []string {
	t := append([]string(nil), c.agents...)
	if c.userAgent != nil {
		t = engine.AppendProductTokens(t, *c.userAgent)
	}
	return t
}

// matcher returns the matcher for the crawler: with --agent-chain, that of
// the first token some group names (Robots.MatcherChain); else every group
// naming any token applies, merged (Robots.Matcher).
func (c *crawlerFlags) matcher(r *engine.Robots) *engine.Matcher {
	if c.chain {
		return r.MatcherChain(c.tokens()...)
	}
	return r.Matcher(c.tokens()...)
}

// warnings prints one line on stderr for each --agent that is not a product
// token, saying what sem reads it as (engine.AgentTokens) and which --agent
// obeys the user-agent lines it looks like, and one when --user-agent gives
// no token.
func (c *crawlerFlags) warnings(sem compile.Semantics, stderr io.Writer) {
	for _, a := range c.agents {
		if msg := agentWarning(sem, a); msg != "" {
			warn(stderr, "%s", msg)
		}
	}
	if c.userAgent != nil {
		if toks := engine.ProductTokens(*c.userAgent); len(toks) == 0 {
			then := `only "*" groups can apply`
			if len(c.agents) > 0 {
				then = "it adds no token to those of --agent"
			}
			warn(stderr, "--user-agent %s names no crawler (no product token such as Googlebot in it): %s", quoteArg(*c.userAgent), then)
		}
	}
}

// agentWarning returns the warning for an --agent value that is not a
// product token, or "" for a token, for "" (which asks for the "*" group)
// and for "*". The value is read as the engine reads it in sem
// (engine.AgentTokens): as a User-Agent header in rfc9309 and koster1996,
// as given in google.
func agentWarning(sem compile.Semantics, a string) string {
	if engine.CheckAgent(a) == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--agent %s is not a product token (letters, '-' and '_'): ", quoteArg(a))
	if sem != compile.Google {
		switch toks := engine.AgentTokens(sem, a); len(toks) {
		case 0:
			b.WriteString("read as a User-Agent header, it holds no product token, so it matches no group")
		default:
			fmt.Fprintf(&b, "read as a User-Agent header (%s semantics), it stands for --agent %s", sem, strings.Join(toks, " --agent "))
		}
		return b.String()
	}
	line := quoteArg("User-agent: " + a)
	name := compile.AgentName(a)
	fmt.Fprintf(&b, "google semantics compares it as given, as Google's library does, so it matches no group; a user-agent line is read up to its first other character, ")
	if name == "" || name == "*" {
		fmt.Fprintf(&b, "so %s names no crawler and no --agent obeys it", line)
	} else {
		fmt.Fprintf(&b, "so %s names %s and --agent %s obeys such lines", line, name, name)
	}
	if strings.ContainsAny(a, " /;(") {
		b.WriteString("; give a whole User-Agent header with --user-agent")
	}
	return b.String()
}

// crawlerFlagsHelp is the help of the flags that name the crawler and the
// semantics, as dump and explain give it (check words its own at length).
const crawlerFlagsHelp = `  --agent TOKEN         a product token of the crawler (repeatable); "" asks
                        for the "*" group; a value that is no token is read
                        as the semantics reads it, with a warning
  --user-agent HEADER   the crawler's User-Agent header, whose product tokens
                        are added to those of --agent
  --agent-chain         obey only the groups of the first token that a group
                        names (Google's documented precedence)
  --semantics S         rfc9309 (default), google or koster1996
`

// robotsFlags are the flags of the commands that decide for a crawler with
// a local robots.txt: check, dump and explain.
type robotsFlags struct {
	robots  string
	crawler *crawlerFlags
	sem     semanticsFlag
}

// addRobotsFlags defines --robots, --agent, --user-agent, --agent-chain and
// --semantics on fs.
func addRobotsFlags(fs *flag.FlagSet) *robotsFlags {
	f := &robotsFlags{crawler: addCrawlerFlags(fs)}
	fs.StringVar(&f.robots, "robots", "", "")
	fs.Var(&f.sem, "semantics", "")
	return f
}

// missing returns the message for a required flag that cmd was not given,
// or "".
func (f *robotsFlags) missing(cmd string) string {
	switch {
	case f.robots == "":
		return fmt.Sprintf("%s: --robots FILE is required (%s; see 'robotstxt help %s')", cmd, flagWants["robots"], cmd)
	case !f.crawler.given():
		return fmt.Sprintf("%s: --agent TOKEN or --user-agent HEADER is required (--agent \"\" asks for the \"*\" group; see 'robotstxt help %s')", cmd, cmd)
	}
	return ""
}

// newFlagSet returns a FlagSet that prints nothing by itself: parse errors
// become the single line that parseFlags prints.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if flagSetMade != nil {
		flagSetMade(fs)
	}
	return fs
}

// flagSetMade, when set (by tests), is called with every FlagSet a command
// makes, so that a test can hold a command's help to the flags it defines.
var flagSetMade func(*flag.FlagSet)

// parseFlags parses args with fs and returns the positional arguments. Flags
// may come after positional arguments too (check /a --agent x); after "--"
// every argument is positional. On -h it prints help to stdout and returns
// status exitOK with done set; on a bad flag it prints one line to stderr.
func parseFlags(fs *flag.FlagSet, args []string, help string, stdout, stderr io.Writer) (pos []string, status int, done bool) {
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(stdout, help)
			return nil, exitOK, true
		}
		if err != nil {
			return nil, fail(stderr, "%s: %s (see 'robotstxt help %s')", fs.Name(), flagError(err, fs, args), fs.Name()), true
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

// flagPatterns match the errors of package flag, which name flags with one
// dash.
type flagPatterns struct{ undefined, noValue, badBool, badValue, badSyntax *regexp.Regexp }

// flagErrors compiles the flagPatterns on the first bad flag, not at every
// start: compiling them cost one URL's check about 1 ms of its 15.
var flagErrors = sync.OnceValue(func() (e flagPatterns) {
	e.undefined = regexp.MustCompile(`(?s)^flag provided but not defined: -(.*)$`)
	e.noValue = regexp.MustCompile(`(?s)^flag needs an argument: -(.*)$`)
	e.badBool = regexp.MustCompile(`(?s)^invalid boolean value (".*") for -(.*?): .*$`)
	e.badValue = regexp.MustCompile(`(?s)^invalid value (".*") for flag -(.*?): (.*)$`)
	e.badSyntax = regexp.MustCompile(`(?s)^bad flag syntax: (.*)$`)
	return e
})

// flagErrLine escapes the line breaks a flag's name may hold, so that an
// error about it stays on one line.
var flagErrLine = strings.NewReplacer("\n", `\n`, "\r", `\r`)

// flagError rewrites an error of package flag, which names every flag with
// one dash, in this command's words: a flag is named as it was typed in
// args (-x or --x), an unknown one with the closest flag of fs when one is
// close, and the message says what a valid value looks like.
func flagError(err error, fs *flag.FlagSet, args []string) string {
	msg := err.Error()
	fe := flagErrors()
	if m := fe.undefined.FindStringSubmatch(msg); m != nil {
		dashes := typedDashes(args, m[1])
		s := "unknown flag " + dashes + flagErrLine.Replace(m[1])
		if near := closestFlag(fs, m[1]); near != "" {
			s += "; did you mean " + dashes + near + "?"
		}
		return s
	}
	if m := fe.noValue.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s%s needs a value: %s", typedDashes(args, m[1]), m[1], flagWants[m[1]])
	}
	if m := fe.badBool.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s%s takes no value, not %s (write --%s, or --%s=false)", typedDashes(args, m[2]), m[2], flagErrLine.Replace(m[1]), m[2], m[2])
	}
	if m := fe.badValue.FindStringSubmatch(msg); m != nil {
		name := typedDashes(args, m[2]) + m[2]
		if m[3] == "parse error" || m[3] == "value out of range" {
			return fmt.Sprintf("bad value %s for %s: want %s", flagErrLine.Replace(m[1]), name, flagWants[m[2]])
		}
		// Our own Set methods say what they want.
		return fmt.Sprintf("%s: %s", name, flagErrLine.Replace(m[3]))
	}
	if m := fe.badSyntax.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("bad flag syntax %s: write --name VALUE or --name=VALUE", quoteArg(m[1]))
	}
	return flagErrLine.Replace(msg)
}

// typedDashes returns the dashes ("-" or "--") of the first argument in
// args that names the flag name, as package flag reads one (-name,
// --name, -name=value, --name=value); "--" when none does.
func typedDashes(args []string, name string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		for _, d := range []string{"--", "-"} {
			if rest, ok := strings.CutPrefix(a, d); ok && (rest == name || strings.HasPrefix(rest, name+"=")) {
				return d
			}
		}
	}
	return "--"
}

// closestFlag returns the flag of fs that an unknown name was probably
// meant to be, or "": the flag fewest edits away (insertions, deletions,
// substitutions of one byte), within two edits and fewer than half the
// flag's length (so that -x suggests nothing), or else the one flag that
// starts with name when name has three bytes or more (--sem: --semantics).
// Ties go to the flag that sorts first.
func closestFlag(fs *flag.FlagSet, name string) string {
	best, bestDist := "", 3
	var prefixed []string
	fs.VisitAll(func(f *flag.Flag) {
		// The lengths' difference is the least distance: it spares the
		// table for a name that cannot be close (a 1 MB argument).
		if abs(len(name)-len(f.Name)) < bestDist {
			if d := editDistance(name, f.Name); d < bestDist && 2*d < len(f.Name) {
				best, bestDist = f.Name, d
			}
		}
		if len(name) >= 3 && strings.HasPrefix(f.Name, name) {
			prefixed = append(prefixed, f.Name)
		}
	})
	if best == "" && len(prefixed) == 1 {
		best = prefixed[0]
	}
	return best
}

func abs(n int) int { return max(n, -n) }

// editDistance returns the Levenshtein distance of a and b, in bytes, in
// time proportional to len(a)*len(b).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// robotsLimit is what readRobots reads of a robots.txt to decide with it:
// the engine's size limit, and one byte more to see that there is more.
const robotsLimit = compile.DefaultMaxFileSize + 1

// stdinName is what messages call standard input given as "-".
const stdinName = "standard input"

// readRobots reads a robots.txt from path ("-": stdin): at most limit
// bytes, so that a huge file (or /dev/zero) costs bounded memory. A limit of
// the engine's size limit plus one byte (robotsLimit) lets the engine see
// that a file was truncated; lint reads further (lintLimit).
func readRobots(path string, stdin io.Reader, limit int) ([]byte, error) {
	var r io.Reader
	size := 0 // the file's size when known: read it in one piece, as os.ReadFile does
	if path == "-" {
		r = stdin
	} else {
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
			return nil, fmt.Errorf("%s: is a directory (want a robots.txt file)", path)
		}
		if st.Mode().IsRegular() {
			size = int(min(st.Size(), int64(limit)))
		}
		r = f
	}
	var buf bytes.Buffer
	buf.Grow(size + bytes.MinRead) // room to see the end without growing
	_, err := buf.ReadFrom(io.LimitReader(r, int64(limit)))
	body := buf.Bytes()
	if err != nil {
		if path == "-" {
			return nil, fmt.Errorf("%s: %w", stdinName, err)
		}
		return nil, err
	}
	return body, nil
}

// displayName is how messages name the robots.txt at path.
func displayName(path string) string {
	if path == "-" {
		return stdinName
	}
	return path
}

// load reads and compiles the robots.txt the flags name, in their
// semantics and with opts' other settings, prints what cmd's user should
// know of the agents given, and returns the file and the crawler's
// matcher; false when the file cannot be read (reported on stderr).
func (rf *robotsFlags) load(cmd string, opts engine.Options, stdin io.Reader, stderr io.Writer) (*engine.Robots, *engine.Matcher, bool) {
	opts.Semantics = rf.sem.s
	r, ok := compileRobots(cmd, rf.robots, opts, stdin, stderr)
	if !ok {
		return nil, nil, false
	}
	rf.crawler.warnings(rf.sem.s, stderr)
	return r, rf.crawler.matcher(r), true
}

// compileRobots reads and compiles the robots.txt at path and prints its
// warnings (engine.Robots.Warnings); on an error it prints one line naming
// the file and returns ok false.
func compileRobots(cmd, path string, opts engine.Options, stdin io.Reader, stderr io.Writer) (*engine.Robots, bool) {
	body, err := readRobots(path, stdin, robotsLimit)
	if err != nil {
		fail(stderr, "%s: cannot read robots.txt: %v", cmd, err)
		return nil, false
	}
	r := engine.Compile(body, opts)
	printWarnings(stderr, displayName(path), r.Warnings())
	return r, true
}

// printWarnings prints the warnings of the robots.txt called name, one line
// each: "robotstxt: warning: NAME: MESSAGE".
func printWarnings(stderr io.Writer, name string, ws []engine.Warning) {
	for _, w := range ws {
		warn(stderr, "%s: %s", name, w.Message)
	}
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
