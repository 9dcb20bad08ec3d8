package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

const fetchUsage = `Usage: robotstxt fetch [--agent TOKEN ...] [--user-agent HEADER] [--agent-chain] [--semantics S] [--explain] [--usage] [--extensions] [--timeout DURATION] SITE_URL [PATH_OR_URL ...]

Fetches the robots.txt that governs SITE_URL (an absolute http or https URL,
such as https://example.com/ or http://127.0.0.1:8080/page), as a crawler
does (redirects, status codes, size limit), and prints what was found, one
"key<TAB>value" line each:

  robots.txt   the robots.txt URL
  final-url    the URL the answer came from, when redirected
  redirects    how many redirects were followed, when redirected
  status       the HTTP status (0: no response)
  source       fetched, unreachable-default (everything disallowed),
               unavailable-default (everything allowed) or forbidden-default
  fetched      when the rules were fetched
  expires      when a crawler would fetch them again
  size         the bytes read ("truncated" past the 500 KiB limit)
  error        why the fetch failed, if it did

With --extensions, then the file's sitemaps and the extension lines of the
crawler's groups (crawl-delay, request-rate, host, ...), as written:

  sitemap      a sitemap URL, one line each
  extension    KEY: VALUE, one line each

Then, when PATH_OR_URL arguments, --agent or --user-agent are given, it
decides each PATH_OR_URL (or SITE_URL itself when there is none) for the
crawler, one line each in the format of 'robotstxt check': "allowed<TAB>URL"
or "disallowed<TAB>URL", with --explain a third field "line N: allow
PATTERN", "line N: disallow PATTERN" or "-", with --usage a last field, the
AI usage preferences of the URL from the robots.txt's Content-Usage lines
("train-ai=X search=Y", or "-" for a disallowed URL), as check prints them. Paths are decided as they are
("" is "/"); URLs must be on the site of SITE_URL. Anything else (such as
"page/x") is decided as check decides it, as the semantics reads it, with a
warning on standard error and exit status 1. The crawler's tokens are every
--agent, then the product tokens of --user-agent (as for check), else "*"
(any crawler). When the robots.txt is unreachable, the decisions are those
the standard prescribes (everything disallowed) and the exit status is 3.

Flags:
  --agent TOKEN          a product token of the crawler (repeatable)
  --user-agent HEADER    the crawler's User-Agent header: sent with the
                         request, and its product tokens are added to those
                         of --agent (default header: the first --agent, else
                         robotstxt-go)
  --agent-chain          obey only the groups of the first token that a group
                         names (Google's documented precedence)
  --explain              add the deciding rule as a third field
  --usage                add the usage preferences (Content-Usage lines) as
                         the last field
  --extensions           print the sitemaps and the crawler's extension lines
  --semantics S          rfc9309 (default), google or koster1996
  --timeout DURATION     how long the fetch may take, such as 10s or 1m
                         (default 30s)

Exit status: 0 an answer came (a robots.txt, or a 4xx: no robots.txt); 1 some
PATH_OR_URL was not a URL or path (still decided), or the output could not
be written; 2 bad usage; 3 the robots.txt was unreachable (network error,
timeout, 429 or 5xx): everything is disallowed.
`

func init() { commandUsage["fetch"] = fetchUsage }

// Fetcher is the HTTP access method behind the fetch command: package
// netfetch provides it (with engine/fetch and net/http), and cmd/robotstxt
// sets it, so that this package's tests run fetch against their own.
type Fetcher interface {
	// RobotsURL returns the address of the robots.txt that governs url,
	// as fetch.RobotsURL does.
	RobotsURL(url string) (string, error)
	// Lookup gets the robots.txt of site as a crawler does.
	Lookup(ctx context.Context, site string, o FetchOptions) (FetchResult, error)
}

// FetchOptions are what the fetch command asks of a Fetcher.
type FetchOptions struct {
	Engine    engine.Options
	UserAgent string
	Timeout   time.Duration
}

// FetchResult is what the fetch command prints of a lookup (a
// fetch.Result), with the start of the body read.
type FetchResult struct {
	RobotsURL string
	FinalURL  string // "" without redirects
	Redirects int
	Status    int
	Source    string // the name of the fetch.Source
	// Fetched: the rules are those of the body just fetched (fetch.Fetched).
	// Unreachable: the robots.txt could not be fetched (fetch.UnreachableDefault
	// or fetch.Stale), which is exit status 3.
	Fetched, Unreachable bool
	FetchedAt, Expires   time.Time
	Size                 int
	Truncated            bool
	Err                  error
	Robots               *engine.Robots
}

// fetcher is the Fetcher of this program (SetFetcher), or nil.
var fetcher Fetcher

// SetFetcher makes f the fetch command's HTTP access method; cmd/robotstxt
// sets it before Main.
func SetFetcher(f Fetcher) { fetcher = f }

// DefaultFetchTimeout is fetch's --timeout default: fetch.DefaultTimeout
// (package netfetch's tests check that the two agree).
const DefaultFetchTimeout = 30 * time.Second

