package cli

import (
	"strings"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
)

// usageRobots has content-usage lines with and without a path, and a rule
// that disallows.
const usageRobots = `User-agent: A
Content-Usage: train-ai=n
Content-Usage: /pub/ train-ai=y, search=y
Disallow: /private
`

// TestCheck_UsageField: --usage adds the URL's usage preferences as the
// last field, "-" for a disallowed URL; after the explanation with
// --explain; nothing without --usage.
func TestCheck_UsageField(t *testing.T) {
	robots := writeFile(t, "robots.txt", usageRobots)
	urls := []string{"/x", "https://example.com/pub/a", "/private/p"}

	status, out, errs := cli(t, "", append([]string{"check", "--robots", robots, "--agent", "A", "--usage"}, urls...)...)
	want := "allowed\t/x\ttrain-ai=n search=unknown\n" +
		"allowed\thttps://example.com/pub/a\ttrain-ai=y search=y\n" +
		"disallowed\t/private/p\t-\n"
	if status != exitOK || errs != "" || out != want {
		t.Errorf("--usage: status %d, stderr %q, output:\n%s\nwant:\n%s", status, errs, out, want)
	}

	// The same from standard input, streamed.
	status, out, errs = cli(t, strings.Join(urls, "\n")+"\n", "check", "--robots", robots, "--agent", "A", "--usage")
	if status != exitOK || errs != "" || out != want {
		t.Errorf("--usage, standard input: status %d, stderr %q, output:\n%s\nwant:\n%s", status, errs, out, want)
	}

	status, out, errs = cli(t, "", append([]string{"check", "--robots", robots, "--agent", "A", "--usage", "--explain"}, urls...)...)
	want = "allowed\t/x\t-\ttrain-ai=n search=unknown\n" +
		"allowed\thttps://example.com/pub/a\t-\ttrain-ai=y search=y\n" +
		"disallowed\t/private/p\tline 4: disallow /private\t-\n"
	if status != exitOK || errs != "" || out != want {
		t.Errorf("--usage --explain: status %d, stderr %q, output:\n%s\nwant:\n%s", status, errs, out, want)
	}

	// Without --usage, the output is what it was.
	status, out, errs = cli(t, "", append([]string{"check", "--robots", robots, "--agent", "A"}, urls...)...)
	want = "allowed\t/x\nallowed\thttps://example.com/pub/a\ndisallowed\t/private/p\n"
	if status != exitOK || errs != "" || out != want {
		t.Errorf("no --usage: status %d, stderr %q, output:\n%s\nwant:\n%s", status, errs, out, want)
	}
	status, out, _ = cli(t, "", append([]string{"check", "--robots", robots, "--agent", "A", "--explain"}, urls...)...)
	want = "allowed\t/x\t-\nallowed\thttps://example.com/pub/a\t-\ndisallowed\t/private/p\tline 4: disallow /private\n"
	if status != exitOK || out != want {
		t.Errorf("--explain without --usage: status %d, output:\n%s\nwant:\n%s", status, out, want)
	}

	// A file with no content-usage line: every category unknown.
	plain := writeFile(t, "plain.txt", "User-agent: *\nDisallow: /p\n")
	status, out, _ = cli(t, "", "check", "--robots", plain, "--agent", "A", "--usage", "/x", "/p")
	if want := "allowed\t/x\ttrain-ai=unknown search=unknown\ndisallowed\t/p\t-\n"; status != exitOK || out != want {
		t.Errorf("no content-usage line: status %d, output %q, want %q", status, out, want)
	}

	// A line that is no URL is decided, with a usage field, and reported.
	status, out, errs = cli(t, "", "check", "--robots", robots, "--agent", "A", "--usage", "x/pub/a")
	if status != exitProblem || out != "allowed\tx/pub/a\ttrain-ai=y search=y\n" || !strings.Contains(errs, "not a URL or path") {
		t.Errorf("not a URL: status %d, output %q, stderr %q", status, out, errs)
	}
}

// TestCheck_UsageFieldIsEngines: the field is engine.Usage.String, for
// statements of every kind (y, n, other values, parameters, no
// Dictionary) and patterns of every length.
func TestCheck_UsageFieldIsEngines(t *testing.T) {
	body := `User-agent: *
Content-Usage: search=y;q=1, train-ai=?1
Content-Usage: /a train-ai=y
Content-Usage: /a search=n
Content-Usage: /a/b not a dictionary ((
Content-Usage: /*.pdf$ train-ai=n, search=y
Content-Usage: /c train-ai=x, train-ai=y
Disallow: /d
`
	robots := writeFile(t, "robots.txt", body)
	urls := []string{"/", "/a", "/a/b", "/a/b/c.pdf", "/a.pdf", "/c", "/d", "/d.pdf", "/robots.txt"}
	for _, sem := range []compile.Semantics{compile.RFC9309, compile.Google, compile.Koster1996} {
		r := engine.Compile([]byte(body), engine.Options{Semantics: sem})
		m := r.Matcher("X")
		var want strings.Builder
		for _, u := range urls {
			d := "allowed"
			if !m.Allowed(u) {
				d = "disallowed"
			}
			want.WriteString(d + "\t" + u + "\t" + m.Usage(u).String() + "\n")
		}
		status, out, errs := cli(t, "", append([]string{"check", "--robots", robots, "--agent", "X", "--semantics", sem.String(), "--usage"}, urls...)...)
		if status != exitOK || errs != "" || out != want.String() {
			t.Errorf("%s: status %d, stderr %q, output:\n%s\nwant:\n%s", sem, status, errs, out, want.String())
		}
	}
}

