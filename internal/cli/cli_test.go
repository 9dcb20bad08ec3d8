package cli

// The behaviours of issue 15 ("Tried as a new user would"), as a user sees
// them: each test runs the built command (built once, by binary) and, with
// -short, run in-process instead, so that the short tests stay fast and
// still check the same outputs.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
	"github.com/seed-275a9bd5/robotstxt/internal/reference"
)

// built is the command built once for the package's tests.
var built struct {
	once sync.Once
	dir  string // removed by TestMain
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// goTool returns the path of the go command; it skips t when there is
// none.
func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath(filepath.Join(runtime.GOROOT(), "bin", "go"))
	if err != nil {
		if p, err = exec.LookPath("go"); err != nil {
			t.Skip("no go tool to build the command")
		}
	}
	return p
}

// binary returns the path of the command, built on first use; it skips t
// when there is no go tool.
func binary(t *testing.T) string {
	t.Helper()
	gotool := goTool(t)
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "robotstxt-test-"); built.err != nil {
			return
		}
		exe := ""
		if runtime.GOOS == "windows" {
			exe = ".exe"
		}
		built.path = filepath.Join(built.dir, "robotstxt"+exe)
		out, err := exec.Command(gotool, "build", "-o", built.path, "../../cmd/robotstxt").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// robotstxt runs the command with args and stdin: the built binary, or with
