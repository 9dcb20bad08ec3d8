package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	exampleRobots = "../../testdata/example/robots.txt"
	exampleURLs   = "../../testdata/example/urls.txt"
)

// exampleExplained is what docs/SEMANTICS.md says about the bundled example for
// ExampleBot under RFC9309: its own group replaces '*', the longest match
// decides, '$' anchors, and /robots.txt is always allowed.
const exampleExplained = `allowed	https://www.example.com/	-
disallowed	https://www.example.com/search?q=robots	line 8: disallow /search
allowed	https://www.example.com/search/about	line 9: allow /search/about$
disallowed	https://www.example.com/search/about/team	line 8: disallow /search
allowed	https://www.example.com/Search	-
disallowed	https://www.example.com/shop/item?sessionid=42	line 10: disallow /*?sessionid=
disallowed	https://www.example.com/drafts/new-post.html	line 11: disallow /drafts/
allowed	https://www.example.com/drafts/published/old-post.html	line 12: allow /drafts/published/
allowed	https://www.example.com/private/report.pdf	-
allowed	/robots.txt	-
`

// cli runs the command in-process.
func cli(t *testing.T, stdin string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	status = run(args, strings.NewReader(stdin), &out, &errb)
	return status, out.String(), errb.String()
}

// writeFile writes a temporary file and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// withoutExplanation drops the third field of check's output.
func withoutExplanation(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if f := strings.Split(strings.TrimSuffix(l, "\n"), "\t"); len(f) == 3 {
			l = f[0] + "\t" + f[1] + "\n"
		}
		b.WriteString(l)
	}
	return b.String()
}