// semanticsRobots has a content-usage line between two user-agent lines:
// in RFC9309 it ends A's group, so B's group is another; in Google and
// Koster1996 A and B share one group. The "*" group's line applies only
// to a crawler without a group of its own.
const semanticsRobots = `User-agent: A
Content-Usage: train-ai=n
User-agent: B
Disallow: /b
User-agent: *
Content-Usage: /*.pdf$ train-ai=y
`

func TestCheck_UsageSemantics(t *testing.T) {
	robots := writeFile(t, "robots.txt", semanticsRobots)
	const (
		n       = "train-ai=n search=unknown"
		y       = "train-ai=y search=unknown"
		unknown = "train-ai=unknown search=unknown"
	)
	// The fields after the URL for /x, /b and /a.pdf.
	for _, c := range []struct {
		sem, agent string
		want       [3]string
	}{
		{"rfc9309", "A", [3]string{n, n, n}},
		{"rfc9309", "B", [3]string{unknown, "-", unknown}},
		{"rfc9309", "C", [3]string{unknown, unknown, y}},
		{"google", "A", [3]string{n, "-", n}},
		{"google", "B", [3]string{n, "-", n}},
		{"google", "C", [3]string{unknown, unknown, y}},
		{"koster1996", "A", [3]string{n, "-", n}},
		{"koster1996", "B", [3]string{n, "-", n}},
		// Koster1996 patterns are literal: /*.pdf$ matches no such URL.
		{"koster1996", "C", [3]string{unknown, unknown, unknown}},
	} {
		status, out, errs := cli(t, "", "check", "--robots", robots, "--semantics", c.sem, "--agent", c.agent, "--usage", "/x", "/b", "/a.pdf")
		var want strings.Builder
		for i, u := range []string{"/x", "/b", "/a.pdf"} {
			d := "allowed"
			if c.want[i] == "-" {
				d = "disallowed"
			}
			want.WriteString(d + "\t" + u + "\t" + c.want[i] + "\n")
		}
		if status != exitOK || errs != "" || out != want.String() {
			t.Errorf("%s --agent %s: status %d, stderr %q, output:\n%s\nwant:\n%s", c.sem, c.agent, status, errs, out, want.String())
		}
	}
}

// TestCheck_UsageTooLong: a line too long to decide has "-" as its usage
// field, so that every line has the same fields.
func TestCheck_UsageTooLong(t *testing.T) {
	robots := writeFile(t, "robots.txt", usageRobots)
	long := "/" + strings.Repeat("x", maxURLLine+10)
	errLine := "error\t/" + strings.Repeat("x", maxQuotedText-1) + "..."
	status, out, _ := cli(t, "/x\n"+long+"\n", "check", "--robots", robots, "--agent", "A", "--usage")
	if want := "allowed\t/x\ttrain-ai=n search=unknown\n" + errLine + "\t-\n"; status != exitProblem || out != want {
		t.Errorf("--usage: status %d, output %q, want %q", status, out[:min(len(out), 400)], want)
	}
	status, out, _ = cli(t, long+"\n", "check", "--robots", robots, "--agent", "A", "--usage", "--explain")
	if want := errLine + "\ttoo long\t-\n"; status != exitProblem || out != want {
		t.Errorf("--usage --explain: status %d, output %q, want %q", status, out[:min(len(out), 400)], want)
	}
}

