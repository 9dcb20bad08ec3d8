package bench

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
)

// Agent is the crawler every benchmark decides for. The generated files
// have a group for it (and a "*" group), so agent selection is exercised.
const Agent = "Googlebot"

var corpusFlag = flag.String("corpus", "", "corpus directory (default: $ROBOTSTXT_CORPUS, else shared/corpus beside the checkout when present)")

// corpusDir returns the corpus directory, or "" when there is none
// (TestMain has refused a $ROBOTSTXT_CORPUS that names no corpus).
func corpusDir() string {
	if *corpusFlag != "" {
		return *corpusFlag
	}
	d, _ := corpus.Find()
	return d
}

// sink and sinkBool keep results alive so that the compiler cannot drop
// the work.
var (
	sink     any
	sinkBool bool
)

// input is a named robots.txt with the URLs decided against it.
type input struct {
	name string
	body []byte
	urls []string
}

func (in input) avgURLLen() int64 {
	n := 0
	for _, u := range in.urls {
		n += len(u)
	}
	return int64(n / max(1, len(in.urls)))
}

// namedFiles are the real files that BenchmarkParse and BenchmarkDecide use
// when the corpus is present (the corpus has no www.google.com.txt nor
// www.amazon.com.txt: google.com.txt and amazon.com.txt are those sites).
var namedFiles = []string{"google.com.txt", "en.wikipedia.org.txt", "amazon.com.txt"}

// decideURLs is the number of URLs BenchmarkDecide cycles through per input.
const decideURLs = 1000

var (
	inputsOnce sync.Once
	inputs     []input
)

// benchInputs returns the inputs of BenchmarkParse and BenchmarkDecide:
// small (10 literal rules), large (500 rules with wildcards), and the named
// corpus files when the corpus is present, each with 1,000 generated URLs.
func benchInputs() []input {
	inputsOnce.Do(func() {
		add := func(name string, body []byte) {
			inputs = append(inputs, input{name: name, body: body, urls: gen.URLs(body, decideURLs, 3)})
		}
		add("small", gen.Robots(10, 1, false))
		add("large", gen.Robots(500, 2, true))
		if dir := corpusDir(); dir != "" {
			for _, f := range namedFiles {
				body, err := os.ReadFile(filepath.Join(dir, "files", f))
				if err != nil {
					fmt.Fprintf(os.Stderr, "bench: corpus file %s: %v (skipped)\n", f, err)
					continue
				}
				add(strings.TrimSuffix(f, ".txt"), body)
			}
		}
	})
	return inputs
}

// variant is one way of calling a library: through Allowed(agent, url), or
// bound to the agent once ("-bound") where the library can.
type variant struct {
	name  string
	lib   Library
	bound bool
}

// variants lists every library unbound (unless it is BoundOnly), and bound
// where it is a Binder.
func variants() []variant {
	var vs []variant
	probe := []byte("User-agent: *\nDisallow: /x\n")
	for _, lib := range Libraries {
		if !lib.BoundOnly {
			vs = append(vs, variant{name: lib.Name, lib: lib})
		}
		if r, err := lib.Parse(probe); err == nil {
			if _, ok := r.(Binder); ok {
				vs = append(vs, variant{name: lib.Name + "-bound", lib: lib, bound: true})
			}
		}
	}
	return vs
}

func (v variant) prepare(body []byte) (func(string) bool, error) {
	if v.bound {
		d, _, err := Prepare(v.lib, body, Agent)
		return d, err
	}
	r, err := v.lib.Parse(body)
	if err != nil {
		return nil, err
	}
	return func(url string) bool { return r.Allowed(Agent, url) }, nil
}

// guards caches the outcome of each guarded first run by key, so that the
// several calls testing makes to one benchmark function probe it once.
var guards sync.Map // string -> string ("" when it passed, else why it was skipped)

// skipped records every input a library was skipped on, printed at the end
// of the run by TestMain.
var skipped struct {
	sync.Mutex
	lines []string
}

func noteSkip(format string, args ...any) string {
	msg := fmt.Sprintf(format, args...)
	skipped.Lock()
	defer skipped.Unlock()
	for _, l := range skipped.lines {
		if l == msg {
			return msg
		}
	}
	skipped.lines = append(skipped.lines, msg)
	return msg
}

func skipReport() []string {
	skipped.Lock()
	defer skipped.Unlock()
	out := append([]string(nil), skipped.lines...)
	sort.Strings(out)
	return out
}

