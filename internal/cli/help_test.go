package cli

import (
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// commandFlags returns the flags that cmd defines, by running "cmd -h"
// with the flagSetMade hook.
func commandFlags(t *testing.T, cmd string) []string {
	t.Helper()
	var fs *flag.FlagSet
	flagSetMade = func(f *flag.FlagSet) { fs = f }
	defer func() { flagSetMade = nil }()
	if status, _, _ := cli(t, "", cmd, "-h"); status != exitOK {
		t.Fatalf("%s -h: status %d", cmd, status)
	}
	if fs == nil {
		t.Fatalf("%s made no FlagSet", cmd)
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	sort.Strings(names)
	return names
}

var helpFlag = regexp.MustCompile(`--([a-z][a-z-]*)`)

// helpFlags returns the flags that a help text names in its usage line and
// in its Flags section (the lines that start with "  --").
func helpFlags(help string) (usage, listed []string) {
	first, rest, _ := strings.Cut(help, "\n")
	for _, m := range helpFlag.FindAllStringSubmatch(first, -1) {
		usage = append(usage, m[1])
	}
	_, flags, _ := strings.Cut(rest, "\nFlags:\n")
	for _, l := range strings.Split(flags, "\n") {
		if strings.HasPrefix(l, "  --") {
			listed = append(listed, helpFlag.FindStringSubmatch(l)[1])
		}
	}
	sort.Strings(usage)
	sort.Strings(listed)
	return usage, listed
}

// TestHelp_FlagsAreTheCommands: each command's help names, in its usage
// line and in its Flags section, exactly the flags the command defines
// (issue 31: help texts that contradict their command).
func TestHelp_FlagsAreTheCommands(t *testing.T) {
	for _, cmd := range []string{"check", "explain", "dump", "lint", "fetch", "page", "version"} {
		defined := commandFlags(t, cmd)
		usage, listed := helpFlags(commandUsage[cmd])
		if strings.Join(usage, " ") != strings.Join(defined, " ") {
			t.Errorf("%s: the usage line names %q, the command defines %q", cmd, usage, defined)
		}
		if strings.Join(listed, " ") != strings.Join(defined, " ") {
			t.Errorf("%s: the Flags section lists %q, the command defines %q", cmd, listed, defined)
		}
		// A flag no help names is refused, with status 2.
		if status, _, errs := cli(t, "", cmd, "--no-such-flag"); status != exitUsage || !strings.Contains(errs, "unknown flag --no-such-flag (") {
			t.Errorf("%s --no-such-flag: status %d, stderr %q", cmd, status, errs)
		}
	}
}

// helpClaim is a sentence of a command's help and a check that the command
// does what it says.
type helpClaim struct {
	cmd   string // whose help
	claim string // words of the help, as printed (line breaks as spaces)
	check func(t *testing.T) string
}

// TestHelp_ClaimsHold holds each help's claims to the command's behaviour:
// the claim must be in the help (so that changing the help means looking at
// this test), and its check must pass. A failing check returns what it saw.
func TestHelp_ClaimsHold(t *testing.T) {
	site := fetchClaimsSite(t)
	for _, c := range helpClaims(t, site) {
		help := strings.Join(strings.Fields(commandUsage[c.cmd]), " ")
		if c.cmd == "" {
			help = strings.Join(strings.Fields(usage), " ")
		}
		if !strings.Contains(help, c.claim) {
			t.Errorf("help %s does not say %q", c.cmd, c.claim)
			continue
		}
		if got := c.check(t); got != "" {
			t.Errorf("help %s says %q, but: %s", c.cmd, c.claim, got)
		}
	}
}

// fetchClaimsSite serves a robots.txt with groups for A and B, a crawl-delay
// for A and a sitemap, and records the User-Agent of each request.
func fetchClaimsSite(t *testing.T) *claimsSite {
	s := &claimsSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.ua = r.UserAgent()
		s.mu.Unlock()
		io.WriteString(w, "User-agent: A\nCrawl-delay: 3\nDisallow: /a\n\nUser-agent: B\nDisallow: /b\n\nUser-agent: *\nDisallow: /\n\nSitemap: https://example.com/s.xml\n")
	}))
	t.Cleanup(s.Close)
	return s
}

type claimsSite struct {
	*httptest.Server
	mu sync.Mutex
	ua string
}

func (s *claimsSite) lastUA() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ua
}