func exampleURLList(t *testing.T) []string {
	b, err := os.ReadFile(exampleURLs)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

func TestCheck_ExampleExplainStdin(t *testing.T) {
	urls, err := os.ReadFile(exampleURLs)
	if err != nil {
		t.Fatal(err)
	}
	status, out, errs := cli(t, string(urls), "check", "--robots", exampleRobots, "--agent", "ExampleBot", "--explain")
	if status != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	if out != exampleExplained {
		t.Errorf("output:\n%s\nwant:\n%s", out, exampleExplained)
	}
}

func TestCheck_ExampleArgumentsNoExplain(t *testing.T) {
	args := append([]string{"check", "--robots", exampleRobots, "--agent", "ExampleBot"}, exampleURLList(t)...)
	status, out, errs := cli(t, "ignored\n", args...)
	if status != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	if want := withoutExplanation(exampleExplained); out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

func TestCheck_URLsFile(t *testing.T) {
	status, out, errs := cli(t, "", "check", "--robots", exampleRobots, "--agent", "ExampleBot", "--explain", "--urls", exampleURLs)
	if status != 0 || errs != "" || out != exampleExplained {
		t.Errorf("status %d, stderr %q, output:\n%s", status, errs, out)
	}
}

func TestCheck_FlagsAfterArguments(t *testing.T) {
	status, out, errs := cli(t, "", "check", "/search", "--robots", exampleRobots, "/drafts/x", "-agent=ExampleBot", "--", "/")
	want := "disallowed\t/search\ndisallowed\t/drafts/x\nallowed\t/\n"
	if status != 0 || errs != "" || out != want {
		t.Errorf("status %d, stderr %q, output %q, want %q", status, errs, out, want)
	}
}

func TestCheck_GlobalGroupForOtherAgents(t *testing.T) {
	status, out, _ := cli(t, "/private/a\n/private/press/b\n/x/report.pdf\n/x/report.pdf?v=2\n/search\n",
		"check", "--robots", exampleRobots, "--agent", "OtherBot", "--explain")
	want := "disallowed\t/private/a\tline 3: disallow /private/\n" +
		"allowed\t/private/press/b\tline 4: allow /private/press/\n" +
		"disallowed\t/x/report.pdf\tline 5: disallow /*.pdf$\n" +
		"allowed\t/x/report.pdf?v=2\t-\n" +
		"allowed\t/search\t-\n"
	if status != 0 || out != want {
		t.Errorf("status %d, output:\n%s\nwant:\n%s", status, out, want)
	}
}

func TestCheck_InputLines(t *testing.T) {
	// CR LF and spaces are dropped, an empty line is the empty URL (the
	// path "/"), the last line needs no end.
	status, out, errs := cli(t, "/search\r\n\n   \n\t/drafts/a \r\n/", "check", "--robots", exampleRobots, "--agent", "ExampleBot")
	want := "disallowed\t/search\nallowed\t\nallowed\t\ndisallowed\t/drafts/a\nallowed\t/\n"
	if status != 0 || errs != "" || out != want {
		t.Errorf("status %d, stderr %q, output %q, want %q", status, errs, out, want)
	}
}

func TestCheck_NotAURL(t *testing.T) {
	// A line that is neither an absolute URL nor a path is still decided
	// (one output line per input line), as the semantics reads it, and
	// reported: status 1.
	status, out, errs := cli(t, "/search\nfoo\n\nhttps://www.example.com/drafts/\nmailto:x@example.com\nhttp//x\n/\n",
		"check", "--robots", exampleRobots, "--agent", "ExampleBot")
	if status != 1 {
		t.Errorf("status %d, want 1", status)
	}
	wantOut := "disallowed\t/search\nallowed\tfoo\nallowed\t\ndisallowed\thttps://www.example.com/drafts/\nallowed\tmailto:x@example.com\nallowed\thttp//x\nallowed\t/\n"
	if out != wantOut {
		t.Errorf("output %q, want %q", out, wantOut)
	}
	lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
	for i, want := range []string{
		"robotstxt: line 2: not a URL or path: foo (decided as the path ",
		"robotstxt: line 5: not a URL or path: mailto:x@example.com (decided as the path ",
		"robotstxt: line 6: not a URL or path: http//x (decided as the path ",
	} {
		if len(lines) != 3 || !strings.HasPrefix(lines[i], want) || !strings.HasSuffix(lines[i], "; write scheme://host/path or /path)") {
			t.Errorf("stderr %q, want line %d to start %q", errs, i+1, want)
		}
	}

	// As arguments, N counts arguments; control bytes are quoted.
	status, out, errs = cli(t, "", "check", "--robots", exampleRobots, "--agent", "ExampleBot", "/", "a\x00b")
	if status != 1 || out != "allowed\t/\nallowed\ta\x00b\n" || !strings.HasPrefix(errs, "robotstxt: argument 2: not a URL or path: \"a\\x00b\" (") || strings.Count(errs, "\n") != 1 {
		t.Errorf("status %d, output %q, stderr %q", status, out, errs)
	}
}

func TestCheck_MultipleAgents(t *testing.T) {
	robots := writeFile(t, "robots.txt", `User-agent: *
Disallow: /
User-agent: Googlebot
Disallow: /a
User-agent: Googlebot-Image
Disallow: /b
`)
	for _, tc := range []struct {
		agents []string
		want   string
	}{
		{[]string{"Googlebot-Image"}, "allowed\t/a\ndisallowed\t/b\nallowed\t/c\n"},
		{[]string{"Googlebot"}, "disallowed\t/a\nallowed\t/b\nallowed\t/c\n"},
		{[]string{"Googlebot-Image", "Googlebot"}, "disallowed\t/a\ndisallowed\t/b\nallowed\t/c\n"},
		{[]string{"OtherBot"}, "disallowed\t/a\ndisallowed\t/b\ndisallowed\t/c\n"},
	} {
		args := []string{"check", "--robots", robots}
		for _, a := range tc.agents {
			args = append(args, "--agent", a)
		}
		status, out, errs := cli(t, "/a\n/b\n/c\n", args...)
		if status != 0 || errs != "" || out != tc.want {
			t.Errorf("agents %v: status %d, stderr %q, output %q, want %q", tc.agents, status, errs, out, tc.want)
		}
	}
}

func TestCheck_Semantics(t *testing.T) {
	robots := writeFile(t, "robots.txt", `User-agent: *
Disallow: /
Allow: /a/b
Disallow: /a
`)
	// /robots.txt: always allowed only under RFC9309; /a/b: the longest
	// match (line 3) wins except under Koster1996, where the first match
	// (line 2) does.
	for sem, want := range map[string]string{
		"":           "allowed\t/robots.txt\t-\nallowed\t/a/b\tline 3: allow /a/b\n",
		"rfc9309":    "allowed\t/robots.txt\t-\nallowed\t/a/b\tline 3: allow /a/b\n",
		"RFC9309":    "allowed\t/robots.txt\t-\nallowed\t/a/b\tline 3: allow /a/b\n",
		"google":     "disallowed\t/robots.txt\tline 2: disallow /\nallowed\t/a/b\tline 3: allow /a/b\n",
		"koster1996": "disallowed\t/robots.txt\tline 2: disallow /\ndisallowed\t/a/b\tline 2: disallow /\n",
	} {
		args := []string{"check", "--robots", robots, "--agent", "x", "--explain"}
		if sem != "" {
			args = append(args, "--semantics", sem)
		}
		status, out, errs := cli(t, "/robots.txt\n/a/b\n", args...)
		if status != 0 || errs != "" || out != want {
			t.Errorf("semantics %q: status %d, stderr %q, output:\n%s\nwant:\n%s", sem, status, errs, out, want)
		}
	}
}

func TestCheck_EmptyAndBinaryRobots(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	bin := make([]byte, 64<<10)
	rnd.Read(bin)
	for name, body := range map[string][]byte{
		"empty":  nil,
		"binary": bin,
		"nul":    []byte("\x00\x00User-agent: *\x00\nDisallow: /\x00x\n"),
		"huge":   bytes.Repeat([]byte("User-agent: *\nAllow: /x\n"), 100000),
	} {
		p := filepath.Join(t.TempDir(), "robots.txt")
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		status, out, errs := cli(t, "/a\n/b\n", "check", "--robots", p, "--agent", "x")
		if status != 0 || strings.Count(out, "\n") != 2 {
			t.Errorf("%s: status %d, stderr %q, output %q", name, status, errs, out)
		}
		// One warning says how the file was read (TestCheck_FileWarnings).
		want := map[string]string{"binary": "not a text file", "nul": "not a text file", "huge": "longer than 512000 bytes"}[name]
		if (want == "" && errs != "") || (want != "" && (strings.Count(errs, "\n") != 1 || !strings.Contains(errs, want))) {
			t.Errorf("%s: stderr %q, want %q", name, errs, want)
		}
		if name == "empty" && out != "allowed\t/a\nallowed\t/b\n" {
			t.Errorf("empty robots.txt: output %q, want all allowed", out)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.txt")
	unreadable := writeFile(t, "unreadable.txt", "User-agent: *\n")
	os.Chmod(unreadable, 0)
	for _, tc := range []struct {
		name string
		args []string
		want string // a part of the one stderr line
	}{
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"missing --robots", []string{"check", "--agent", "x", "/"}, "--robots FILE is required"},
		{"no --agent", []string{"check", "--robots", exampleRobots, "/"}, "--agent TOKEN or --user-agent HEADER is required"},
		{"unknown flag", []string{"check", "--robots", exampleRobots, "--agent", "x", "--bogus", "/"}, "unknown flag --bogus"},
		{"unknown semantics", []string{"check", "--robots", exampleRobots, "--agent", "x", "--semantics", "w3c", "/"}, `--semantics: unknown semantics "w3c" (want rfc9309, google or koster1996)`},
		{"missing value", []string{"check", "--robots"}, "--robots needs a value"},
		{"missing file", []string{"check", "--robots", missing, "--agent", "x", "/"}, missing},
		{"directory", []string{"check", "--robots", dir, "--agent", "x", "/"}, dir},
		{"unreadable", []string{"check", "--robots", unreadable, "--agent", "x", "/"}, unreadable},
		{"urls and arguments", []string{"check", "--robots", exampleRobots, "--agent", "x", "--urls", exampleURLs, "/"}, "not both"},
		{"missing urls file", []string{"check", "--robots", exampleRobots, "--agent", "x", "--urls", missing}, missing},
		{"urls directory", []string{"check", "--robots", exampleRobots, "--agent", "x", "--urls", dir}, dir},
		{"lint no file", []string{"lint"}, "no robots.txt FILE"},
		{"help bogus", []string{"help", "bogus"}, `unknown command "bogus"`},
		{"lint missing file", []string{"lint", missing}, missing},
		{"lint directory", []string{"lint", dir}, dir},
		{"lint unknown semantics", []string{"lint", "--semantics", "x", exampleRobots}, `unknown semantics "x"`},
		{"dump no agent", []string{"dump", "--robots", exampleRobots}, "--agent TOKEN or --user-agent HEADER is required"},
		{"dump missing --robots", []string{"dump", "--agent", "x"}, "--robots FILE is required"},
		{"dump extra argument", []string{"dump", "--robots", exampleRobots, "--agent", "x", "/a"}, `unexpected argument "/a"`},
		{"dump missing file", []string{"dump", "--robots", missing, "--agent", "x"}, missing},
	} {
		if tc.name == "unreadable" && (os.Geteuid() == 0 || runtime.GOOS == "windows") {
			continue // root reads anything
		}
		status, out, errs := cli(t, "/\n", tc.args...)
		if status != 2 {
			t.Errorf("%s: status %d, want 2", tc.name, status)
		}
		if out != "" {
			t.Errorf("%s: output %q, want none", tc.name, out)
		}
		if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "robotstxt: ") || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: stderr %q, want one line \"robotstxt: ...%s...\"", tc.name, errs, tc.want)
		}
	}
}