// TestExplain_UsageLine: explain ends with a usage line that names the
// content-usage lines that decided, when the crawler's groups have any.
func TestExplain_UsageLine(t *testing.T) {
	robots := writeFile(t, "robots.txt", usageRobots)
	status, out, errs := cli(t, "", "explain", "--robots", robots, "--agent", "A", "/x", "/pub/a", "/private")
	want := `url:       /x
path:      /x (rfc9309)
agent:     A is named by user-agent line 1 (A)
groups:    user-agent line 1
decision:  allowed: no rule matches
usage:     train-ai=n by line 2: content-usage train-ai=n; search=unknown by line 2: content-usage train-ai=n

url:       /pub/a
path:      /pub/a (rfc9309)
agent:     A is named by user-agent line 1 (A)
groups:    user-agent line 1
decision:  allowed: no rule matches
usage:     train-ai=y by line 3: content-usage /pub/ train-ai=y, search=y; search=y by line 3: content-usage /pub/ train-ai=y, search=y

url:       /private
path:      /private (rfc9309)
agent:     A is named by user-agent line 1 (A)
groups:    user-agent line 1
decision:  disallowed by line 4: disallow /private
priority:  pattern /private, 8 bytes: the longest matching pattern wins, allow on a tie
usage:     - (the URL may not be fetched: no usage preference applies to it)
`
	if status != exitOK || errs != "" || out != want {
		t.Errorf("status %d, stderr %q, output:\n%s\nwant:\n%s", status, errs, out, want)
	}

	// The semantics decide whose group the line is in: in RFC9309 B's
	// group has no content-usage line, so no usage line is printed.
	robots = writeFile(t, "semantics.txt", semanticsRobots)
	for _, c := range []struct{ sem, agent, want string }{
		{"rfc9309", "A", "usage:     train-ai=n by line 2: content-usage train-ai=n; search=unknown by line 2: content-usage train-ai=n\n"},
		{"rfc9309", "B", ""},
		{"rfc9309", "C", "usage:     train-ai=unknown (no content-usage line matches); search=unknown (no content-usage line matches)\n"},
		{"google", "B", "usage:     train-ai=n by line 2: content-usage train-ai=n; search=unknown by line 2: content-usage train-ai=n\n"},
		{"koster1996", "B", "usage:     train-ai=n by line 2: content-usage train-ai=n; search=unknown by line 2: content-usage train-ai=n\n"},
	} {
		status, out, errs := cli(t, "", "explain", "--robots", robots, "--semantics", c.sem, "--agent", c.agent, "/x")
		_, usage, found := strings.Cut(out, "\nusage:")
		if status != exitOK || errs != "" || (c.want == "" && found) || (c.want != "" && "usage:"+usage != c.want) {
			t.Errorf("%s --agent %s: status %d, stderr %q, output:\n%s\nwant the usage line %q", c.sem, c.agent, status, errs, out, c.want)
		}
	}
}

// TestDump_Usages: dump lists the crawler's content-usage lines in file
// order, with their patterns and statements; a file without any has no
// such section.
func TestDump_Usages(t *testing.T) {
	robots := writeFile(t, "robots.txt", usageRobots)
	status, out, errs := cli(t, "", "dump", "--robots", robots, "--agent", "A")
	want := `semantics: rfc9309
agents: A
selected: the groups that name the agent
  group 1: line 1: User-agent: A
rules in priority order (the longest matching pattern decides; allow wins a tie):
  line 4: disallow /private
content-usage lines of these groups, in file order (they decide no crawl; the longest pattern that matches a URL gives each category's preference, n over y over unknown on a tie):
  line 2: content-usage train-ai=n (no path: matches every path, as a pattern of length 0)
  line 3: content-usage /pub/ train-ai=y, search=y
extensions of these groups (they never decide):
  (none)
sitemaps (for every crawler):
  (none)
`
	if status != exitOK || errs != "" || out != want {
		t.Errorf("status %d, stderr %q, output:\n%s\nwant:\n%s", status, errs, out, want)
	}

	const head = "content-usage lines of these groups, in file order (they decide no crawl; the longest pattern that matches a URL gives each category's preference, n over y over unknown on a tie):\n"
	robots = writeFile(t, "semantics.txt", semanticsRobots)
	for _, c := range []struct{ sem, agent, want string }{
		{"rfc9309", "A", "  line 2: content-usage train-ai=n (no path: matches every path, as a pattern of length 0)\n"},
		{"rfc9309", "B", "  (none: every preference is unknown)\n"},
		{"rfc9309", "C", "  line 6: content-usage /*.pdf$ train-ai=y\n"},
		{"google", "B", "  line 2: content-usage train-ai=n (no path: matches every path, as a pattern of length 0)\n"},
		{"google", "C", "  line 6: content-usage /*.pdf$ train-ai=y\n"},
		{"koster1996", "B", "  line 2: content-usage train-ai=n (no path: matches every path, as a pattern of length 0)\n"},
		// Koster1996 patterns are literal: the pattern shows '*' and '$'
		// escaped, as the rules' patterns do.
		{"koster1996", "C", "  line 6: content-usage /%2A.pdf%24 train-ai=y\n"},
	} {
		status, out, errs := cli(t, "", "dump", "--robots", robots, "--semantics", c.sem, "--agent", c.agent)
		if status != exitOK || errs != "" || !strings.Contains(out, head+c.want+"extensions of these groups") {
			t.Errorf("%s --agent %s: status %d, stderr %q, output:\n%s\nwant the section:\n%s%s", c.sem, c.agent, status, errs, out, head, c.want)
		}
	}

	// A file with no content-usage line: no section (the bundled example's
	// dump is held to its old output by TestDump).
	plain := writeFile(t, "plain.txt", "User-agent: *\nDisallow: /p\n")
	if _, out, _ := cli(t, "", "dump", "--robots", plain, "--agent", "A"); strings.Contains(out, "content-usage") {
		t.Errorf("no content-usage line: output:\n%s", out)
	}
}