// guard runs the first run of the benchmark named key (see probeFunc) once
// per test run, in a child process killed after d, and skips b (now and on
// every later call with key) if it overran, failed or panicked. A child
// process, not a goroutine, because Go cannot stop a goroutine: one left
// running would share the CPU with every later measurement. Benchmarks call
// it before timing so that no library can hang the suite or fail it.
func guard(b *testing.B, key string, d time.Duration) {
	b.Helper()
	why, seen := guards.Load(key)
	if !seen {
		why = ""
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), d)
		cmd := helperCommand(ctx, "probe", key)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		overran := ctx.Err() == context.DeadlineExceeded
		cancel()
		switch {
		case overran:
			why = noteSkip("%s: over the %v cap (killed after %v; skipped)", key, d, time.Since(start).Round(time.Millisecond))
		case err != nil:
			msg := strings.TrimSpace(stderr.String())
			if msg == "" {
				msg = err.Error()
			}
			why = noteSkip("%s: %s (skipped)", key, firstLine(msg))
		}
		guards.Store(key, why)
	}
	if why != "" {
		b.Skip(why)
	}
}

// helperEnv names the environment variable that makes the test binary a
// helper process (see runHelper) instead of running tests.
const helperEnv = "ROBOTSTXT_BENCH_HELPER"

// helperCommand returns the command that runs this test binary as a helper
// with args, with the run's -short and -corpus settings.
func helperCommand(ctx context.Context, args ...string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	cmd := exec.CommandContext(ctx, exe, "-test.short="+strconv.FormatBool(testing.Short()), "-corpus="+corpusDir())
	cmd.Env = append(os.Environ(), helperEnv+"="+strings.Join(args, "\t"))
	return cmd
}

// runHelper is the helper process's main: "probe KEY" runs probeFunc(KEY)
// and exits 0, or prints the error and exits 1; "corpus LIB FROM" is
// corpusHelper.
func runHelper(spec string) int {
	args := strings.Split(spec, "\t")
	var err error
	switch {
	case len(args) == 2 && args[0] == "probe":
		var f func() error
		if f, err = probeFunc(args[1]); err == nil {
			err = f()
		}
	case len(args) == 3 && args[0] == "corpus":
		// The results go to the real stdout; whatever a library prints
		// (benjaminestes/robots prints "oh no! ..." when a rule is not
		// a valid regular expression) goes to stderr, not into them.
		out := os.Stdout
		os.Stdout = os.Stderr
		err = corpusHelper(args[1], args[2], out)
	default:
		err = fmt.Errorf("bad %s %q", helperEnv, spec)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// probeFunc returns the first run of the guarded benchmark named key:
// "Parse/LIB/INPUT" (also "FirstDecision/LIB/INPUT"), "Decide/VARIANT/INPUT", "DecideDistinct/LIB", "Adversarial/LIB/INPUT", "Thrashing/LIB/INPUT" or
// "Scaling/rules=N". The benchmarks time the same functions.
func probeFunc(key string) (func() error, error) {
	p := strings.Split(key, "/")
	switch {
	case len(p) == 3 && (p[0] == "Parse" || p[0] == "FirstDecision"):
		lib, err := LibraryNamed(p[1])
		if err != nil {
			return nil, err
		}
		in, err := inputNamed(benchInputs(), p[2])
		return func() error { return parseRun(lib, in) }, err // FirstDecision: and one URL, which Decide's guard covers
	case len(p) == 3 && p[0] == "Decide":
		for _, v := range variants() {
			if v.name == p[1] {
				in, err := inputNamed(benchInputs(), p[2])
				return func() error { return decideRun(v, in) }, err
			}
		}
		return nil, fmt.Errorf("no variant %q", p[1])
	case len(p) == 2 && p[0] == "DecideDistinct":
		lib, err := LibraryNamed(p[1])
		if err != nil {
			return nil, err
		}
		return func() error { _, err := distinctRun(lib); return err }, nil
	case len(p) == 3 && (p[0] == "Adversarial" || p[0] == "Thrashing"):
		lib, err := LibraryNamed(p[1])
		if err != nil {
			return nil, err
		}
		ins := adversarialInputs()
		if p[0] == "Thrashing" {
			ins = thrashingInputs()
		}
		in, err := inputNamed(ins, p[2])
		return func() error { return adversarialRun(lib, in) }, err
	case len(p) == 2 && p[0] == "Scaling":
		var n int
		if _, err := fmt.Sscanf(p[1], "rules=%d", &n); err != nil {
			return nil, err
		}
		return func() error { scalingCompile(n); return nil }, nil
	}
	return nil, fmt.Errorf("unknown benchmark key %q", key)
}

// inputNamed returns the input of ins called name.
func inputNamed(ins []input, name string) (input, error) {
	for _, in := range ins {
		if in.name == name {
			return in, nil
		}
	}
	return input{}, fmt.Errorf("no input %q", name)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " ..."
	}
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}