func TestHelp(t *testing.T) {
	status, out, errs := cli(t, "")
	if status != 2 || out != "" || !strings.Contains(errs, "Usage:") {
		t.Errorf("no arguments: status %d, stdout %q, stderr %q", status, out, errs)
	}
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"help", "check"}, {"help", "fetch"}, {"help", "help"}, {"help", "--help"}, {"check", "-h"}, {"lint", "--help"}, {"dump", "-h"}} {
		status, out, errs := cli(t, "", args...)
		if status != 0 || errs != "" || !strings.Contains(out, "Usage:") {
			t.Errorf("%v: status %d, stdout %q, stderr %q", args, status, out, errs)
		}
	}
	if status, out, _ := cli(t, "", "version"); status != 0 || !strings.HasPrefix(out, "robotstxt ") {
		t.Errorf("version: status %d, output %q", status, out)
	}
}

// TestCheck_Streaming feeds one URL at a time and wants each answer before
// the next URL is written.
func TestCheck_Streaming(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	var errb bytes.Buffer
	go func() {
		s := run([]string{"check", "--robots", exampleRobots, "--agent", "ExampleBot"}, inR, outW, &errb)
		outW.Close()
		done <- s
	}()
	answers := bufio.NewReader(outR)
	for _, tc := range []struct{ url, want string }{
		{"/search", "disallowed\t/search\n"},
		{"/", "allowed\t/\n"},
		{"/drafts/", "disallowed\t/drafts/\n"},
	} {
		if _, err := io.WriteString(inW, tc.url+"\n"); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() { l, _ := answers.ReadString('\n'); got <- l }()
		select {
		case l := <-got:
			if l != tc.want {
				t.Errorf("answer %q, want %q", l, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer for %s while input stays open: output is not streamed", tc.url)
		}
	}
	inW.Close()
	if rest, _ := io.ReadAll(answers); len(rest) != 0 {
		t.Errorf("unexpected output %q", rest)
	}
	if s := <-done; s != 0 || errb.Len() != 0 {
		t.Errorf("status %d, stderr %q", s, errb.String())
	}
}

func TestCheck_TooLongLine(t *testing.T) {
	long := "/" + strings.Repeat("x", 10<<20)
	for name, in := range map[string]string{
		"middle": "/search\n" + long + "\n/\n",
		"crlf":   "/search\r\n" + long + "\r\n/\r\n",
		"last":   "/search\n/\n" + long,
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		status, out, errs := cli(t, in, "check", "--robots", exampleRobots, "--agent", "ExampleBot")
		runtime.ReadMemStats(&after)
		if status != 1 {
			t.Errorf("%s: status %d, want 1", name, status)
		}
		// One output line per input line: the long one is "error" and its
		// start.
		errLine := "error\t/" + strings.Repeat("x", maxQuotedText-1) + "...\n"
		want := "disallowed\t/search\n" + errLine + "allowed\t/\n"
		line := 2
		if name == "last" {
			line = 3
			want = "disallowed\t/search\nallowed\t/\n" + errLine
		}
		if out != want {
			t.Errorf("%s: output %q, want %q", name, out[:min(len(out), 300)], want)
		}
		if want := fmt.Sprintf("robotstxt: line %d: too long (more than 1048576 bytes): not decided\n", line); errs != want {
			t.Errorf("%s: stderr %q, want %q", name, errs, want)
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > 8<<20 {
			t.Errorf("%s: allocated %d bytes for a 10 MB line; want a bounded buffer", name, a)
		}
	}
	// A line of exactly the limit is decided.
	max := "/" + strings.Repeat("y", maxURLLine-1)
	status, out, errs := cli(t, max+"\r\n", "check", "--robots", exampleRobots, "--agent", "ExampleBot")
	if status != 0 || errs != "" || out != "allowed\t"+max+"\n" {
		t.Errorf("a line of %d bytes: status %d, stderr %q, output of %d bytes", maxURLLine, status, errs, len(out))
	}
}

// failingWriter accepts limit bytes, then fails every write with err.
type failingWriter struct {
	limit, n    int
	err         error
	failedCalls int
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > w.limit {
		k := w.limit - w.n
		w.n = w.limit
		w.failedCalls++
		return k, w.err
	}
	w.n += len(p)
	return len(p), nil
}

func TestCheck_ClosedStdout(t *testing.T) {
	in := strings.Repeat("/search\n/drafts/x\n/\n", 100000)
	for _, err := range []error{syscall.EPIPE, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}, io.ErrClosedPipe} {
		w := &failingWriter{limit: 100, err: err}
		var errb bytes.Buffer
		status := run([]string{"check", "--robots", exampleRobots, "--agent", "ExampleBot"}, strings.NewReader(in), w, &errb)
		if status != 0 || errb.Len() != 0 {
			t.Errorf("%v: status %d, stderr %q; want 0 and quiet", err, status, errb.String())
		}
		if w.failedCalls != 1 {
			t.Errorf("%v: %d failed writes; want to stop at the first", err, w.failedCalls)
		}
	}
	// Any other write error is one line and status 1.
	w := &failingWriter{limit: 100, err: syscall.ENOSPC}
	var errb bytes.Buffer
	status := run([]string{"check", "--robots", exampleRobots, "--agent", "ExampleBot"}, strings.NewReader(in), w, &errb)
	if status != 1 || strings.Count(errb.String(), "\n") != 1 || w.failedCalls != 1 {
		t.Errorf("ENOSPC: status %d, stderr %q, %d failed writes", status, errb.String(), w.failedCalls)
	}
	// lint and dump stop quietly too.
	for _, args := range [][]string{
		{"dump", "--robots", exampleRobots, "--agent", "ExampleBot"},
		{"lint", writeFile(t, "bad.txt", strings.Repeat("Foo: bar\n", 1000))},
	} {
		w := &failingWriter{limit: 10, err: syscall.EPIPE}
		var errb bytes.Buffer
		run(args, strings.NewReader(""), w, &errb)
		if errb.Len() != 0 || w.failedCalls != 1 {
			t.Errorf("%s: stderr %q, %d failed writes", args[0], errb.String(), w.failedCalls)
		}
	}
}

var lintLine = regexp.MustCompile(`^(.+):(\d+): ([a-z0-9-]+): (.+)$`)

func TestLint(t *testing.T) {
	bad := writeFile(t, "robots.txt", "User-agent: *\nFoo: bar\nDisallow: /x\n")
	status, out, errs := cli(t, "", "lint", bad)
	if status != 1 || errs != "" {
		t.Errorf("status %d, stderr %q; want 1", status, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	found := false
	for _, l := range lines {
		m := lintLine.FindStringSubmatch(l)
		if m == nil || m[1] != bad {
			t.Errorf("line %q is not FILE:LINE: KIND: message", l)
			continue
		}
		if m[2] == "2" && m[3] == "unknown-key" {
			found = true
		}
	}
	if !found {
		t.Errorf("no unknown-key diagnostic for line 2 in:\n%s", out)
	}

	clean := writeFile(t, "robots.txt", "User-agent: *\nDisallow: /x\nAllow: /x/y\n")
	if status, out, errs := cli(t, "", "lint", "--semantics", "google", clean); status != 0 || out != "" || errs != "" {
		t.Errorf("clean file: status %d, output %q, stderr %q", status, out, errs)
	}
	if status, out, _ := cli(t, "", "lint", clean, bad); status != 1 || !strings.HasPrefix(out, bad+":") {
		t.Errorf("two files: status %d, output %q", status, out)
	}
}

var statsLine = regexp.MustCompile(`(?m)^states: (\d+)  classes: (\d+)  bytes: (\d+)  rules: (\d+)\n\z`)

// exampleDump is what dump prints for ExampleBot: the group that names it,
// then its rules in priority order, and no automaton.
const exampleDump = `semantics: rfc9309
agents: ExampleBot
selected: the groups that name the agent
  group 2: line 7: User-agent: ExampleBot
rules in priority order (the longest matching pattern decides; allow wins a tie):
  line 12: allow /drafts/published/
  line 9: allow /search/about$
  line 10: disallow /*?sessionid=
  line 11: disallow /drafts/
  line 8: disallow /search
extensions of these groups (they never decide):
  line 13: crawl-delay: 2
sitemaps (for every crawler):
  line 15: https://www.example.com/sitemap.xml
`

func TestDump(t *testing.T) {
	status, out, errs := cli(t, "", "dump", "--robots", exampleRobots, "--agent", "ExampleBot", "--semantics", "rfc9309")
	if status != 0 || errs != "" || out != exampleDump {
		t.Fatalf("status %d, stderr %q, output:\n%s\nwant:\n%s", status, errs, out, exampleDump)
	}

	// --automaton: the same, then the automata and the stats line.
	status, out, errs = cli(t, "", "dump", "--robots", exampleRobots, "--agent", "ExampleBot", "--automaton")
	if status != 0 || errs != "" || !strings.HasPrefix(out, exampleDump+"automaton (dump decides no URL, so only the start state is built: states are built as URLs first reach them):\n") {
		t.Fatalf("--automaton: status %d, stderr %q, output:\n%s", status, errs, out)
	}
	m := statsLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no stats line at the end of:\n%s", out)
	}
	if m[1] == "0" || m[4] != "5" {
		t.Errorf("stats %q: want states and 5 rules", m[0])
	}
	if strings.Contains(out, "line 12: allow /drafts/published/\n  line 12") || strings.Count(out, "line 8: disallow /search") != 1 {
		t.Errorf("the rules are printed twice:\n%s", out)
	}
}

// TestDump_Selection: the "*" groups, no group at all, and Google's
// index.htm rule, which allows its directory too.
func TestDump_Selection(t *testing.T) {
	status, out, _ := cli(t, "", "dump", "--robots", exampleRobots, "--agent", "")
	if status != 0 || !strings.Contains(out, "agents: \"\"\n") || !strings.Contains(out, "selected: the \"*\" groups") ||
		!strings.Contains(out, "  group 1: line 2: User-agent: *\n") || !strings.Contains(out, "  line 3: disallow /private/\n") {
		t.Errorf("--agent \"\": status %d, output:\n%s", status, out)
	}
	none := writeFile(t, "robots.txt", "User-agent: a\nDisallow: /\n")
	if _, out, _ := cli(t, "", "dump", "--robots", none, "--agent", "b"); !strings.Contains(out, "selected: none") || !strings.Contains(out, "(none: every URL is allowed)") {
		t.Errorf("no group: output:\n%s", out)
	}
	htm := writeFile(t, "robots.txt", "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n")
	_, out, _ = cli(t, "", "dump", "--robots", htm, "--agent", "x", "--semantics", "google")
	want := "  line 3: allow /d/index.html\n  line 3: allow /d/$ (index.htm: the directory itself)\n  line 2: disallow /d/\n"
	if !strings.Contains(out, want) {
		t.Errorf("google index.htm: output:\n%s\nwant it to contain:\n%s", out, want)
	}
	_, out, _ = cli(t, "", "dump", "--robots", htm, "--agent", "x", "--semantics", "koster1996")
	if !strings.Contains(out, "the first in file order that matches decides):\n  line 2: disallow /d/\n  line 3: allow /d/index.html\n") {
		t.Errorf("koster1996: output:\n%s", out)
	}
}

// TestBinary builds the command and runs it as a process: the real exit
// codes, streaming through pipes, and a reader that goes away early.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := binary(t)
	exitCode := func(err error) int {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	}

	t.Run("example", func(t *testing.T) {
		urls, err := os.Open(exampleURLs)
		if err != nil {
			t.Fatal(err)
		}
		defer urls.Close()
		cmd := exec.Command(bin, "check", "--robots", exampleRobots, "--agent", "ExampleBot", "--explain")
		cmd.Stdin = urls
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.Output()
		if c := exitCode(err); c != 0 || string(out) != exampleExplained || errb.Len() != 0 {
			t.Errorf("exit %d, stderr %q, output:\n%s", c, errb.String(), out)
		}
	})

	t.Run("exit codes", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			code int
		}{
			{[]string{"check", "--robots", exampleRobots, "--agent", "x", "/a", "b"}, 1},
			{[]string{"check", "--robots", "no-such-file", "--agent", "x", "/a"}, 2},
			{[]string{"check", "--robots", exampleRobots, "/a"}, 2},
			{[]string{"lint", exampleRobots}, 0},
			{[]string{}, 2},
			{[]string{"help"}, 0},
		} {
			var errb bytes.Buffer
			cmd := exec.Command(bin, tc.args...)
			cmd.Stderr = &errb
			if c := exitCode(cmd.Run()); c != tc.code {
				t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, c, tc.code, errb.String())
			}
			if tc.code == 2 && len(tc.args) > 0 && strings.Count(errb.String(), "\n") != 1 {
				t.Errorf("%v: stderr %q, want one line", tc.args, errb.String())
			}
		}
	})

	t.Run("streaming", func(t *testing.T) {
		cmd := exec.Command(bin, "check", "--robots", exampleRobots, "--agent", "ExampleBot")
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		outPipe, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		out := bufio.NewReader(outPipe)
		for _, u := range []string{"/search", "/"} {
			io.WriteString(in, u+"\n")
			got := make(chan string, 1)
			go func() { l, _ := out.ReadString('\n'); got <- l }()
			select {
			case l := <-got:
				if !strings.HasSuffix(l, "\t"+u+"\n") {
					t.Errorf("answer %q for %s", l, u)
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("no answer for %s while stdin stays open", u)
			}
		}
		in.Close()
		io.Copy(io.Discard, out)
		if c := exitCode(cmd.Wait()); c != 0 {
			t.Errorf("exit %d", c)
		}
	})

	t.Run("head -1", func(t *testing.T) {
		urls := writeFile(t, "urls.txt", strings.Repeat("https://www.example.com/search/a/rather/long/path?with=query\n", 200000))
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "check", "--robots", exampleRobots, "--agent", "ExampleBot", "--urls", urls)
		cmd.Stdout = pw
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pw.Close()
		first, err := bufio.NewReader(pr).ReadString('\n')
		pr.Close()
		if err != nil || !strings.HasPrefix(first, "disallowed\t") {
			t.Errorf("first line %q, %v", first, err)
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			if ws.Signal() != syscall.SIGPIPE {
				t.Errorf("killed by %v", ws.Signal())
			}
		} else if c := exitCode(err); c != 0 && c != 141 {
			t.Errorf("exit %d after the reader went away", c)
		}
		if errb.Len() != 0 {
			t.Errorf("stderr after the reader went away: %q", errb.String())
		}
	})
}

// BenchmarkRun_Check measures the whole check loop, input to output, over
// the bundled example: what one core decides per second with output.
func BenchmarkRun_Check(b *testing.B) {
	paths := []string{"/", "/search?q=x", "/search/about", "/drafts/a.html", "/drafts/published/b",
		"/shop/item?sessionid=1", "/a/b/c/d.pdf", "/some/longer/path/with/segments?and=query&x=1"}
	var in strings.Builder
	const lines = 100000
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&in, "https://www.example.com%s%d\n", paths[i%len(paths)], i)
	}
	input := in.String()
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"plain", nil},
		{"explain", []string{"--explain"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			args := append([]string{"check", "--robots", exampleRobots, "--agent", "ExampleBot"}, bc.args...)
			b.SetBytes(int64(len(input)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if s := run(args, strings.NewReader(input), io.Discard, io.Discard); s != 0 {
					b.Fatalf("status %d", s)
				}
			}
			b.ReportMetric(float64(b.N)*lines/b.Elapsed().Seconds(), "decisions/s")
		})
	}
}
