package main

import (
	"fmt"
	"io"
	"strings"
)

const dumpUsage = `Usage: robotstxt dump --robots FILE --agent TOKEN [--agent TOKEN ...] [--semantics S]

Prints the rules that apply to the crawler, merged and normalised, in
priority order, then the automata they were compiled to, and a last line

  automata: N  states: N  classes: N  bytes: N  rules: N

Flags:
  --robots FILE    the robots.txt (required)
  --agent TOKEN    a product token of the crawler (required; repeatable)
  --semantics S    rfc9309 (default), google or koster1996
`

func runDump(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("dump")
	rf := addRobotsFlags(fs)
	rest, status, done := parseFlags(fs, args, dumpUsage, stdout, stderr)
	if done {
		return status
	}
	switch msg := rf.missing("dump"); {
	case msg != "":
		return fail(stderr, "%s", msg)
	case len(rest) > 0:
		return fail(stderr, "dump: unexpected argument %q (see 'robotstxt help dump')", rest[0])
	}
	r, ok := compileRobots("dump", rf.robots, rf.sem.s, stderr)
	if !ok {
		return exitUsage
	}
	m := r.Matcher(rf.agents...)
	var b strings.Builder
	b.WriteString(m.String())
	if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
	st := m.Stats()
	fmt.Fprintf(&b, "automata: %d  states: %d  classes: %d  bytes: %d  rules: %d\n",
		st.Automata, st.States, st.Classes, st.Bytes, st.Rules)
	if _, err := io.WriteString(stdout, b.String()); err != nil {
		return writeFailed(err, exitOK, stderr)
	}
	return exitOK
}