// -short run in-process. It returns the exit status and both outputs.
func robotstxt(t *testing.T, stdin string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	if testing.Short() {
		return cli(t, stdin, args...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("robotstxt %q did not end within 60 s", args)
	}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	noTrace(t, fmt.Sprintf("%q", args), errb.String())
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// stderrLines splits stderr into lines without their ends.
func stderrLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// googleSystem is the robots.txt of GoogleOnly_SystemTest in Google's
// robots_test.cc.
const googleSystem = "user-agent: FooBot\ndisallow: /\n"

// TestGoogle_SystemTestCLI is GoogleOnly_SystemTest of Google's
// robots_test.cc through the command, in every semantics: an empty
// robots.txt allows everything; an empty user-agent names no group (and
// there is no "*" group here); an empty URL is the path "/", which
// "disallow: /" disallows ("implicitly disallowed"). The empty URL is given
// as an empty input line and as an empty argument, the empty agent as
// --agent "".
func TestGoogle_SystemTestCLI(t *testing.T) {
	system := writeFile(t, "robots.txt", googleSystem)
	empty := writeFile(t, "empty.txt", "")
	for _, sem := range []string{"rfc9309", "google", "koster1996"} {
		for _, tc := range []struct {
			robots, agent string
			want          string
		}{
			{empty, "FooBot", "allowed"},
			{system, "", "allowed"},
			{system, "FooBot", "disallowed"},
			{empty, "", "allowed"},
		} {
			name := fmt.Sprintf("%s robots=%s agent=%q", sem, filepath.Base(tc.robots), tc.agent)
			base := []string{"check", "--robots", tc.robots, "--agent", tc.agent, "--semantics", sem}
			// An empty line among others, and an empty argument.
			status, out, errs := robotstxt(t, "/x\n\n/y\n", base...)
			want := tc.want + "\t/x\n" + tc.want + "\t\n" + tc.want + "\t/y\n"
			if status != 0 || errs != "" || out != want {
				t.Errorf("%s, stdin: status %d, stderr %q, output %q, want %q", name, status, errs, out, want)
			}
			status, out, errs = robotstxt(t, "", append(base, "")...)
			if status != 0 || errs != "" || out != tc.want+"\t\n" {
				t.Errorf("%s, argument \"\": status %d, stderr %q, output %q", name, status, errs, out)
			}
			// explain says the same of the empty argument.
			status, out, errs = robotstxt(t, "", append(append([]string{"explain"}, base[1:]...), "")...)
			if status != 0 || errs != "" || !strings.Contains(out, "decision:  "+tc.want) || !strings.Contains(out, "path:      / (") {
				t.Errorf("%s, explain \"\": status %d, stderr %q, output:\n%s", name, status, errs, out)
			}
		}
	}
}

// conformanceGroup is the URLs of the conformance table that share one
// robots.txt and one crawler, with what one semantics expects of each.
type conformanceGroup struct {
	body   []byte
	agents []string
	urls   []string
	names  []string
	want   []reference.Expect
}

// runConformanceCLI runs the conformance table (testdata/conformance.json,
// reference.BuiltCases and the empty URL and agent of Google's system test)
// through 'robotstxt check --explain', one run per robots.txt and crawler,
// the URLs on standard input, and compares each output line's decision and
// line with the table.
func runConformanceCLI(t *testing.T, sem string) {
	cases, err := reference.LoadConformance("../../testdata/conformance.json")
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, reference.BuiltCases()...)
	all := func(allowed bool, line int) map[string]reference.Expect {
		e := reference.Expect{Allowed: allowed, Line: line}
		return map[string]reference.Expect{"rfc9309": e, "google": e, "koster1996": e}
	}
	cases = append(cases,
		reference.Case{Name: "google-system/empty-robots", Agents: []string{"FooBot"}, URL: "", Expect: all(true, 0)},
		reference.Case{Name: "google-system/empty-agent", Robots: googleSystem, Agents: []string{""}, URL: "", Expect: all(true, 0)},
		reference.Case{Name: "google-system/empty-url", Robots: googleSystem, Agents: []string{"FooBot"}, URL: "", Expect: all(false, 2)},
		reference.Case{Name: "google-system/all-empty", Agents: []string{""}, URL: "", Expect: all(true, 0)},
		reference.Case{Name: "google-system/empty-agent-star", Robots: "User-agent: *\nDisallow: /a\n" + googleSystem, Agents: []string{""}, URL: "/a", Expect: all(false, 2)},
	)
	groups := map[string]*conformanceGroup{}
	var keys []string
	for _, c := range cases {
		want, ok := c.Expect[sem]
		if !ok {
			continue
		}
		if strings.ContainsAny(c.URL, "\r\n") || c.URL != strings.TrimSpace(c.URL) {
			t.Fatalf("%s: URL %q cannot be one input line", c.Name, c.URL)
		}
		key := string(c.Body()) + "\x00" + strings.Join(c.Agents, "\x00")
		g := groups[key]
		if g == nil {
			g = &conformanceGroup{body: c.Body(), agents: c.Agents}
			groups[key] = g
			keys = append(keys, key)
		}
		g.urls = append(g.urls, c.URL)
		g.names = append(g.names, c.Name)
		g.want = append(g.want, want)
	}
	sort.Strings(keys)
	dir := t.TempDir()
	n := 0
	for i, key := range keys {
		g := groups[key]
		robots := filepath.Join(dir, strconv.Itoa(i)+".txt")
		if err := os.WriteFile(robots, g.body, 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"check", "--robots", robots, "--semantics", sem, "--explain"}
		for _, a := range g.agents {
			args = append(args, "--agent", a)
		}
		status, out, errs := robotstxt(t, strings.Join(g.urls, "\n")+"\n", args...)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(g.urls) {
			t.Errorf("%s: %d output lines for %d URLs (one line per input line)\n%s", g.names[0], len(lines), len(g.urls), out)
			continue
		}
		// stderr holds only warnings (an agent that is no product token,
		// a file not read as text) and the URLs that are neither absolute
		// nor paths, which are decided all the same with status 1.
		notURL := 0
		for _, u := range g.urls {
			if !engine.IsURL(u) {
				notURL++
			}
		}
		problems := 0
		for _, l := range stderrLines(errs) {
			switch {
			case strings.HasPrefix(l, "robotstxt: warning: "):
			case strings.HasPrefix(l, "robotstxt: line ") && strings.Contains(l, ": not a URL or path: "):
				problems++
			default:
				t.Errorf("%s: unexpected stderr line %q", g.names[0], l)
			}
		}
		if wantStatus := min(notURL, 1); status != wantStatus || problems != notURL {
			t.Errorf("%s: status %d with %d reported lines, want %d and %d (stderr %q)", g.names[0], status, problems, wantStatus, notURL, errs)
		}
		for j, l := range lines {
			n++
			f := strings.Split(l, "\t")
			if len(f) != 3 || f[1] != g.urls[j] {
				t.Errorf("%s: line %q for URL %q", g.names[j], l, g.urls[j])
				continue
			}
			line := 0
			if f[2] != "-" {
				rest, ok := strings.CutPrefix(f[2], "line ")
				num, _, ok2 := strings.Cut(rest, ":")
				if line, err = strconv.Atoi(num); !ok || !ok2 || err != nil {
					t.Errorf("%s: explanation %q", g.names[j], f[2])
					continue
				}
			}
			if allowed := f[0] == "allowed"; allowed != g.want[j].Allowed || line != g.want[j].Line {
				t.Errorf("%s (%s): got %s by line %d, want allowed=%v line=%d\n  agents %q, URL %q",
					g.names[j], sem, f[0], line, g.want[j].Allowed, g.want[j].Line, g.agents, g.urls[j])
			}
		}
	}
	t.Logf("%s: %d URLs in %d runs", sem, n, len(keys))
}

func TestRFC9309_ConformanceTableCLI(t *testing.T)    { runConformanceCLI(t, "rfc9309") }
func TestGoogle_ConformanceTableCLI(t *testing.T)     { runConformanceCLI(t, "google") }
func TestKoster1996_ConformanceTableCLI(t *testing.T) { runConformanceCLI(t, "koster1996") }

// Item 1: one output line per input line, always.
func TestCheck_OneLinePerInputLine(t *testing.T) {
	robots := writeFile(t, "robots.txt", googleSystem+"\nUser-agent: *\nDisallow: /private/\n")
	in := "/a\n\n   \nfoo\n/" + strings.Repeat("x", maxURLLine+10) + "\nhttps://example.com/private/x\n"
	status, out, errs := robotstxt(t, in, "check", "--robots", robots, "--agent", "FooBot")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d output lines for 6 input lines:\n%.500s", len(lines), out)
	}
	for i, want := range []string{"disallowed\t/a", "disallowed\t", "disallowed\t", "disallowed\tfoo", "error\t/xxx", "disallowed\thttps://example.com/private/x"} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d: %.80q, want %q", i+1, lines[i], want)
		}
	}
	if status != 1 {
		t.Errorf("status %d, want 1 (line 4 is no URL, line 5 too long)", status)
	}
	e := stderrLines(errs)
	if len(e) != 2 || !strings.HasPrefix(e[0], "robotstxt: line 4: not a URL or path: foo") || !strings.HasPrefix(e[1], "robotstxt: line 5: too long") {
		t.Errorf("stderr %q", errs)
	}

	// The "*" group for another crawler, from the empty line too.
	status, out, _ = robotstxt(t, "\n/private/a\n", "check", "--robots", robots, "--agent", "OtherBot", "--explain")
	if status != 0 || out != "allowed\t\t-\ndisallowed\t/private/a\tline 5: disallow /private/\n" {
		t.Errorf("status %d, output %q", status, out)
	}
}

