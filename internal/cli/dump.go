package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
)

const dumpUsage = `Usage: robotstxt dump --robots FILE (--agent TOKEN | --user-agent HEADER)... [--agent-chain] [--semantics S] [--automaton]

Prints what applies to the crawler: the groups selected for it (by the
user-agent lines that name it, or the "*" group, or none), then their rules,
merged and normalised, in priority order, one a line:

  line N: allow PATTERN
  line N: disallow PATTERN

The first rule in this order that matches a URL decides it. When the file
has Content-Usage lines (AI usage preferences), the lines of those groups
follow, in file order, each with its path's pattern (none when it has no
path) and its statement:

  line N: content-usage PATTERN STATEMENT

Then the extension lines of those groups (crawl-delay, request-rate, host, ...: they
never decide) and the file's sitemaps, one a line:

  line N: KEY: VALUE
  line N: SITEMAP_URL

With --automaton it also prints the automaton the rules compile to and a
last line

  states: N  classes: N  bytes: N  rules: N

The automaton's states are built as URLs first reach them, and dump decides
no URL: it shows the start state alone ('robotstxt explain' and 'check'
decide URLs).

Flags:
  --robots FILE         the robots.txt (required; - for standard input)
` + crawlerFlagsHelp + `  --automaton           print the automaton too

Exit status: 0 printed; 1 the output could not be written; 2 bad usage or an
unreadable robots.txt.
`

func runDump(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("dump")
	rf := addRobotsFlags(fs)
	automata := fs.Bool("automaton", false, "")
	rest, status, done := parseFlags(fs, args, dumpUsage, stdout, stderr)
	if done {
		return status
	}
	switch msg := rf.missing("dump"); {
	case msg != "":
		return fail(stderr, "%s", msg)
	case len(rest) > 0:
		return fail(stderr, "dump: unexpected argument %s: dump takes no URL (see 'robotstxt help dump'; 'robotstxt explain' explains URLs)", quoteArg(rest[0]))
	}
	// No warm-up: the automaton's start state is built at once, and the
	// dump shows it.
	r, m, ok := rf.load("dump", engine.Options{WarmUp: -1}, stdin, stderr)
	if !ok {
		return exitUsage
	}
	var b strings.Builder
	writeSelection(&b, r, m)
	writeUsages(&b, r, m)
	writeExtensions(&b, r, m)
	if *automata {
		b.WriteString(automatonDump(m.Dump()))
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		st := m.Stats()
		fmt.Fprintf(&b, "states: %d  classes: %d  bytes: %d  rules: %d\n",
			st.States, st.Classes, st.Bytes, st.Rules)
	}
	if _, err := io.WriteString(stdout, b.String()); err != nil {
		return writeFailed(err, exitOK, stderr)
	}
	return exitOK
}

// writeSelection writes the semantics, the tokens, the selected groups and
// their merged rules in priority order (Matcher.Rules).
func writeSelection(b *strings.Builder, r *engine.Robots, m *engine.Matcher) {
	sem := r.Semantics()
	sel := m.Selection()
	f := r.File()
	fmt.Fprintf(b, "semantics: %s\n", sem)
	fmt.Fprintf(b, "agents: %s\n", strings.Join(quoteTokens(m.Tokens()), ", "))
	switch sel.Match {
	case compile.MatchSpecific:
		b.WriteString("selected: the groups that name the agent\n")
	case compile.MatchGlobal:
		b.WriteString("selected: the \"*\" groups (no group names the agent)\n")
	default:
		b.WriteString("selected: none (no group names the agent and there is no \"*\" group): every URL is allowed\n")
	}
	for _, gi := range sel.Groups {
		g := f.Groups[gi]
		var agents []string
		for _, a := range g.Agents.Slice() {
			agents = append(agents, fmt.Sprintf("line %d: User-agent: %s", a.Line, a.Value))
		}
		fmt.Fprintf(b, "  group %d: %s\n", gi+1, strings.Join(agents, "; "))
	}

	rules := m.Rules()
	switch {
	case sem == compile.Koster1996:
		b.WriteString("rules in priority order (the first in file order that matches decides):\n")
	default:
		b.WriteString("rules in priority order (the longest matching pattern decides; allow wins a tie):\n")
	}
	for _, rl := range rules {
		fmt.Fprintf(b, "  line %d: %s %s", rl.Line, rl.Kind, rl.Pattern)
		if rl.IndexHTM {
			b.WriteString(" (index.htm: the directory itself)")
		}
		b.WriteByte('\n')
	}
	if len(rules) == 0 {
		b.WriteString("  (none: every URL is allowed)\n")
	}
}

