package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/internal/gen"
)

// cliURLs is the most URLs BenchmarkCLI feeds a command.
const cliURLs = 1_000_000

var (
	tempMu   sync.Mutex
	tempDirs []string
)

// tempDir makes a directory that TestMain removes at the end of the run
// (b.TempDir would be removed between the several calls testing makes to
// one benchmark, and the setup here is worth keeping).
func tempDir(tb testing.TB) string {
	d, err := os.MkdirTemp("", "robotstxt-bench-")
	if err != nil {
		tb.Fatal(err)
	}
	tempMu.Lock()
	tempDirs = append(tempDirs, d)
	tempMu.Unlock()
	return d
}

func cleanupTemp() {
	tempMu.Lock()
	defer tempMu.Unlock()
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
}

// cliFiles are the commands and inputs of BenchmarkCLI, made once per run
// in dir.
type cliFiles struct {
	once                       sync.Once
	err                        error
	bin, libcheck, robots, dir string
}

var cliSetup cliFiles

// cliSizes are the URL counts BenchmarkCLI feeds each command: one (the
// start-up), the 200,000 of issue 14's goal, and a million.
var cliSizes = []int{1, 200_000, cliURLs}

// cliPeers are the other libraries BenchmarkCLI runs as whole processes
// (cmd/libcheck), with the largest URL count each is given (temoto takes
// seconds for 200,000).
var cliPeers = []struct {
	name    string
	maxURLs int
}{{"slyrz", cliURLs}, {"temoto", 200_000}}

// setupCLI builds ../cmd/robotstxt and ./cmd/libcheck, and writes the
// robots.txt (the large generated file) and a URL file for each of
// cliSizes, once per run.
func setupCLI(b *testing.B) *cliFiles {
	s := &cliSetup
	s.once.Do(func() {
		s.dir = tempDir(b)
		s.bin = filepath.Join(s.dir, "robotstxt")
		s.libcheck = filepath.Join(s.dir, "libcheck")
		for _, c := range []struct{ out, pkg, dir string }{{s.bin, "./cmd/robotstxt", ".."}, {s.libcheck, "./cmd/libcheck", "."}} {
			cmd := exec.Command("go", "build", "-o", c.out, c.pkg)
			cmd.Dir = c.dir
			if out, err := cmd.CombinedOutput(); err != nil {
				s.err = &buildError{pkg: c.pkg, err: err, out: string(out)}
				return
			}
		}
		body := gen.Robots(500, 2, true)
		s.robots = filepath.Join(s.dir, "robots.txt")
		if s.err = os.WriteFile(s.robots, body, 0o644); s.err != nil {
			return
		}
		urls := gen.URLs(body, cliURLs, 4)
		for _, n := range cliSizes {
			if s.err = writeLines(cliURLFile(s.dir, n), urls[:n]); s.err != nil {
				return
			}
		}
	})
	if s.err != nil {
		b.Fatal(s.err)
	}
	return s
}

func cliURLFile(dir string, n int) string {
	return filepath.Join(dir, fmt.Sprintf("urls-%d.txt", n))
}

