package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

const fetchUsage = `Usage: robotstxt fetch URL [--agent TOKEN ...] [--explain] [--semantics S] [--user-agent STRING] [--timeout DURATION] [PATH_OR_URL ...]

Fetches the robots.txt that governs URL, as a crawler does (redirects, status
codes, size limit), and prints what was found, one "key<TAB>value" line each:

  robots.txt   the robots.txt URL
  final-url    the URL the answer came from, when redirected
  redirects    how many redirects were followed, when redirected
  status       the HTTP status (0: no response)
  source       fetched, stale, unreachable-default (everything disallowed),
               unavailable-default (everything allowed) or forbidden-default
  fetched      when the rules were fetched
  expires      when a crawler would fetch them again
  size         the bytes read ("truncated" past the 500 KiB limit)
  error        why the fetch failed, if it did

Then, when PATH_OR_URL arguments or --agent are given, it decides each of
them (or URL itself when there are none) for the crawler, one line each in
the format of 'robotstxt check': "allowed<TAB>URL" or "disallowed<TAB>URL",
with --explain a third field "line N: allow PATTERN", "line N: disallow
PATTERN" or "-". Paths are decided as they are; URLs must be on the site of
URL. Without --agent, the decisions are those for "*" (any crawler).

Flags:
  --agent TOKEN          a product token of the crawler (repeatable)
  --explain              add the deciding rule as a third field
  --semantics S          rfc9309 (default), google or koster1996
  --user-agent STRING    the User-Agent header (default: the first --agent, else robotstxt-go)
  --timeout DURATION     how long the fetch may take (default 30s)
`

func init() { commandUsage["fetch"] = fetchUsage }

// runFetch is 'robotstxt fetch'.
func runFetch(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("fetch")
	var agents agentsFlag
	fs.Var(&agents, "agent", "")
	var sem semanticsFlag
	fs.Var(&sem, "semantics", "")
	explain := fs.Bool("explain", false, "")
	userAgent := fs.String("user-agent", "", "")
	timeout := fs.Duration("timeout", fetch.DefaultTimeout, "")
	pos, status, done := parseFlags(fs, args, fetchUsage, stdout, stderr)
	if done {
		return status
	}
	if len(pos) == 0 {
		return fail(stderr, "fetch: a site URL is required (see 'robotstxt help fetch')")
	}
	if *timeout <= 0 {
		return fail(stderr, "fetch: --timeout must be positive, not %v", *timeout)
	}
	site, targets := pos[0], pos[1:]
	robotsURL, err := fetch.RobotsURL(site)
	if err != nil {
		return fail(stderr, "fetch: %v", err)
	}
	if len(targets) == 0 && len(agents) > 0 {
		targets = []string{site}
	}
	for _, u := range targets {
		if !isURL(u) {
			return fail(stderr, "fetch: not a URL or path: %s", quoteText(u))
		}
		if u[0] == '/' {
			continue
		}
		r, err := fetch.RobotsURL(u)
		if err != nil {
			return fail(stderr, "fetch: %v", err)
		}
		if r != robotsURL {
			return fail(stderr, "fetch: %s is governed by %s, not by %s: give paths or URLs of one site", quoteText(u), r, robotsURL)
		}
	}
	ua := *userAgent
	if ua == "" && len(agents) > 0 {
		ua = agents[0]
	}

	client := fetch.New(fetch.Options{
		Engine:    engine.Options{Semantics: sem.s},
		UserAgent: ua,
		Timeout:   *timeout,
	})
	res, err := client.Lookup(context.Background(), site)
	if err != nil {
		return fail(stderr, "fetch: %v", err)
	}

	w := bufio.NewWriter(stdout)
	writeResult(w, &res)
	if len(targets) > 0 {
		tokens := []string(agents)
		if len(tokens) == 0 {
			tokens = []string{"*"}
		}
		m := res.Robots.Matcher(tokens...)
		for _, u := range targets {
			d := m.Decide(u)
			b := w.AvailableBuffer()
			if d.Allowed {
				b = append(b, "allowed\t"...)
			} else {
				b = append(b, "disallowed\t"...)
			}
			b = append(b, u...)
			if *explain {
				b = appendExplanation(append(b, '\t'), d)
			}
			w.Write(append(b, '\n'))
		}
	}
	if err := w.Flush(); err != nil {
		return writeFailed(err, exitOK, stderr)
	}
	return exitOK
}

// writeResult prints where the rules came from, one "key<TAB>value" line
// each.
func writeResult(w *bufio.Writer, res *fetch.Result) {
	line := func(key, value string) {
		w.WriteString(key)
		w.WriteByte('\t')
		w.WriteString(value)
		w.WriteByte('\n')
	}
	line("robots.txt", res.RobotsURL)
	if res.Redirects > 0 {
		line("final-url", res.FinalURL)
		line("redirects", strconv.Itoa(res.Redirects))
	}
	line("status", strconv.Itoa(res.Status))
	line("source", res.Source.String())
	line("fetched", res.Fetched.UTC().Format(time.RFC3339))
	line("expires", res.Expires.UTC().Format(time.RFC3339))
	size := strconv.Itoa(res.Size)
	if res.Truncated {
		size += " (truncated)"
	}
	line("size", size)
	if res.Err != nil {
		line("error", fmt.Sprint(res.Err))
	}
}