// Item 2: --agent "" names no group, so the "*" group applies.
func TestCheck_EmptyAgent(t *testing.T) {
	status, out, errs := robotstxt(t, "/private/a\n/private/press/b\n", "check", "--robots", exampleRobots, "--agent", "", "--explain")
	want := "disallowed\t/private/a\tline 3: disallow /private/\nallowed\t/private/press/b\tline 4: allow /private/press/\n"
	if status != 0 || errs != "" || out != want {
		t.Errorf("status %d, stderr %q, output %q, want %q", status, errs, out, want)
	}
	// --agent= is the same; with a real token next to it, the token's group.
	if _, out2, _ := robotstxt(t, "/private/a\n/private/press/b\n", "check", "--robots", exampleRobots, "--agent=", "--explain"); out2 != want {
		t.Errorf("--agent=: output %q", out2)
	}
	if _, out3, _ := robotstxt(t, "/search\n", "check", "--robots", exampleRobots, "--agent", "", "--agent", "ExampleBot"); out3 != "disallowed\t/search\n" {
		t.Errorf("--agent \"\" --agent ExampleBot: output %q", out3)
	}
}

// wikipediaLike has the MJ12bot lines of en.wikipedia.org's robots.txt
// (lines 11 and 12 there) and a "*" group that allows the page.
const wikipediaLike = "User-agent: *\nDisallow: /w/\n\nUser-agent: MJ12bot\nDisallow: /\n"

// Item 3: an --agent that is not a product token gets a warning saying how
// it was read (issue 31: as the engine reads it, docs/SEMANTICS.md section
// 2.3: as a User-Agent header in rfc9309 and koster1996, as given in
// google); --user-agent takes a whole header; --agent-chain is Google's
// precedence.
func TestCheck_AgentNotAToken(t *testing.T) {
	robots := writeFile(t, "robots.txt", wikipediaLike)
	const page = "https://en.wikipedia.org/wiki/Robots.txt"
	// rfc9309 (and koster1996): MJ12bot is read as a header: MJ, which
	// "User-agent: MJ12bot" names.
	for _, sem := range []string{"rfc9309", "koster1996"} {
		status, out, errs := robotstxt(t, "", "check", "--robots", robots, "--semantics", sem, "--agent", "MJ12bot", page)
		if status != 0 || out != "disallowed\t"+page+"\n" {
			t.Errorf("%s --agent MJ12bot: status %d, output %q, want the MJ12bot group", sem, status, out)
		}
		e := stderrLines(errs)
		if len(e) != 1 || !strings.HasPrefix(e[0], `robotstxt: warning: --agent "MJ12bot" is not a product token`) ||
			!strings.Contains(e[0], "read as a User-Agent header ("+sem+" semantics), it stands for --agent MJ") {
			t.Errorf("%s --agent MJ12bot: stderr %q, want one warning saying it stands for --agent MJ", sem, errs)
		}
	}
	// google compares it as given: no group, as in Google's library.
	status, out, errs := robotstxt(t, "", "check", "--robots", robots, "--semantics", "google", "--agent", "MJ12bot", page)
	if status != 0 || out != "allowed\t"+page+"\n" {
		t.Errorf("google --agent MJ12bot: status %d, output %q, want the \"*\" group", status, out)
	}
	if e := stderrLines(errs); len(e) != 1 || !strings.Contains(e[0], "google semantics compares it as given") ||
		!strings.Contains(e[0], `"User-agent: MJ12bot" names MJ and --agent MJ obeys such lines`) {
		t.Errorf("google --agent MJ12bot: stderr %q, want one warning naming --agent MJ", errs)
	}
	for _, args := range [][]string{
		{"--agent", "MJ"},
		{"--user-agent", "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)"},
		{"--semantics", "google", "--agent", "MJ"},
		{"--semantics", "google", "--user-agent", "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)"},
	} {
		status, out, errs := robotstxt(t, "", append(append([]string{"check", "--robots", robots}, args...), page)...)
		if status != 0 || errs != "" || out != "disallowed\t"+page+"\n" {
			t.Errorf("%q: status %d, stderr %q, output %q", args, status, errs, out)
		}
	}
	// A header given as --agent, a browser's header, a token with no
	// readable start.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--agent", "Googlebot/2.1"}, "read as a User-Agent header (rfc9309 semantics), it stands for --agent Googlebot"},
		{[]string{"--semantics", "google", "--agent", "Googlebot/2.1"}, "--agent Googlebot obeys such lines; give a whole User-Agent header with --user-agent"},
		{[]string{"--agent", "360Spider"}, `it holds no product token, so it matches no group`},
		{[]string{"--semantics", "google", "--agent", "360Spider"}, `names no crawler and no --agent obeys it`},
		{[]string{"--user-agent", "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/120.0"}, `names no crawler`},
	} {
		_, _, errs := robotstxt(t, "", append(append([]string{"check", "--robots", robots}, tc.args...), "/")...)
		if e := stderrLines(errs); len(e) != 1 || !strings.Contains(e[0], tc.want) {
			t.Errorf("%q: stderr %q, want one warning with %q", tc.args, errs, tc.want)
		}
	}
	// "*" asks for the "*" group, as "" does: no warning.
	if status, out, errs := robotstxt(t, "", "check", "--robots", robots, "--agent", "*", "/w/x"); status != 0 || errs != "" || out != "disallowed\t/w/x\n" {
		t.Errorf("--agent '*': status %d, stderr %q, output %q", status, errs, out)
	}

	// en.wikipedia.org's own file, when the corpus is there.
	if dir := corpus.Dir(t); dir == "" {
		t.Log("no corpus: en.wikipedia.org not checked")
	} else {
		wiki := filepath.Join(dir, "files", "en.wikipedia.org.txt")
		_, out, errs := robotstxt(t, "", "check", "--robots", wiki, "--semantics", "google", "--agent", "MJ12bot", page)
		if out != "allowed\t"+page+"\n" || !strings.Contains(errs, "--agent MJ obeys such lines") {
			t.Errorf("en.wikipedia.org, google --agent MJ12bot: output %q, stderr %q", out, errs)
		}
		for _, args := range [][]string{{"--agent", "MJ"}, {"--agent", "MJ12bot"}} {
			_, out, _ = robotstxt(t, "", append([]string{"check", "--robots", wiki, page}, args...)...)
			if out != "disallowed\t"+page+"\n" {
				t.Errorf("en.wikipedia.org, %q: output %q", args, out)
			}
		}
	}
}

