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
	r, ok := compileRobots("explain", rf.robots, rf.sem.s, stderr)
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
		if _, err := w.WriteString(r.Explain(u, rf.agents...).String()); err != nil {
			return writeFailed(err, status, stderr)
		}
	}
	if err := w.Flush(); err != nil {
		return writeFailed(err, status, stderr)
	}
	return status
}
