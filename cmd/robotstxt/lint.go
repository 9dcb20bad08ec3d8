package main

import (
	"bufio"
	"io"
	"strconv"
)

const lintUsage = `Usage: robotstxt lint [--semantics S] FILE ...

Prints what the parser did not fully understand in each robots.txt, one
diagnostic a line as "FILE:LINE: KIND: message" (KIND is e.g. unknown-key,
typo, missing-colon). Exit status 1 if there is any diagnostic, 0 if none,
2 for bad usage or an unreadable file.

Flags:
  --semantics S    rfc9309 (default), google or koster1996
`

func runLint(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("lint")
	var sem semanticsFlag
	fs.Var(&sem, "semantics", "")
	files, status, done := parseFlags(fs, args, lintUsage, stdout, stderr)
	if done {
		return status
	}
	if len(files) == 0 {
		return fail(stderr, "lint: no robots.txt FILE given (see 'robotstxt help lint')")
	}
	w := bufio.NewWriter(stdout)
	status = exitOK
	for _, name := range files {
		r, ok := compileRobots("lint", name, sem.s, stderr)
		if !ok {
			w.Flush()
			return exitUsage
		}
		for _, d := range r.File().Diagnostics {
			status = exitProblem
			b := w.AvailableBuffer()
			b = append(b, name...)
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(d.Line), 10)
			b = append(b, ": "...)
			b = append(b, d.Kind.String()...)
			b = append(b, ": "...)
			b = append(b, d.Message...)
			b = append(b, '\n')
			if _, err := w.Write(b); err != nil {
				return writeFailed(err, status, stderr)
			}
		}
	}
	if err := w.Flush(); err != nil {
		return writeFailed(err, status, stderr)
	}
	return status
}
