package cli

import (
	"bufio"
	"fmt"
	"io"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
)

const explainUsage = `Usage: robotstxt explain --robots FILE (--agent TOKEN | --user-agent HEADER)... [--agent-chain] [--semantics S] URL ...

Says, for each URL, why the crawler may or may not fetch it: the path that
was matched (normalised for the semantics), the user-agent lines that
selected the groups (or that the "*" group applies, or none), the rule that
decided (line, kind and value) and the priority by which it won (the
pattern and its length in bytes). When the crawler's groups have
Content-Usage lines, a last line "usage:" gives the URL's AI usage
preferences (train-ai and search) and the Content-Usage line that decided
each, or "-" when the URL may not be fetched. One block of lines per URL,
separated by a blank line. The format is for people and may change; use check --explain
in scripts.

URLs are read as check reads them: an empty argument is the path "/"; an
argument that is neither an absolute URL nor a path starting with '/' is
explained as the semantics reads it, with a warning on standard error and
exit status 1.

Flags:
  --robots FILE         the robots.txt to obey (required; - for standard input)
` + crawlerFlagsHelp + `
Exit status: 0 every argument was a URL or path; 1 some argument was not, or
the output could not be written; 2 bad usage or an unreadable robots.txt.
`

func runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("explain")
	rf := addRobotsFlags(fs)
	urls, status, done := parseFlags(fs, args, explainUsage, stdout, stderr)
	if done {
		return status
	}
	switch msg := rf.missing("explain"); {
	case msg != "":
		return fail(stderr, "%s", msg)
	case len(urls) == 0:
		return fail(stderr, "explain: no URL given (see 'robotstxt help explain')")
	}
	r, m, ok := rf.load("explain", engine.Options{}, stdin, stderr)
	if !ok {
		return exitUsage
	}
	// With --agent-chain the matcher is that of one token (or of all when
	// no group names any); Explain then explains with its tokens.
	tokens := m.Tokens()
	w := bufio.NewWriter(stdout)
	status = exitOK
	for i, raw := range urls {
		u := trimSpace(raw)
		if !engine.IsURL(u) {
			status = exitProblem
			if err := w.Flush(); err != nil {
				return writeFailed(err, status, stderr)
			}
			fmt.Fprintf(stderr, "robotstxt: argument %d: not a URL or path: %s (explained as the path %s; write scheme://host/path or /path)\n",
				i+1, quoteText(u), quotePath(compile.ExtractPath(u, rf.sem.s)))
		}
		if i > 0 {
			w.WriteByte('\n')
		}
		if _, err := w.WriteString(r.Explain(u, tokens...).String()); err != nil {
			return writeFailed(err, status, stderr)
		}
	}
	if err := w.Flush(); err != nil {
		return writeFailed(err, status, stderr)
	}
	return status
}
