package cli

// Hostile use of the command: robots files that are empty, binary, huge or
// endless; unreadable ones not covered by TestErrors; flags and names that
// no one should type; and, with the real binary, a 10 MB line on standard
// input and standard output that goes away or is full. Whatever happens,
// the contract of doc.go holds: the documented exit status, at most one
// line on standard error per problem, never a stack trace.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// abuseMemory bounds what one in-process run may allocate on hostile input:
// the robots.txt is read up to its 500 KiB limit and URL lines up to 1 MiB,
// whatever the input's size.
const abuseMemory = 64 << 20

// noTrace fails t if s holds a Go stack trace or panic.
func noTrace(t *testing.T, what, s string) {
	t.Helper()
	if strings.Contains(s, "panic:") || strings.Contains(s, "goroutine ") {
		t.Errorf("%s: stack trace on stderr:\n%s", what, s)
	}
}

// abuse runs the command in-process, turning a panic into a failure, and
// returns the status, both outputs and the bytes allocated.
func abuse(t *testing.T, stdin io.Reader, args ...string) (status int, stdout, stderr string, alloc uint64) {
	t.Helper()
	var out, errb bytes.Buffer
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("robotstxt %q panicked: %v", args, p)
			}
		}()
		status = run(args, stdin, &out, &errb)
	}()
	runtime.ReadMemStats(&after)
	return status, out.String(), errb.String(), after.TotalAlloc - before.TotalAlloc
}

// oneLine fails t unless stderr is exactly one line "robotstxt: ..." that
// contains want.
func oneLine(t *testing.T, what, stderr, want string) {
	t.Helper()
	noTrace(t, what, stderr)
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") || !strings.HasPrefix(stderr, "robotstxt: ") || !strings.Contains(stderr, want) {
		t.Errorf("%s: stderr %q, want exactly one line \"robotstxt: ...%s...\"", what, stderr, want)
	}
}