func TestCheck_AgentChain(t *testing.T) {
	robots := writeFile(t, "robots.txt", "User-agent: *\nDisallow: /\nUser-agent: Googlebot\nDisallow: /a\nUser-agent: Googlebot-Image\nDisallow: /b\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		// Merged: every group naming a token applies.
		{[]string{"--agent", "Googlebot-Image", "--agent", "Googlebot"}, "disallowed\t/a\ndisallowed\t/b\nallowed\t/c\n"},
		// Chain: the first token some group names, and only its groups.
		{[]string{"--agent", "Googlebot-Image", "--agent", "Googlebot", "--agent-chain"}, "allowed\t/a\ndisallowed\t/b\nallowed\t/c\n"},
		{[]string{"--agent", "Googlebot-Video", "--agent", "Googlebot", "--agent-chain"}, "disallowed\t/a\nallowed\t/b\nallowed\t/c\n"},
		{[]string{"--agent", "Otherbot", "--agent-chain"}, "disallowed\t/a\ndisallowed\t/b\ndisallowed\t/c\n"},
		// --user-agent's tokens follow those of --agent.
		{[]string{"--user-agent", "Googlebot-Image/1.0", "--agent", "Googlebot", "--agent-chain"}, "disallowed\t/a\nallowed\t/b\nallowed\t/c\n"},
	} {
		status, out, errs := robotstxt(t, "/a\n/b\n/c\n", append([]string{"check", "--robots", robots}, tc.args...)...)
		if status != 0 || errs != "" || out != tc.want {
			t.Errorf("%q: status %d, stderr %q, output %q, want %q", tc.args, status, errs, out, tc.want)
		}
	}
	// explain and dump follow the chain too.
	_, out, _ := robotstxt(t, "", "explain", "--robots", robots, "--agent", "Googlebot-Image", "--agent", "Googlebot", "--agent-chain", "/a")
	if !strings.Contains(out, "allowed") || strings.Contains(out, "disallowed") {
		t.Errorf("explain --agent-chain:\n%s", out)
	}
	_, out, _ = robotstxt(t, "", "dump", "--robots", robots, "--agent", "Googlebot-Image", "--agent", "Googlebot", "--agent-chain")
	if !strings.Contains(out, "agents: Googlebot-Image\n") || strings.Contains(out, "disallow /a") {
		t.Errorf("dump --agent-chain:\n%s", out)
	}
}

// utf16LE returns s in UTF-16, little-endian, with a byte-order mark; ASCII
// only.
func utf16LE(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = append(b, 0xFF, 0xFE)
	}
	for i := 0; i < len(s); i++ {
		b = append(b, s[i], 0)
	}
	return b
}