// expect runs the command and returns "" when status and the output
// checks hold, else what it saw.
func expect(t *testing.T, stdin string, args []string, status int, outHas ...string) string {
	t.Helper()
	st, out, errs := cli(t, stdin, args...)
	if st != status {
		return "robotstxt " + strings.Join(args, " ") + ": status " + strconv.Itoa(st) + ", stderr " + errs
	}
	for _, h := range outHas {
		if !strings.Contains(out, h) {
			return "robotstxt " + strings.Join(args, " ") + ": output " + out + " lacks " + h
		}
	}
	return ""
}

func helpClaims(t *testing.T, site *claimsSite) []helpClaim {
	robots := writeFile(t, "robots.txt", "User-agent: A\nCrawl-delay: 3\nDisallow: /a\n\nUser-agent: B\nDisallow: /b\n\nUser-agent: *\nDisallow: /\n\nSitemap: https://example.com/s.xml\n")
	long := strings.Repeat("/x", maxURLLine)
	usage := writeFile(t, "usage.txt", "User-agent: A\nContent-Usage: train-ai=n\nContent-Usage: /p/ search=y\nDisallow: /a\n")
	return []helpClaim{
		// robotstxt help
		{"", `2 bad usage, or a robots.txt or URL file that cannot be read`, func(t *testing.T) string {
			return expect(t, "", []string{"check", "--robots", robots + ".missing", "--agent", "A", "/"}, exitUsage)
		}},
		{"", `1 check, explain, fetch: some URL was not a URL or path, or too long`, func(t *testing.T) string {
			return expect(t, "", []string{"explain", "--robots", robots, "--agent", "A", "a/b"}, exitProblem)
		}},
		// check
		{"check", `Without URL arguments the URLs are read from --urls FILE, or standard input, one a line`, func(t *testing.T) string {
			return expect(t, "/a\n/c\n", []string{"check", "--robots", robots, "--agent", "A"}, exitOK, "disallowed\t/a\nallowed\t/c\n")
		}},
		{"check", `An empty line or argument is the empty URL, which is the path "/"`, func(t *testing.T) string {
			return expect(t, "", []string{"check", "--robots", robots, "--agent", "X", ""}, exitOK, "disallowed\t\n")
		}},
		{"check", `with a warning on standard error and exit status 1`, func(t *testing.T) string {
			return expect(t, "", []string{"check", "--robots", robots, "--agent", "A", "x/a"}, exitProblem, "disallowed\tx/a\n")
		}},
		{"check", `A line longer than 1 MiB is not decided: it gives "error<TAB>START..."`, func(t *testing.T) string {
			return expect(t, long+"\n", []string{"check", "--robots", robots, "--agent", "A"}, exitProblem, "error\t/x/x")
		}},
		{"check", `--agent TOKEN a product token of the crawler (repeatable); "" asks for the "*" group`, func(t *testing.T) string {
			return expect(t, "", []string{"check", "--robots", robots, "--agent", "A", "--agent", "B", "/a", "/b", "/c"}, exitOK, "disallowed\t/a\ndisallowed\t/b\nallowed\t/c\n")
		}},
		{"check", `are added to those of --agent`, func(t *testing.T) string {
			return expect(t, "", []string{"check", "--robots", robots, "--agent", "A", "--user-agent", "Mozilla/5.0 (compatible; B/1.0)", "/a", "/b"}, exitOK, "disallowed\t/a\ndisallowed\t/b\n")
		}},
		{"check", `--agent-chain obey only the groups of the first token that a group names`, func(t *testing.T) string {
			return expect(t, "", []string{"check", "--robots", robots, "--agent", "C", "--agent", "A", "--agent", "B", "--agent-chain", "/a", "/b"}, exitOK, "disallowed\t/a\nallowed\t/b\n")
		}},
		{"check", `--explain add the deciding rule as a third field`, func(t *testing.T) string {
			return expect(t, "", []string{"check", "--robots", robots, "--agent", "A", "--explain", "/a"}, exitOK, "disallowed\t/a\tline 3: disallow /a\n")
		}},
		{"check", `With --usage one more field, the last, gives the site's AI usage preferences for the URL from its Content-Usage lines: "train-ai=X search=Y", X and Y each y, n or unknown, or "-" for a disallowed URL`, func(t *testing.T) string {
			return expect(t, "", []string{"check", "--robots", usage, "--agent", "A", "--usage", "/p/x", "/a"}, exitOK, "allowed\t/p/x\ttrain-ai=unknown search=y\ndisallowed\t/a\t-\n")
		}},
		{"check", `--usage add the usage preferences (Content-Usage lines) as the last field`, func(t *testing.T) string {
			return expect(t, "", []string{"check", "--robots", usage, "--agent", "A", "--explain", "--usage", "/a", "/x"}, exitOK, "disallowed\t/a\tline 4: disallow /a\t-\nallowed\t/x\t-\ttrain-ai=n search=unknown\n")
		}},
		{"check", `(then "too long" with --explain, "-" with --usage)`, func(t *testing.T) string {
			return expect(t, long+"\n", []string{"check", "--robots", usage, "--agent", "A", "--explain", "--usage"}, exitProblem, "...\ttoo long\t-\n")
		}},
		{"check", `--urls FILE read URLs from FILE instead of standard input`, func(t *testing.T) string {
			return expect(t, "", []string{"check", "--robots", robots, "--agent", "A", "--urls", writeFile(t, "urls", "/a\n")}, exitOK, "disallowed\t/a\n")
		}},
		// explain
		{"explain", `One block of lines per URL, separated by a blank line`, func(t *testing.T) string {
			return expect(t, "", []string{"explain", "--robots", robots, "--agent", "A", "/a", "/b"}, exitOK, "\n\nurl:       /b\n")
		}},
		{"explain", `When the crawler's groups have Content-Usage lines, a last line "usage:" gives the URL's AI usage preferences (train-ai and search) and the Content-Usage line that decided each, or "-" when the URL may not be fetched`, func(t *testing.T) string {
			return expect(t, "", []string{"explain", "--robots", usage, "--agent", "A", "/p/x", "/a"}, exitOK,
				"usage:     train-ai=unknown by line 3: content-usage /p/ search=y; search=y by line 3: content-usage /p/ search=y\n\n",
				"usage:     - (the URL may not be fetched")
		}},
		{"explain", `an empty argument is the path "/"`, func(t *testing.T) string {
			return expect(t, "", []string{"explain", "--robots", robots, "--agent", "A", ""}, exitOK, "path:      / (rfc9309)\n")
		}},
		// dump
		{"dump", `Then the extension lines of those groups`, func(t *testing.T) string {
			return expect(t, "", []string{"dump", "--robots", robots, "--agent", "A"}, exitOK, "  line 2: crawl-delay: 3\n", "  line 11: https://example.com/s.xml\n")
		}},
		{"dump", `When the file has Content-Usage lines (AI usage preferences), the lines of those groups follow, in file order, each with its path's pattern (none when it has no path) and its statement: line N: content-usage PATTERN STATEMENT`, func(t *testing.T) string {
			return expect(t, "", []string{"dump", "--robots", usage, "--agent", "A"}, exitOK, "  line 2: content-usage train-ai=n (no path", "  line 3: content-usage /p/ search=y\n")
		}},
		{"dump", `a last line states: N classes: N bytes: N rules: N`, func(t *testing.T) string {
			if got := expect(t, "", []string{"dump", "--robots", robots, "--agent", "A", "--automaton"}, exitOK); got != "" {
				return got
			}
			if _, out, _ := cli(t, "", "dump", "--robots", robots, "--agent", "A", "--automaton"); !statsLine.MatchString(out) {
				return "no stats line at the end of " + out
			}
			return ""
		}},
		{"dump", `dump decides no URL: it shows the start state alone`, func(t *testing.T) string {
			return expect(t, "", []string{"dump", "--robots", robots, "--agent", "A", "--automaton"}, exitOK, "automaton: 1 states built", "states: 1 ")
		}},
		// lint
		{"lint", `With --format json the findings of all files are printed as one JSON array of {"file", "line", "kind", "message"} objects`, func(t *testing.T) string {
			_, out, _ := cli(t, "Disallow: /x\n", "lint", "--format", "json", "-")
			var got []map[string]any
			if err := json.Unmarshal([]byte(out), &got); err != nil || len(got) != 1 || got[0]["file"] != "-" || got[0]["kind"] != "no-user-agent" {
				return "output " + out
			}
			return ""
		}},
		{"lint", `reported once, in place of the per-line diagnostics it explains`, func(t *testing.T) string {
			_, out, _ := cli(t, "Disallow: /x\nDisallow: /y\n", "lint", "-")
			if strings.Count(out, "\n") != 1 {
				return "output " + out
			}
			return ""
		}},
		{"lint", `2 bad usage, or some FILE could not be read (the others were still linted)`, func(t *testing.T) string {
			return expect(t, "", []string{"lint", robots + ".missing", writeFile(t, "r", "Disallow: /x\n")}, exitUsage, "no-user-agent")
		}},
		// fetch
		{"fetch", `The crawler's tokens are every --agent, then the product tokens of --user-agent (as for check)`, func(t *testing.T) string {
			return expect(t, "", []string{"fetch", site.URL, "--agent", "A", "--user-agent", "Mozilla/5.0 (compatible; B/1.0)", "/a", "/b", "/c"}, exitOK, "disallowed\t/a\ndisallowed\t/b\nallowed\t/c\n")
		}},
		{"fetch", `--user-agent HEADER the crawler's User-Agent header: sent with the request`, func(t *testing.T) string {
			if got := expect(t, "", []string{"fetch", site.URL, "--user-agent", "Mozilla/5.0 (compatible; B/1.0)"}, exitOK); got != "" {
				return got
			}
			if ua := site.lastUA(); ua != "Mozilla/5.0 (compatible; B/1.0)" {
				return "the server saw " + ua
			}
			return ""
		}},
		{"fetch", `(default header: the first --agent, else robotstxt-go)`, func(t *testing.T) string {
			expect(t, "", []string{"fetch", site.URL, "--agent", "A", "--agent", "B"}, exitOK)
			first := site.lastUA()
			expect(t, "", []string{"fetch", site.URL}, exitOK)
			if first != "A" || site.lastUA() != "robotstxt-go" {
				return "the server saw " + first + " and " + site.lastUA()
			}
			return ""
		}},
		{"fetch", `With --extensions, then the file's sitemaps and the extension lines of the crawler's groups`, func(t *testing.T) string {
			return expect(t, "", []string{"fetch", site.URL, "--agent", "A", "--extensions"}, exitOK, "sitemap\thttps://example.com/s.xml\nextension\tcrawl-delay: 3\n")
		}},
		{"fetch", `Paths are decided as they are ("" is "/")`, func(t *testing.T) string {
			return expect(t, "", []string{"fetch", site.URL, "--agent", "X", ""}, exitOK, "disallowed\t\n")
		}},
		{"fetch", `with a warning on standard error and exit status 1`, func(t *testing.T) string {
			return expect(t, "", []string{"fetch", site.URL, "--agent", "A", "x/a"}, exitProblem, "disallowed\tx/a\n")
		}},
		// help, version
		{"help", `Prints the usage of robotstxt, or of COMMAND.`, func(t *testing.T) string {
			return expect(t, "", []string{"help", "dump"}, exitOK, dumpUsage)
		}},
		{"version", `It takes no other argument.`, func(t *testing.T) string {
			return expect(t, "", []string{"version", "now"}, exitUsage)
		}},
		{"version", `--json print the same as one JSON object: {"version", "revision", "time", "modified"}`, func(t *testing.T) string {
			_, text, _ := cli(t, "", "version")
			_, out, _ := cli(t, "", "version", "--json")
			var b buildInfo
			if err := json.Unmarshal([]byte(out), &b); err != nil || "robotstxt "+b.String()+"\n" != text {
				return "version --json printed " + out + " and version " + text
			}
			return ""
		}},
	}
}

// The claim about an --agent that is no token, in check's help.
func TestHelp_AgentNotATokenClaim(t *testing.T) {
	help := strings.Join(strings.Fields(checkUsage), " ")
	if !strings.Contains(help, "a value that is no token is read as the semantics reads it, with a warning (rfc9309 and koster1996: as a header; google: as given)") {
		t.Fatal("check's help does not say how an --agent that is no token is read")
	}
	robots := writeFile(t, "robots.txt", "User-agent: A\nDisallow: /a\n")
	for sem, want := range map[string]string{"rfc9309": "disallowed\t/a\n", "koster1996": "disallowed\t/a\n", "google": "allowed\t/a\n"} {
		status, out, errs := cli(t, "", "check", "--robots", robots, "--semantics", sem, "--agent", "A/1.0", "/a")
		if status != exitOK || out != want || !strings.Contains(errs, "warning: --agent \"A/1.0\" is not a product token") {
			t.Errorf("%s: status %d, output %q, stderr %q; want %q and a warning", sem, status, out, errs, want)
		}
	}
}
