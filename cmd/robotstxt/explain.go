package main

import (
	"bufio"
	"fmt"
	"io"
)

const explainUsage = `Usage: robotstxt explain --robots FILE --agent TOKEN [--agent TOKEN ...] [--semantics S] URL ...

Says, for each URL, why the crawler with the given product tokens may or may
not fetch it: the path that was matched (normalised for the semantics), the
user-agent lines that selected the groups (or that the "*" group applies, or
none), the rule that decided (line, kind and value) and the priority by which
it won (the pattern and its length in bytes). One block of lines per URL,
separated by a blank line. The format is for people and may change; use
check --explain in scripts.

A URL is absolute (scheme://...) or a path starting with '/'; any other
argument is reported on standard error and skipped (exit status 1).

Flags:
  --robots FILE    the robots.txt to obey (required)
  --agent TOKEN    a product token of the crawler (required; repeatable)
  --semantics S    rfc9309 (default), google or koster1996
`

func runExplain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("explain")
	robots := fs.String("robots", "", "")
	var agents agentsFlag
	fs.Var(&agents, "agent", "")
	var sem semanticsFlag
	fs.Var(&sem, "semantics", "")
	urls, status, done := parseFlags(fs, args, explainUsage, stdout, stderr)
	if done {
		return status
	}
	switch {
	case *robots == "":
		return fail(stderr, "explain: --robots FILE is required (see 'robotstxt help explain')")
	case len(agents) == 0:
		return fail(stderr, "explain: at least one --agent TOKEN is required (see 'robotstxt help explain')")
	case len(urls) == 0:
		return fail(stderr, "explain: no URL given (see 'robotstxt help explain')")
	}
	r, ok := compileRobots("explain", *robots, sem.s, stderr)
	if !ok {
		return exitUsage
	}
	w := bufio.NewWriter(stdout)
	status = exitOK
	n := 0
	for i, raw := range urls {
		u := trimSpace(raw)
		if !isURL(u) {
			status = exitProblem
			if err := w.Flush(); err != nil {
				return writeFailed(err, status, stderr)
			}
			fmt.Fprintf(stderr, "robotstxt: line %d: not a URL or path: %s\n", i+1, quoteText(u))
			continue
		}
		if n > 0 {
			w.WriteByte('\n')
		}
		n++
		if _, err := w.WriteString(r.Explain(u, agents...).String()); err != nil {
			return writeFailed(err, status, stderr)
		}
	}
	if err := w.Flush(); err != nil {
		return writeFailed(err, status, stderr)
	}
	return status
}