// Item 4: a file not read as a user thinks gets one warning line; the
// decisions and the exit status stay.
func TestCheck_FileWarnings(t *testing.T) {
	rules := "User-agent: *\r\nDisallow: /store/\r\n"
	var big strings.Builder
	big.WriteString("User-agent: *\n")
	for big.Len() <= 512000 {
		fmt.Fprintf(&big, "Disallow: /%d/\n", big.Len())
	}
	big.WriteString("Disallow: /store/\n") // past the limit: does not count
	for _, tc := range []struct {
		name, body string
		want       string // "" for no warning
		store      string // the decision for /store/x
	}{
		{"utf16-bom", string(utf16LE(rules, true)), "is UTF-16 text, not UTF-8", "allowed"},
		{"utf16-no-bom", string(utf16LE(rules, false)), "is UTF-16 text, not UTF-8", "allowed"},
		{"binary", "\x00\x01\x02User-agent: *\nDisallow: /store/\x00\n", "is not a text file", "allowed"},
		{"html", "\n<!DOCTYPE html>\n<html><head><title>404</title></head>\n<body>Not found</body></html>\n", "looks like an HTML page (line 2), not a robots.txt", "allowed"},
		{"truncated", big.String(), "is longer than 512000 bytes: only the first 512000 bytes", "allowed"},
		{"no group", "Disallow: /store/\nSitemap: https://example.com/s.xml\n", "has no user-agent line, so no rule applies to any crawler: every URL is allowed (its 1 rule before any user-agent line is ignored)", "allowed"},
		{"clean", rules, "", "disallowed"},
		{"empty", "", "", "allowed"},
		{"comments only", "# nothing to say\n\n", "", "allowed"},
		{"an html comment line", rules + "<!-- generated -->\n", "", "disallowed"},
	} {
		robots := writeFile(t, "robots.txt", tc.body)
		for _, args := range [][]string{
			{"check", "--robots", robots, "--agent", "x", "/store/x"},
			{"explain", "--robots", robots, "--agent", "x", "/store/x"},
			{"dump", "--robots", robots, "--agent", "x"},
		} {
			status, out, errs := robotstxt(t, "", args...)
			if status != 0 {
				t.Errorf("%s, %s: status %d, want 0", tc.name, args[0], status)
			}
			e := stderrLines(errs)
			switch {
			case tc.want == "" && len(e) != 0:
				t.Errorf("%s, %s: stderr %q, want nothing", tc.name, args[0], errs)
			case tc.want != "" && (len(e) != 1 || !strings.HasPrefix(e[0], "robotstxt: warning: "+robots+": the file ") || !strings.Contains(e[0], tc.want)):
				t.Errorf("%s, %s: stderr %q, want one warning with %q", tc.name, args[0], errs, tc.want)
			}
			if args[0] == "check" && out != tc.store+"\t/store/x\n" {
				t.Errorf("%s: output %q, want %s", tc.name, out, tc.store)
			}
		}
	}

	// The corpus files of the issue, when the corpus is there.
	dir := corpus.Dir(t)
	if dir == "" {
		t.Log("no corpus: store.usps.com and www.xuexi.cn not checked")
		return
	}
	for file, want := range map[string]string{
		"store.usps.com.txt": "is UTF-16 text",
		"www.xuexi.cn.txt":   "is longer than 512000 bytes",
	} {
		path := filepath.Join(dir, "files", file)
		for _, cmd := range []string{"check", "explain"} {
			_, _, errs := robotstxt(t, "", cmd, "--robots", path, "--agent", "Googlebot", "/")
			if e := stderrLines(errs); len(e) != 1 || !strings.Contains(e[0], want) {
				t.Errorf("%s %s: stderr %q, want one warning with %q", cmd, file, errs, want)
			}
		}
	}
}

// flagPackageWords are the words of package flag's own messages.
var flagPackageWords = regexp.MustCompile(`flag provided|flag needs an argument|invalid (boolean )?value|parse error`)