func writeLines(name string, lines []string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for _, l := range lines {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

type buildError struct {
	pkg string
	err error
	out string
}

func (e *buildError) Error() string {
	return "go build " + e.pkg + ": " + e.err.Error() + "\n" + e.out
}

// BenchmarkCLI measures the command line end to end, as whole processes:
// one op of CLI/robotstxt/N runs `robotstxt check --robots FILE --agent
// Googlebot --semantics google --urls URLFILE > /dev/null` on N generated
// URLs (the large generated robots.txt; N of cliSizes), and reports
// URLs/s. CLI/slyrz/N and CLI/temoto/N run cmd/libcheck, the same command
// for those libraries (they have none), on the same files. Skipped in
// -short mode.
func BenchmarkCLI(b *testing.B) {
	if testing.Short() {
		b.Skip("-short: the CLI processes are skipped")
	}
	s := setupCLI(b)
	for _, n := range cliSizes {
		b.Run(fmt.Sprintf("robotstxt/%d", n), func(b *testing.B) {
			runCLI(b, n, s.bin, "check", "--robots", s.robots, "--agent", Agent, "--semantics", "google", "--urls", cliURLFile(s.dir, n))
		})
	}
	for _, p := range cliPeers {
		for _, n := range cliSizes[1:] {
			if n > p.maxURLs {
				continue
			}
			b.Run(fmt.Sprintf("%s/%d", p.name, n), func(b *testing.B) {
				runCLI(b, n, s.libcheck, "-lib", p.name, "-robots", s.robots, "-agent", Agent, "-urls", cliURLFile(s.dir, n))
			})
		}
	}
}

// runCLI runs the command b.N times, its output to /dev/null, and reports
// the URLs it decides per second.
func runCLI(b *testing.B, urls int, name string, args ...string) {
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(name, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr // Stdout stays nil: /dev/null
		if err := cmd.Run(); err != nil {
			b.Fatalf("%s: %v\n%s", filepath.Base(name), err, stderr.Bytes())
		}
	}
	b.ReportMetric(float64(urls)*float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
}

// cliThrash are the files of BenchmarkCLIThrashing, written once per run:
// per thrashing shape its robots.txt and a URL file per URL set.
var cliThrash = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "robotstxt-bench-thrash-")
	if err != nil {
		return "", err
	}
	tempMu.Lock()
	tempDirs = append(tempDirs, dir)
	tempMu.Unlock()
	for _, c := range gen.Thrashing(1) {
		if err := os.WriteFile(filepath.Join(dir, c.Name+".txt"), c.Body, 0o644); err != nil {
			return "", err
		}
		for set, urls := range map[string][]string{"short": c.Short, "2KiB": c.Medium, "64KiB": {c.Long}} {
			if err := writeLines(filepath.Join(dir, c.Name+"-"+set+".urls"), urls); err != nil {
				return "", err
			}
		}
	}
	return dir, nil
})

// BenchmarkCLIThrashing measures `robotstxt check` and cmd/libcheck's
// slyrz as whole processes on the thrashing shapes (gen.Thrashing), each
// with its 2,000 short URLs, 20 of 2 KiB and one of 64 KiB, and reports
// the larger peak RSS of the runs (maxRSS-MiB). Skipped in -short mode.
func BenchmarkCLIThrashing(b *testing.B) {
	if testing.Short() {
		b.Skip("-short: the CLI processes are skipped")
	}
	s := setupCLI(b)
	dir, err := cliThrash()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range gen.Thrashing(1) {
		for _, set := range []string{"short", "2KiB", "64KiB"} {
			robots, urls := filepath.Join(dir, c.Name+".txt"), filepath.Join(dir, c.Name+"-"+set+".urls")
			b.Run(fmt.Sprintf("robotstxt/%s-%s", c.Name, set), func(b *testing.B) {
				runProcess(b, s.bin, "check", "--robots", robots, "--agent", Agent, "--semantics", "google", "--urls", urls)
			})
			b.Run(fmt.Sprintf("slyrz/%s-%s", c.Name, set), func(b *testing.B) {
				runProcess(b, s.libcheck, "-lib", "slyrz", "-robots", robots, "-agent", Agent, "-urls", urls)
			})
		}
	}
}

// runProcess runs the command b.N times, its output to /dev/null, and,
// where /usr/bin/time is installed, reports the largest peak RSS of its runs
// (maxRSS-MiB). The peak is read by /usr/bin/time because Go starts a child
// sharing the benchmark's own memory until it execs, so that the child's
// rusage counts the benchmark's pages.
func runProcess(b *testing.B, name string, args ...string) {
	timeCmd, err := exec.LookPath("/usr/bin/time")
	maxRSS := int64(-1)
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(name, args...)
		if err == nil {
			cmd = exec.Command(timeCmd, append([]string{"-f", "maxrss %M", name}, args...)...)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			b.Fatalf("%s: %v\n%s", filepath.Base(name), err, stderr.Bytes())
		}
		if i := bytes.LastIndex(stderr.Bytes(), []byte("maxrss ")); i >= 0 {
			var kib int64
			if _, err := fmt.Sscanf(string(stderr.Bytes()[i:]), "maxrss %d", &kib); err == nil {
				maxRSS = max(maxRSS, kib)
			}
		}
	}
	if maxRSS >= 0 {
		b.ReportMetric(float64(maxRSS)/1024, "maxRSS-MiB")
	}
}