// runFetch is 'robotstxt fetch'.
func runFetch(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("fetch")
	var agents agentsFlag
	fs.Var(&agents, "agent", "")
	var sem semanticsFlag
	fs.Var(&sem, "semantics", "")
	explain := fs.Bool("explain", false, "")
	usage := fs.Bool("usage", false, "")
	extensions := fs.Bool("extensions", false, "")
	chain := fs.Bool("agent-chain", false, "")
	var userAgent *string
	fs.Var(userAgentFlag{&userAgent}, "user-agent", "")
	timeout := fs.Duration("timeout", DefaultFetchTimeout, "")
	pos, status, done := parseFlags(fs, args, fetchUsage, stdout, stderr)
	if done {
		return status
	}
	if fetcher == nil { // help and flag errors need none
		return fail(stderr, "fetch: this program has no HTTP access method (cli.SetFetcher)")
	}
	if len(pos) == 0 {
		return fail(stderr, "fetch: a site URL is required, such as https://example.com/ (see 'robotstxt help fetch')")
	}
	if *timeout <= 0 {
		return fail(stderr, "fetch: --timeout must be positive, not %v: want %s", *timeout, flagWants["timeout"])
	}
	site, targets := pos[0], pos[1:]
	if msg := siteProblem(site); msg != "" {
		return fail(stderr, "fetch: %s", msg)
	}
	robotsURL, err := fetcher.RobotsURL(site)
	if err != nil {
		return fail(stderr, "fetch: %v", err)
	}
	if len(targets) == 0 && (len(agents) > 0 || userAgent != nil) {
		targets = []string{site}
	}
	for _, u := range targets {
		if u == "" || u[0] == '/' || !engine.IsURL(u) {
			continue // a path, or no URL: decided as check decides it
		}
		r, err := fetcher.RobotsURL(u)
		if err != nil {
			return fail(stderr, "fetch: %v", err)
		}
		if r != robotsURL {
			return fail(stderr, "fetch: %s is governed by %s, not by %s: give paths or URLs of one site", quoteText(u), r, robotsURL)
		}
	}
	crawler := crawlerFlags{agents: agents, userAgent: userAgent, chain: *chain}
	crawler.warnings(sem.s, stderr)
	ua := ""
	if userAgent != nil {
		ua = *userAgent
	} else if len(agents) > 0 {
		ua = agents[0]
	}

	res, err := fetcher.Lookup(context.Background(), site, FetchOptions{
		Engine:    engine.Options{Semantics: sem.s},
		UserAgent: ua,
		Timeout:   *timeout,
	})
	if err != nil {
		return fail(stderr, "fetch: %v", err)
	}
	if res.Fetched {
		name := res.FinalURL
		if name == "" {
			name = res.RobotsURL
		}
		printWarnings(stderr, name, res.Robots.Warnings())
	}

	var m *engine.Matcher
	if len(crawler.tokens()) == 0 {
		m = res.Robots.Matcher("*")
	} else {
		m = crawler.matcher(res.Robots)
	}
	w := bufio.NewWriter(stdout)
	writeResult(w, &res)
	if *extensions {
		writeExtensionLines(w, res.Robots, m)
	}
	c := &checker{m: m, sem: sem.s, explain: *explain, usage: *usage, w: w, stderr: stderr}
	if err := c.args(targets); err != nil {
		return writeFailed(err, exitOK, stderr)
	}
	status = c.status
	if res.Unreachable {
		status = exitUnreachable
	}
	if err := w.Flush(); err != nil {
		return writeFailed(err, status, stderr)
	}
	return status
}

// siteProblem returns what is wrong with a SITE_URL that has no scheme
// ("example.com", "127.0.0.1:8765", "localhost:8080/page"), which url.Parse
// would report in its own words ("first path segment in URL cannot contain
// colon") or read as a scheme ("localhost"), or "". Other URLs are left to
// fetch.RobotsURL.
func siteProblem(site string) string {
	if strings.Contains(site, "://") {
		return ""
	}
	host := site
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !isPort(host[i+1:]) {
		return "" // scheme:... ("mailto:x", "ftp:/x")
	}
	if host == "" || strings.ContainsAny(host, " \t\r\n") {
		return fmt.Sprintf("%s is not a site URL: no scheme (want an absolute URL such as https://example.com/)", quoteArg(site))
	}
	return fmt.Sprintf("%s has no scheme: want an absolute URL such as https://%s or http://%s", quoteArg(site), site, site)
}

// isPort reports whether s is a port number: one or more digits.
func isPort(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// writeResult prints where the rules came from, one "key<TAB>value" line
// each.
func writeResult(w *bufio.Writer, res *FetchResult) {
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
	line("source", res.Source)
	line("fetched", res.FetchedAt.UTC().Format(time.RFC3339))
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

// writeExtensionLines prints the file's sitemaps and the extension lines of
// m's groups, as written, one "key<TAB>value" line each (fetch
// --extensions).
func writeExtensionLines(w *bufio.Writer, r *engine.Robots, m *engine.Matcher) {
	for _, sm := range r.Sitemaps() {
		w.WriteString("sitemap\t" + sm.URL + "\n")
	}
	for _, x := range m.Selection().Extensions.Slice() {
		w.WriteString("extension\t" + x.Key + ": " + x.Value + "\n")
	}
}