// Item 5: every message names flags as they were typed and says what a
// valid value looks like (issue 49: "check -x" said "unknown flag --x", and
// "--robot" got no "did you mean --robots").
func TestFlagMessages(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--robots", exampleRobots, "--agent", "x", "--bogus", "/"}, "check: unknown flag --bogus (see 'robotstxt help check')"},
		{[]string{"check", "--robots", exampleRobots, "--agent", "x", "-bogus", "/"}, "check: unknown flag -bogus (see 'robotstxt help check')"},
		{[]string{"check", "-x"}, "check: unknown flag -x (see 'robotstxt help check')"},
		{[]string{"check", "--robot", exampleRobots, "--agent", "x"}, "check: unknown flag --robot; did you mean --robots? (see"},
		{[]string{"check", "-robot=" + exampleRobots, "--agent", "x"}, "check: unknown flag -robot; did you mean -robots? (see"},
		{[]string{"lint", "--sem", "google", exampleRobots}, "lint: unknown flag --sem; did you mean --semantics? (see"},
		{[]string{"check", "-robots"}, "check: -robots needs a value: a robots.txt file"},
		{[]string{"check", "--robots", exampleRobots, "--agent", "x", "-semantics", "w3c", "/"}, `check: -semantics: unknown semantics "w3c"`},
		{[]string{"check", "--robots", exampleRobots, "--agent", "x", "-explain=maybe", "/"}, `-explain takes no value, not "maybe" (write --explain, or --explain=false)`},
		{[]string{"check", "--robots", exampleRobots, "--agent", "x", "--semantics", "w3c", "/"}, `--semantics: unknown semantics "w3c" (want rfc9309, google or koster1996)`},
		{[]string{"check", "--robots"}, "--robots needs a value: a robots.txt file, or - for standard input"},
		{[]string{"check", "--robots", exampleRobots, "--agent"}, "--agent needs a value: a product token such as Googlebot"},
		{[]string{"check", "--robots", exampleRobots, "--agent", "x", "--explain=maybe", "/"}, `--explain takes no value, not "maybe" (write --explain, or --explain=false)`},
		{[]string{"check", "---robots", exampleRobots}, `bad flag syntax "---robots": write --name VALUE or --name=VALUE`},
		{[]string{"lint", "--format", "yaml", exampleRobots}, `unknown --format "yaml" (want text or json)`},
		{[]string{"fetch", "--timeout", "abc", "https://example.com/"}, `fetch: bad value "abc" for --timeout: want a positive duration such as 10s, 1m or 1m30s`},
		{[]string{"fetch", "--timeout", "0s", "https://example.com/"}, "fetch: --timeout must be positive, not 0s: want a positive duration"},
		{[]string{"check", "--agent", "x", "/"}, "check: --robots FILE is required (a robots.txt file, or - for standard input"},
	} {
		status, out, errs := robotstxt(t, "", tc.args...)
		e := stderrLines(errs)
		if status != exitUsage || out != "" || len(e) != 1 || !strings.Contains(e[0], tc.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, status, out, errs, tc.want)
		}
		if m := flagPackageWords.FindString(errs); m != "" {
			t.Errorf("%q: stderr %q has the flag package's %q", tc.args, errs, m)
		}
	}
	// Help names flags the same way.
	for _, cmd := range []string{"check", "explain", "dump", "lint", "fetch"} {
		_, out, _ := robotstxt(t, "", "help", cmd)
		if !strings.Contains(out, "  --semantics S ") || strings.Contains(out, "  -semantics") {
			t.Errorf("help %s: flags not written as --name:\n%s", cmd, out)
		}
	}
}

// Item 6: odd arguments are handled alike everywhere.
func TestOddArguments(t *testing.T) {
	// A host without a scheme, with or without a port.
	for _, site := range []string{"127.0.0.1:8765", "example.com", "localhost:8080/a"} {
		status, out, errs := robotstxt(t, "", "fetch", site)
		want := fmt.Sprintf("robotstxt: fetch: %q has no scheme: want an absolute URL such as https://%s or http://%s\n", site, site, site)
		if status != exitUsage || out != "" || errs != want {
			t.Errorf("fetch %s: status %d, stderr %q, want %q", site, status, errs, want)
		}
	}
	// A bad argument is named as an argument, in check and explain alike.
	_, _, errs := robotstxt(t, "", "check", "--robots", exampleRobots, "--agent", "x", "/", "/a", "nope")
	if !strings.HasPrefix(errs, "robotstxt: argument 3: not a URL or path: nope") {
		t.Errorf("check: stderr %q", errs)
	}
	_, _, errs = robotstxt(t, "", "explain", "--robots", exampleRobots, "--agent", "x", "/", "/a", "nope")
	if !strings.HasPrefix(errs, "robotstxt: argument 3: not a URL or path: nope") {
		t.Errorf("explain: stderr %q", errs)
	}

	// lint goes on past a file it cannot read, and ends with status 2.
	missing := filepath.Join(t.TempDir(), "missing.txt")
	bad := writeFile(t, "bad.txt", "User-agent: *\nFoo: bar\n")
	status, out, errs := robotstxt(t, "", "lint", missing, bad)
	if status != exitUsage || !strings.HasPrefix(out, bad+":2: unknown-key: ") || len(stderrLines(errs)) != 1 || !strings.Contains(errs, missing) {
		t.Errorf("lint missing bad: status %d, output %q, stderr %q", status, out, errs)
	}
	status, out, _ = robotstxt(t, "", "lint", "--format", "json", bad, missing, bad)
	var findings []map[string]any
	if err := json.Unmarshal([]byte(out), &findings); status != exitUsage || err != nil || len(findings) != 2 {
		t.Errorf("lint --format json: status %d, %d findings, %v:\n%s", status, len(findings), err, out)
	}

	// "-" is standard input for --robots and lint, as for --urls.
	robots, err := os.ReadFile(exampleRobots)
	if err != nil {
		t.Fatal(err)
	}
	status, out, errs = robotstxt(t, string(robots), "check", "--robots", "-", "--agent", "ExampleBot", "/search", "/")
	if status != 0 || errs != "" || out != "disallowed\t/search\nallowed\t/\n" {
		t.Errorf("--robots -: status %d, stderr %q, output %q", status, errs, out)
	}
	urls := writeFile(t, "urls.txt", "/search\n")
	if _, out, _ := robotstxt(t, string(robots), "check", "--robots", "-", "--agent", "ExampleBot", "--urls", urls); out != "disallowed\t/search\n" {
		t.Errorf("--robots - --urls FILE: output %q", out)
	}
	for _, args := range [][]string{
		{"explain", "--robots", "-", "--agent", "ExampleBot", "/search"},
		{"dump", "--robots", "-", "--agent", "ExampleBot"},
	} {
		if status, out, errs := robotstxt(t, string(robots), args...); status != 0 || errs != "" || !strings.Contains(out, "/search") {
			t.Errorf("%s --robots -: status %d, stderr %q, output:\n%s", args[0], status, errs, out)
		}
	}
	status, out, _ = robotstxt(t, "User-agent: *\nFoo: bar\n", "lint", "-")
	if status != exitProblem || !strings.HasPrefix(out, "-:2: unknown-key: ") {
		t.Errorf("lint -: status %d, output %q", status, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--robots", "-", "--agent", "x"}, "the URLs cannot come from it too"},
		{[]string{"check", "--robots", "-", "--agent", "x", "--urls", "-"}, "the URLs cannot come from it too"},
		{[]string{"lint", "-", "-"}, "can be read once"},
		{[]string{"help", "bogus"}, `help: unknown command "bogus"`},
		{[]string{"help", "check", "lint"}, "one COMMAND at most"},
		{[]string{"dump", "--robots", exampleRobots, "--agent", "x", ""}, `unexpected argument ""`},
	} {
		status, out, errs := robotstxt(t, "", tc.args...)
		if status != exitUsage || out != "" || len(stderrLines(errs)) != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, status, out, errs, tc.want)
		}
	}
}