// quoteTokens returns the tokens for the agents line: as they are, or
// quoted when empty or not printable as a plain word.
func quoteTokens(toks []string) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		if t == "" || strings.ContainsAny(t, " \t\r\n\"") || quoteText(t) != t {
			t = quoteArg(t)
		}
		out[i] = t
	}
	if len(out) == 0 {
		out = append(out, `(none: the "*" group)`)
	}
	return out
}

// writeUsages writes the content-usage lines of the groups selected for
// m, merged, in file order, each with the pattern its path compiles to (as
// an allow or disallow pattern) and its statement. A file that has no
// content-usage line at all gets no section, so that a dump of it is what
// it was before they were read.
func writeUsages(b *strings.Builder, r *engine.Robots, m *engine.Matcher) {
	if !hasUsages(r.File()) {
		return
	}
	b.WriteString("content-usage lines of these groups, in file order (they decide no crawl; the longest pattern that matches a URL gives each category's preference, n over y over unknown on a tie):\n")
	rules := m.UsageRules()
	for _, u := range rules {
		if u.Pattern == "" {
			fmt.Fprintf(b, "  line %d: content-usage %s (no path: matches every path, as a pattern of length 0)\n", u.Line, u.Statement)
		} else {
			fmt.Fprintf(b, "  line %d: content-usage %s %s\n", u.Line, u.Pattern, u.Statement)
		}
	}
	if len(rules) == 0 {
		b.WriteString("  (none: every preference is unknown)\n")
	}
}

// hasUsages reports whether any group of f has a content-usage line.
func hasUsages(f *compile.File) bool {
	return f.Usages().Len() > 0
}

// writeExtensions writes the extension lines of the groups selected for m,
// as written (a value crawlers cannot read is marked), and the file's
// sitemaps, which apply to every crawler.
func writeExtensions(b *strings.Builder, r *engine.Robots, m *engine.Matcher) {
	invalid := map[int]bool{}
	for _, x := range m.Extensions().Invalid {
		invalid[x.Line] = true
	}
	b.WriteString("extensions of these groups (they never decide):\n")
	for _, x := range m.Selection().Extensions.Slice() {
		fmt.Fprintf(b, "  line %d: %s: %s", x.Line, x.Key, x.Value)
		if invalid[x.Line] {
			b.WriteString(" (cannot be read: crawlers ignore it)")
		}
		b.WriteByte('\n')
	}
	if m.Selection().Extensions.Len() == 0 {
		b.WriteString("  (none)\n")
	}
	b.WriteString("sitemaps (for every crawler):\n")
	sitemaps := r.Sitemaps()
	for _, sm := range sitemaps {
		fmt.Fprintf(b, "  line %d: %s\n", sm.Line, sm.URL)
	}
	if len(sitemaps) == 0 {
		b.WriteString("  (none)\n")
	}
}

// automatonHead starts the automaton part of Matcher.Dump.
const automatonHead = "automaton (the states built so far"

// automatonDump returns the automaton part of Matcher.Dump: what follows
// the rules (which writeSelection has printed), under a heading that says
// why only the start state is there. When the dump's layout is not the one
// expected, it returns the whole dump.
func automatonDump(s string) string {
	const head = "automaton (dump decides no URL, so only the start state is built: states are built as URLs first reach them):\n"
	i := strings.Index(s, automatonHead)
	if i < 0 {
		return head + s
	}
	s = s[i:]
	if j := strings.IndexByte(s, '\n'); j >= 0 {
		return head + s[j+1:]
	}
	return head
}