// hostileRobots writes the robots files the tests read: name -> path.
func hostileRobots(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	r := rand.New(rand.NewSource(1))
	junk := make([]byte, 64<<10)
	r.Read(junk)
	var big strings.Builder
	for i := 0; big.Len() < 3<<20; i++ {
		agent := fmt.Sprintf("bot%d", i%50)
		if i%50 == 0 {
			agent = "*"
		}
		fmt.Fprintf(&big, "User-agent: %s\nDisallow: /%d/*x*y$\n", agent, i)
	}
	files := map[string]string{
		"empty":           "",
		"binary":          string(junk),
		"utf16":           "\xff\xfeU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00",
		"3MB":             big.String(),
		"10MB-one-line":   "User-agent: *\nDisallow: /" + strings.Repeat("*a", 5<<20),
		"only-line-ends":  strings.Repeat("\r\n\r\r\n\n", 100000),
		"wildcard-heavy":  "User-agent: *\n" + strings.Repeat("Disallow: /*a*b*a*b*a*b*a*b*a*b*a$\n", 200),
		"html":            "<!DOCTYPE html><html><body>Not found</body></html>\n",
		"invalid-utf8":    "User-agent: \xff\xfe*\nDisallow: /\xc0\xaf\n",
		"nul-in-the-line": "User-agent: *\x00\nDisallow: /a\x00b\n",
	}
	paths := map[string]string{}
	for name, content := range files {
		p := filepath.Join(dir, name+".txt")
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	// Devices: an empty one and an endless one.
	for _, dev := range []string{"/dev/null", "/dev/zero"} {
		if st, err := os.Stat(dev); err == nil && st.Mode()&os.ModeDevice != 0 {
			paths[dev] = dev
		}
	}
	return paths
}

// hostileWarnings are the warnings check, explain and dump print for each
// robots file of hostileRobots, one line each, in order (engine.Robots.Warnings).
var hostileWarnings = map[string][]string{
	"binary":          {"is not a text file"},
	"utf16":           {"is UTF-16 text"},
	"3MB":             {"is longer than 512000 bytes"},
	"10MB-one-line":   {"is longer than 512000 bytes"},
	"only-line-ends":  {"is longer than 512000 bytes"},
	"html":            {"looks like an HTML page (line 1)"},
	"invalid-utf8":    {"is mostly not UTF-8 (2 of 2 lines)"},
	"nul-in-the-line": {"is not a text file"},
	"/dev/zero":       {"is not a text file", "is longer than 512000 bytes"},
}

// checkWarnings fails t unless stderr is exactly the warnings want, one
// line "robotstxt: warning: ..." each, in order.
func checkWarnings(t *testing.T, what, stderr string, want []string) {
	t.Helper()
	noTrace(t, what, stderr)
	lines := strings.SplitAfter(stderr, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	ok := len(lines) == len(want)
	for i := 0; ok && i < len(lines); i++ {
		ok = strings.HasPrefix(lines[i], "robotstxt: warning: ") && strings.HasSuffix(lines[i], "\n") && strings.Contains(lines[i], want[i])
	}
	if !ok {
		t.Errorf("%s: stderr %q, want warnings %q", what, stderr, want)
	}
}

// TestAbuse_RobotsFiles: an empty, binary, huge or endless robots.txt is
// not an error (doc.go): check decides every URL (status 0), lint reports
// diagnostics (status 0 or 1), dump prints its rules and stats (status 0);
// on stderr at most the warnings that say how the file was read, and
// bounded memory.
func TestAbuse_RobotsFiles(t *testing.T) {
	urls := []string{"/", "/a", "/a/b/x/y", "https://example.com/%zz", "/" + strings.Repeat("a", 64<<10)}
	for name, path := range hostileRobots(t) {
		t.Run(strings.TrimPrefix(name, "/dev/"), func(t *testing.T) {
			args := append([]string{"check", "--robots", path, "--agent", "Googlebot", "--explain"}, urls...)
			status, out, errs, alloc := abuse(t, strings.NewReader(""), args...)
			if status != exitOK {
				t.Errorf("check: status %d, want 0", status)
			}
			checkWarnings(t, "check", errs, hostileWarnings[name])
			if n := strings.Count(out, "\n"); n != len(urls) {
				t.Errorf("check: %d output lines for %d URLs", n, len(urls))
			}
			if alloc > abuseMemory {
				t.Errorf("check allocated %d MiB, want at most %d", alloc>>20, abuseMemory>>20)
			}

			status, out, errs, alloc = abuse(t, strings.NewReader(""), "lint", path)
			if errs != "" || (status != exitOK && status != exitProblem) || (status == exitOK) != (out == "") {
				t.Errorf("lint: status %d, stderr %q, %d bytes of output", status, errs, len(out))
			}
			for _, l := range strings.SplitAfter(out, "\n") {
				if l != "" && !lintLine.MatchString(strings.TrimSuffix(l, "\n")) {
					t.Errorf("lint: line %q is not FILE:LINE: KIND: message", l)
					break
				}
			}
			if alloc > abuseMemory {
				t.Errorf("lint allocated %d MiB, want at most %d", alloc>>20, abuseMemory>>20)
			}

			status, out, errs, _ = abuse(t, strings.NewReader(""), "dump", "--robots", path, "--agent", "Googlebot", "--automaton")
			if status != exitOK || !statsLine.MatchString(out) {
				t.Errorf("dump: status %d, output ends %q", status, out[max(0, len(out)-200):])
			}
			checkWarnings(t, "dump", errs, hostileWarnings[name])
		})
	}
}

// TestAbuse_UnreadableRobots completes TestErrors: every command that reads
// a robots.txt says in one line that it cannot, with status 2.
func TestAbuse_UnreadableRobots(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.txt")
	unreadable := filepath.Join(dir, "unreadable.txt")
	if err := os.WriteFile(unreadable, []byte("User-agent: *\nDisallow: /\n"), 0o000); err != nil {
		t.Fatal(err)
	}
	canUnread := true
	if f, err := os.Open(unreadable); err == nil {
		f.Close()
		canUnread = false // root, or a file system without permissions
	}
	for _, path := range []string{missing, dir, unreadable} {
		if path == unreadable && !canUnread {
			t.Log("skipping the unreadable file: this user can read a file of mode 000")
			continue
		}
		for _, args := range [][]string{
			{"check", "--robots", path, "--agent", "x", "/"},
			{"check", "--robots", path, "--agent", "x"}, // URLs from stdin
			{"lint", path},
			{"lint", filepath.Join("..", "..", "testdata", "example", "robots.txt"), path}, // the second file
			{"dump", "--robots", path, "--agent", "x"},
			{"explain", "--robots", path, "--agent", "x", "/"},
		} {
			status, _, errs, _ := abuse(t, strings.NewReader("/\n"), args...)
			if status != exitUsage {
				t.Errorf("%q: status %d, want %d", args, status, exitUsage)
			}
			oneLine(t, fmt.Sprint(args), errs, path)
		}
	}
}

// badUsage are command lines that must give status 2 and exactly one line
// on stderr containing want, with nothing on stdout (TestErrors has the
// common ones).
func badUsage(robots string) []struct {
	name string
	args []string
	want string
} {
	return []struct {
		name string
		args []string
		want string
	}{
		{"lint unknown flag", []string{"lint", "--bogus", robots}, "unknown flag --bogus"},
		{"lint unknown format", []string{"lint", "--format", "yaml", robots}, `"yaml"`},
		{"explain unknown flag", []string{"explain", "--robots", robots, "--agent", "x", "--bogus", "/"}, "unknown flag --bogus"},
		{"explain unknown semantics", []string{"explain", "--robots", robots, "--agent", "x", "--semantics", "w3c", "/"}, `"w3c"`},
		{"dump unknown flag", []string{"dump", "--robots", robots, "--agent", "x", "-z"}, "unknown flag -z ("},
		{"fetch unknown flag", []string{"fetch", "--bogus", "https://example.com/"}, "unknown flag --bogus"},
		{"fetch no URL", []string{"fetch"}, "site URL is required"},
		{"fetch negative timeout", []string{"fetch", "--timeout", "-1s", "https://example.com/"}, "--timeout"},
		{"fetch bad timeout", []string{"fetch", "--timeout", "soon", "https://example.com/"}, `bad value "soon" for --timeout: want a positive duration such as 10s`},
		{"fetch unknown semantics", []string{"fetch", "--semantics", "w3c", "https://example.com/"}, `"w3c"`},
		{"dump unknown semantics", []string{"dump", "--robots", robots, "--agent", "x", "--semantics", "Google2"}, `"Google2"`},
		{"empty semantics", []string{"check", "--robots", robots, "--agent", "x", "--semantics=", "/"}, `""`},
		{"semantics with a space", []string{"check", "--robots", robots, "--agent", "x", "--semantics", "rfc9309 ", "/"}, `"rfc9309 "`},
		{"semantics with a newline", []string{"lint", "--semantics", "google\nrfc9309", robots}, `"google\nrfc9309"`},
		{"semantics of binary bytes", []string{"lint", "--semantics", "\xff\x00\x1b[2J", robots}, "unknown semantics"},
		{"semantics of 1 MB", []string{"lint", "--semantics", strings.Repeat("g", 1<<20), robots}, "unknown semantics"},
		{"bool flag with a value", []string{"check", "--robots", robots, "--agent", "x", "--explain=maybe", "/"}, `--explain takes no value, not "maybe"`},
		{"triple dash", []string{"check", "---robots", robots, "--agent", "x", "/"}, "bad flag syntax"},
		{"empty --robots", []string{"check", "--robots=", "--agent", "x", "/"}, "--robots FILE is required"},
		{"empty flag name", []string{"check", "-=x", "--robots", robots}, "bad flag syntax"},
		{"flag name with a newline", []string{"check", "--robots", robots, "--agent", "x", "--bo\ngus", "/"}, `unknown flag --bo\ngus`},
		{"bad syntax with a newline", []string{"check", "-=x\ny", "--robots", robots}, "bad flag syntax"},
		{"command with a newline", []string{"ch\neck"}, `"ch\neck"`},
		{"command of binary bytes", []string{"\x00\xff"}, "unknown command"},
		{"empty command", []string{""}, `unknown command ""`},
	}
}

// TestAbuse_BadUsage: unknown flags, commands and semantics names, also
// with newlines and binary bytes in them, give one line on stderr and
// status 2.
func TestAbuse_BadUsage(t *testing.T) {
	robots := exampleRobots
	for _, tc := range badUsage(robots) {
		status, out, errs, _ := abuse(t, strings.NewReader("/\n"), tc.args...)
		if status != exitUsage || out != "" {
			t.Errorf("%s: status %d, stdout %q; want %d and nothing", tc.name, status, out, exitUsage)
		}
		oneLine(t, tc.name, errs, tc.want)
	}
}

// TestAbuse_StdinJunk: binary junk on standard input is lines that are not
// URLs: each gets one line on stderr, the URLs among them are decided, and
// the status is 1.
func TestAbuse_StdinJunk(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	junk := make([]byte, 1<<20)
	r.Read(junk)
	in := "/first\n" + string(junk) + "\n/last\n"
	status, out, errs, alloc := abuse(t, strings.NewReader(in), "check", "--robots", exampleRobots, "--agent", "ExampleBot")
	if status != exitProblem {
		t.Errorf("status %d, want %d", status, exitProblem)
	}
	if !strings.HasPrefix(out, "allowed\t/first\n") || !strings.HasSuffix(out, "allowed\t/last\n") {
		t.Errorf("output starts %q, ends %q", out[:min(len(out), 40)], out[max(0, len(out)-40):])
	}
	noTrace(t, "junk on stdin", errs)
	for _, l := range strings.SplitAfter(strings.TrimSuffix(errs, "\n"), "\n") {
		if !strings.HasPrefix(l, "robotstxt: line ") {
			t.Errorf("stderr line %q is not \"robotstxt: line N: ...\"", l)
			break
		}
		if len(l) > 4*(maxQuotedText+maxQuotedPath)+150 {
			t.Errorf("stderr line of %d bytes: a bad line is echoed whole", len(l))
			break
		}
	}
	if alloc > abuseMemory {
		t.Errorf("allocated %d MiB, want at most %d", alloc>>20, abuseMemory>>20)
	}
}

// procResult is how a process ended.
type procResult struct {
	code   int            // exit status, -1 when killed by a signal
	signal syscall.Signal // the signal, when killed by one
	stderr string
}

// runBinary runs the binary with a watchdog of 60 s.
func runBinary(t *testing.T, cmd *exec.Cmd) procResult {
	t.Helper()
	var errb bytes.Buffer
	if cmd.Stderr == nil {
		cmd.Stderr = &errb
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%q did not end within 60 s", cmd.Args)
	}
	res := procResult{code: cmd.ProcessState.ExitCode(), stderr: errb.String()}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		res.signal = ws.Signal()
	}
	noTrace(t, fmt.Sprintf("%q", cmd.Args), res.stderr)
	return res
}

// TestAbuse_Binary runs the real command: the exit statuses the operating
// system sees, and no stack trace on any hostile input.
func TestAbuse_Binary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := binary(t)
	robots := hostileRobots(t)

	t.Run("bad usage", func(t *testing.T) {
		for _, tc := range badUsage(exampleRobots) {
			if a := strings.Join(tc.args, ""); strings.Contains(a, "\x00") || len(a) > 100<<10 {
				continue // a process argument holds no NUL, and at most 128 KiB on Linux
			}
			cmd := exec.Command(bin, tc.args...)
			cmd.Stdin = strings.NewReader("/\n")
			var out bytes.Buffer
			cmd.Stdout = &out
			res := runBinary(t, cmd)
			if res.code != exitUsage || out.Len() != 0 {
				t.Errorf("%s: exit %d, stdout %q; want %d and nothing", tc.name, res.code, out.String(), exitUsage)
			}
			oneLine(t, tc.name, res.stderr, tc.want)
		}
	})

	t.Run("hostile robots", func(t *testing.T) {
		for name, path := range robots {
			for _, args := range [][]string{
				{"check", "--robots", path, "--agent", "Googlebot", "/", "/a/x/y"},
				{"lint", path},
				{"dump", "--robots", path, "--agent", "Googlebot"},
			} {
				cmd := exec.Command(bin, args...)
				cmd.Stdout = io.Discard
				res := runBinary(t, cmd)
				if res.code != exitOK && !(args[0] == "lint" && res.code == exitProblem) {
					t.Errorf("%s %s: exit %d (stderr %q)", args[0], name, res.code, res.stderr)
				}
				var want []string // lint reports in its findings, not in warnings
				if args[0] != "lint" {
					want = hostileWarnings[name]
				}
				checkWarnings(t, args[0]+" "+name, res.stderr, want)
			}
		}
	})

	t.Run("10 MB line on stdin", func(t *testing.T) {
		cmd := exec.Command(bin, "check", "--robots", exampleRobots, "--agent", "ExampleBot")
		cmd.Stdin = strings.NewReader("/search\n/" + strings.Repeat("x", 10<<20) + "\n/\n")
		var out bytes.Buffer
		cmd.Stdout = &out
		res := runBinary(t, cmd)
		if res.code != exitProblem {
			t.Errorf("exit %d, want %d", res.code, exitProblem)
		}
		if out.String() != "disallowed\t/search\nerror\t/"+strings.Repeat("x", maxQuotedText-1)+"...\nallowed\t/\n" {
			t.Errorf("output %q", out.String())
		}
		oneLine(t, "10 MB line", res.stderr, "line 2: too long")
	})

	t.Run("stdout closed before the first write", func(t *testing.T) {
		for _, args := range [][]string{
			{"check", "--robots", exampleRobots, "--agent", "ExampleBot", "/search", "/"},
			{"check", "--robots", exampleRobots, "--agent", "ExampleBot", "--urls", exampleURLs},
			{"lint", robots["binary"]},
			{"dump", "--robots", exampleRobots, "--agent", "ExampleBot"},
			{"help"},
		} {
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			pr.Close() // no reader: the first write fails with EPIPE
			cmd := exec.Command(bin, args...)
			cmd.Stdout = pw
			res := runBinary(t, cmd)
			pw.Close()
			// doc.go: the operating system ends the command with SIGPIPE;
			// a quiet exit is as good.
			if res.signal != syscall.SIGPIPE && res.code != exitOK && res.code != exitProblem {
				t.Errorf("%s: exit %d signal %v; want SIGPIPE", args[0], res.code, res.signal)
			}
			if res.stderr != "" {
				t.Errorf("%s: stderr %q after the reader went away; want nothing", args[0], res.stderr)
			}
		}
	})

	t.Run("stdout full", func(t *testing.T) {
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Skip("no /dev/full")
		}
		defer full.Close()
		for _, args := range [][]string{
			{"check", "--robots", exampleRobots, "--agent", "ExampleBot", "/search", "/"},
			{"lint", robots["binary"]},
			{"dump", "--robots", exampleRobots, "--agent", "ExampleBot"},
		} {
			cmd := exec.Command(bin, args...)
			cmd.Stdout = full
			res := runBinary(t, cmd)
			if res.code != exitProblem {
				t.Errorf("%s: exit %d, want %d (the output could not be written)", args[0], res.code, exitProblem)
			}
			oneLine(t, args[0]+" to /dev/full", res.stderr, "writing output")
		}
	})

	t.Run("stdin a directory", func(t *testing.T) {
		d, err := os.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		cmd := exec.Command(bin, "check", "--robots", exampleRobots, "--agent", "ExampleBot")
		cmd.Stdin = d
		res := runBinary(t, cmd)
		if res.code != exitUsage {
			t.Errorf("exit %d, want %d", res.code, exitUsage)
		}
		oneLine(t, "stdin a directory", res.stderr, "reading URLs")
	})

	t.Run("unreadable URL input", func(t *testing.T) {
		cmd := exec.Command(bin, "check", "--robots", exampleRobots, "--agent", "ExampleBot", "--urls", t.TempDir())
		res := runBinary(t, cmd)
		if res.code != exitUsage {
			t.Errorf("exit %d, want %d", res.code, exitUsage)
		}
		oneLine(t, "--urls DIR", res.stderr, "is a directory")
	})
}

// errAbuse is an error for the writer tests.
var errAbuse = errors.New("abuse")

// TestAbuse_WriterErrors: an output that fails (not a closed pipe) is one
// line on stderr and status 1, for every command, and nothing more is
// written after the first failure.
func TestAbuse_WriterErrors(t *testing.T) {
	for _, args := range [][]string{
		{"check", "--robots", exampleRobots, "--agent", "ExampleBot", "/search", "/"},
		{"lint", writeFile(t, "bad.txt", strings.Repeat("Foo: bar\n", 1000))},
		{"dump", "--robots", exampleRobots, "--agent", "ExampleBot"},
	} {
		w := &failingWriter{limit: 5, err: errAbuse}
		var errb bytes.Buffer
		status := run(args, strings.NewReader(""), w, &errb)
		if status != exitProblem {
			t.Errorf("%s: status %d, want %d", args[0], status, exitProblem)
		}
		oneLine(t, args[0], errb.String(), "abuse")
		if w.failedCalls != 1 {
			t.Errorf("%s: %d failed writes, want 1", args[0], w.failedCalls)
		}
	}
}