// Item 7: fetch's exit status says whether the robots.txt could be fetched,
// after the decisions the standard prescribes.
func TestFetch_ExitStatus(t *testing.T) {
	site := func(code int, body string) string {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(code)
			w.Write([]byte(body))
		}))
		t.Cleanup(s.Close)
		return s.URL
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/"
	ln.Close()
	for _, tc := range []struct {
		name, url string
		status    int
		decision  string
	}{
		{"200", site(200, "User-agent: *\nDisallow: /x\n"), exitOK, "disallowed"},
		{"404", site(404, ""), exitOK, "allowed"},
		{"429", site(429, ""), exitUnreachable, "disallowed"},
		{"503", site(503, ""), exitUnreachable, "disallowed"},
		{"refused", refused, exitUnreachable, "disallowed"},
	} {
		status, out, errs := robotstxt(t, "", "fetch", "--timeout", "10s", tc.url, "/x")
		if status != tc.status || !strings.HasSuffix(out, tc.decision+"\t/x\n") {
			t.Errorf("%s: status %d (want %d), stderr %q, output:\n%s", tc.name, status, tc.status, errs, out)
		}
	}
	// A server that answers /robots.txt with a web page gets a warning.
	page := site(200, "<!DOCTYPE html>\n<html><body>Welcome</body></html>\n")
	status, _, errs := robotstxt(t, "", "fetch", page, "/x")
	if status != exitOK || !strings.Contains(errs, "robotstxt: warning: "+page+"/robots.txt: the file looks like an HTML page") {
		t.Errorf("HTML page: status %d, stderr %q", status, errs)
	}
}

// Item 8: dump shows rules first, and the automaton only with --automaton.
func TestDump_RulesFirst(t *testing.T) {
	status, out, errs := robotstxt(t, "", "dump", "--robots", exampleRobots, "--agent", "ExampleBot")
	if status != 0 || errs != "" || out != exampleDump {
		t.Errorf("status %d, stderr %q, output:\n%s", status, errs, out)
	}
	_, out, _ = robotstxt(t, "", "dump", "--robots", exampleRobots, "--agent", "ExampleBot", "--automaton")
	if !strings.HasPrefix(out, exampleDump+"automaton (dump decides no URL, so only the start state is built: states are built as URLs first reach them):\n") || !statsLine.MatchString(out) {
		t.Errorf("--automaton:\n%s", out)
	}
	dir := corpus.Dir(t)
	if dir == "" {
		t.Log("no corpus: google.com not dumped")
		return
	}
	google := filepath.Join(dir, "files", "google.com.txt")
	if _, err := os.Stat(google); err != nil {
		t.Skipf("no %s in the corpus", google)
	}
	status, out, _ = robotstxt(t, "", "dump", "--robots", google, "--agent", "Googlebot")
	rules := strings.Count(out, "\n  line ")
	if status != 0 || rules == 0 || strings.Count(out, "\n") > rules+10 || strings.Contains(out, "automaton") {
		t.Errorf("google.com: status %d, %d lines for %d rules:\n%.2000s", status, strings.Count(out, "\n"), rules, out)
	}
}

// usageLines returns the "robotstxt ..." lines of text, with runs of
// spaces made one.
func usageLines(text, prefix string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimPrefix(l, prefix)
		if f := strings.Fields(l); len(f) > 1 && f[0] == "robotstxt" && !strings.HasPrefix(f[1], "decides") && !strings.HasPrefix(l, " ") {
			out = append(out, strings.Join(f, " "))
		}
	}
	return out
}

