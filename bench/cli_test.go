package bench

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/internal/gen"
)

// cliURLs is the number of URLs BenchmarkCLI feeds the CLI.
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

var cliSetup struct {
	once              sync.Once
	err               error
	bin, robots, urls string
}

// setupCLI builds ../cmd/robotstxt and writes the robots.txt (the large
// generated file) and the URL file, once per run.
func setupCLI(b *testing.B) (bin, robots, urls string) {
	s := &cliSetup
	s.once.Do(func() {
		dir := tempDir(b)
		s.bin = filepath.Join(dir, "robotstxt")
		cmd := exec.Command("go", "build", "-o", s.bin, "./cmd/robotstxt")
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			s.err = &buildError{err: err, out: string(out)}
			return
		}
		body := gen.Robots(500, 2, true)
		s.robots = filepath.Join(dir, "robots.txt")
		if s.err = os.WriteFile(s.robots, body, 0o644); s.err != nil {
			return
		}
		s.urls = filepath.Join(dir, "urls.txt")
		f, err := os.Create(s.urls)
		if err != nil {
			s.err = err
			return
		}
		w := bufio.NewWriterSize(f, 1<<20)
		for _, u := range gen.URLs(body, cliURLs, 4) {
			w.WriteString(u)
			w.WriteByte('\n')
		}
		if s.err = w.Flush(); s.err == nil {
			s.err = f.Close()
		}
	})
	if s.err != nil {
		b.Fatal(s.err)
	}
	return s.bin, s.robots, s.urls
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string {
	return "go build ./cmd/robotstxt: " + e.err.Error() + "\n" + e.out
}

// BenchmarkCLI measures the command line end to end: one op runs
// `robotstxt check --robots FILE --agent Googlebot --semantics google
// --urls URLFILE > /dev/null` on 1,000,000 generated URLs (the large
// generated robots.txt), and reports URLs/s. Skipped in -short mode.
func BenchmarkCLI(b *testing.B) {
	if testing.Short() {
		b.Skip("-short: the million-URL CLI run is skipped")
	}
	bin, robots, urls := setupCLI(b)
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin, "check", "--robots", robots, "--agent", Agent, "--semantics", "google", "--urls", urls)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr // Stdout stays nil: /dev/null
		if err := cmd.Run(); err != nil {
			b.Fatalf("robotstxt check: %v\n%s", err, stderr.Bytes())
		}
	}
	elapsed := time.Since(start)
	b.ReportMetric(float64(cliURLs)*float64(b.N)/elapsed.Seconds(), "URLs/s")
}