// TestFlagError_ClosestFlag: an unknown flag is answered with the flag it
// was probably meant to be, when one is close, and with none otherwise.
func TestFlagError_ClosestFlag(t *testing.T) {
	fs := newFlagSet("check")
	addRobotsFlags(fs)
	fs.Bool("explain", false, "")
	fs.String("urls", "", "")
	for name, want := range map[string]string{
		"robot":                    "robots",
		"robotss":                  "robots",
		"rbots":                    "robots",
		"agnet":                    "agent",
		"agent-chian":              "agent-chain",
		"useragent":                "user-agent",
		"sem":                      "semantics",
		"semantic":                 "semantics",
		"explian":                  "explain",
		"url":                      "urls",
		"x":                        "",
		"a":                        "",
		"ag":                       "",
		"bogus":                    "",
		"json":                     "",
		"verbose":                  "",
		strings.Repeat("r", 1<<20): "",
	} {
		if got := closestFlag(fs, name); got != want {
			t.Errorf("closestFlag(%.20q) = %q, want %q", name, got, want)
		}
	}
}

// TestREADME_FirstCommand: README's first command is the check of the
// bundled example, and the output README shows under "What the first
// command shows" is what it prints (exampleExplained, which TestCheck holds
// the command to).
func TestREADME_FirstCommand(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const first = "go run ./cmd/robotstxt check --robots testdata/example/robots.txt --agent ExampleBot --explain < testdata/example/urls.txt\n"
	if !bytes.Contains(readme, []byte("```sh\n"+first+"go test ./...\n```\n")) {
		t.Errorf("README.md's two commands are not\n%sgo test ./...", first)
	}
	_, section, ok := strings.Cut(string(readme), "\n## What the first command shows\n\n```\n")
	if !ok {
		t.Fatal(`README.md has no "## What the first command shows" section that starts with the output`)
	}
	if shown, _, _ := strings.Cut(section, "```"); shown != exampleExplained {
		t.Errorf("README.md shows:\n%s\nthe command prints:\n%s", shown, exampleExplained)
	}
	status, out, errs := robotstxt(t, "", "check", "--robots", exampleRobots, "--agent", "ExampleBot", "--explain", "--urls", exampleURLs)
	if status != exitOK || errs != "" || out != exampleExplained {
		t.Errorf("status %d, stderr %q, output:\n%s", status, errs, out)
	}
}

// TestREADME_CommandLineUsage: the usage lines of README.md's "Command
// line" section and of doc.go are those that 'robotstxt help' prints, and
// each command's help starts with its line.
func TestREADME_CommandLineUsage(t *testing.T) {
	want := usageLines(usage, "  ")
	if len(want) != 8 {
		t.Fatalf("usage has %d command lines:\n%s", len(want), usage)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section, ok := strings.CutPrefix(string(readme[bytes.Index(readme, []byte("\n## Command line\n"))+1:]), "## Command line\n")
	if !ok {
		t.Fatal(`README.md has no "## Command line" section`)
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	block, _, _ := strings.Cut(strings.SplitN(section, "```\n", 3)[1], "```")
	if got := usageLines(block, ""); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("README.md usage:\n%s\nwant (robotstxt help):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	doc, err := os.ReadFile("../../cmd/robotstxt/doc.go")
	if err != nil {
		t.Fatal(err)
	}
	if got := usageLines(string(doc), "//\t"); strings.Join(got[:min(len(got), 8)], "\n") != strings.Join(want, "\n") {
		t.Errorf("doc.go usage:\n%s\nwant (robotstxt help):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range want[:6] {
		cmd := strings.Fields(l)[1]
		if h := commandUsage[cmd]; !strings.HasPrefix(h, "Usage: "+l+"\n") {
			t.Errorf("help %s starts %q, want %q", cmd, h[:min(len(h), 200)], "Usage: "+l)
		}
	}
	// Every exit status of fetch is in the README's sentence on them.
	for _, s := range []string{"Exit status 0:", "; 1:", "; 2:", "; 3:"} {
		if !strings.Contains(strings.Join(strings.Fields(section), " "), s) {
			t.Errorf("README.md's exit statuses do not say %q", s)
		}
	}
}

// TestIsURL checks what check calls a URL: empty, a path, or an absolute
// URL whose scheme (a letter, then letters, digits, '+', '-', '.') is
// followed by "://".
func TestIsURL(t *testing.T) {
	for s, want := range map[string]bool{
		"":                  true,
		"/":                 true,
		"/a://b":            true,
		"https://example":   true,
		"HTTP://x/y":        true,
		"svn+ssh.v-2://h/p": true,
		"h://":              true,
		"1http://x":         false,
		"+a://x":            false,
		"://x":              false,
		"http:/x":           false,
		"https:x":           false,
		"ht tp://x":         false,
		"example.com/a":     false,
		"a?b://c":           false,
		"mailto:me@x":       false,
		"x":                 false,
	} {
		if got := engine.IsURL(s); got != want {
			t.Errorf("engine.IsURL(%q) = %v, want %v", s, got, want)
		}
	}
}
