package engine_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/automaton"
	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
	"github.com/seed-275a9bd5/robotstxt/internal/race"
	"github.com/seed-275a9bd5/robotstxt/internal/reference"
)

// The bounds the adversarial inputs (internal/gen.Adversarial) are held to.
// None of them is a wall-clock bound: compile time is measured and reported
// (t.Log, and BenchmarkAdversarial_Compile), never asserted; the watchdog
// only turns a hang into a failure.
const (
	// adversarialSeed makes the cases; any seed must pass.
	adversarialSeed = 20251121

	// maxCompileMemory bounds what compiling one file and building one
	// matcher may keep (HeapInuse after a GC): 64 MiB, 128 times the 500
	// KiB a file may have. A crawler compiles thousands of files; a file an
	// attacker writes must not cost more than a small multiple of a normal
	// one.
	maxCompileMemory = 64 << 20

	// maxCompileAllocation bounds what compiling may allocate in all
	// (TotalAlloc, garbage included): the states are built lazily, so
	// compiling is parsing plus laying out the patterns, linear in the
	// file; the worst case (500 KiB of short rules) allocates about 11
	// MiB.
	maxCompileAllocation = 128 << 20

	// maxCacheSlack is what a matcher's automaton may hold past its cache
	// budget (automaton.DefaultCacheBytes): the positions of its patterns,
	// at most the file's 500 KiB, and one state past the budget.
	maxCacheSlack = 2 << 20

	// compileWatchdog is how long one compile may run before the test
	// gives up on it: a hang guard, not a performance bound (the goal is
	// 100 ms for any 500 KiB file; see BenchmarkAdversarial_Compile).
	compileWatchdog = 60 * time.Second

	// referenceURLs bounds the URLs compared per case, semantics and agent.
	referenceURLs = 16
)

// adversarialCases are gen.Adversarial's cases and the thrashing shapes.
var adversarialCases = sync.OnceValue(func() []gen.Case {
	return append(gen.Adversarial(adversarialSeed), gen.ThrashCases(adversarialSeed)...)
})

var allSemantics = []engine.Semantics{engine.RFC9309, engine.Google, engine.Koster1996}

// adversarialAgentSets are the crawlers decided for: the cases' own agents
// (specific groups), several tokens at once, and a stranger ("*" groups).
var adversarialAgentSets = [][]string{{"Googlebot"}, {"AdversarialBot", "Googlebot"}, {"OtherBot"}}

// childEnv names the case and semantics a child process of
// TestAdversarial works on ("case<TAB>semantics").
const childEnv = "ROBOTSTXT_ADVERSARIAL_CHILD"

// childResult is what a child reports. It reports it after each phase
// (compile, engine decisions, reference decisions) as one line
// childPhasePrefix + phase + " " + JSON, so that the parent can say which
// phase passed the watchdog and still check what the finished ones measured.
type childResult struct {
	Phase         string // the last phase done: "compiled", "decided" or "compared"
	CompileNS     int64
	TotalAlloc    uint64 // bytes allocated by compile and matcher
	HeapInuse     int64  // heap in use after a GC, more than before the compile
	Stats         engine.Stats
	LongDecideNS  int64    // mean over the long URLs of one decision each (information only, never asserted)
	AllocFailures []string // decisions that allocated once their states were built, or by the fallback
	// Rebuilt counts the URLs whose states were built again while they were
	// decided again: their states did not fit in the cache at once, or the
	// DFA gave up on them and its probes built some (allocating, which is
	// bounded and counted, not a failure: the fallback that decides them
	// allocates nothing, FallbackAllocs).
	Rebuilt       int
	Compared      int // decisions compared with the reference
	Disagreements []string
}

// The phases of a child, in order.
const (
	phaseCompiled = "compiled"
	phaseDecided  = "decided"
	phaseCompared = "compared"
)

const (
	childPhasePrefix = "ADVERSARIAL-PHASE "
	maxReported      = 8 // failures a child reports per kind
)

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// TestAdversarial compiles every adversarial case (internal/gen.Adversarial)
// in every semantics (RFC9309 only with -short) and holds it to the bounds
// above: compile memory, automaton size, the number of automata (passes per
// URL byte), decisions on short and 64 KiB URLs that allocate nothing, and
// agreement with the reference matcher (reference.DecideFile) on the URLs it can
// afford. It logs one line per case with what it measured.
//
// Each case runs in a child process (this test binary, TestAdversarialChild):
// memory is measured in a clean heap, and a compile that passes
// compileWatchdog is killed, so that a slow automaton fails the test instead
// of hanging it or slowing the cases after it.
func TestAdversarial(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("in a child")
	}
	if race.Enabled {
		t.Skip("resources are measured without -race (the race detector multiplies time and memory); TestAdversarial_Concurrent is the race test")
	}
	sems := allSemantics
	if testing.Short() {
		sems = sems[:1]
	}
	for _, c := range adversarialCases() {
		for _, sem := range sems {
			t.Run(c.Name+"/"+sem.String(), func(t *testing.T) {
				if testing.Short() && strings.HasPrefix(c.Name, "thrash-") {
					t.Skip("-short: the thrashing shapes take seconds each here; TestThrashing_FallbackDecides runs them in -short too")
				}
				if dl, ok := t.Deadline(); ok && time.Until(dl) < 2*compileWatchdog+10*time.Second {
					t.Fatalf("not run: the test binary's -timeout is too close")
				}
				res := runChild(t, c.Name, sem)
				if res.Phase == "" {
					return
				}
				st := res.Stats
				t.Logf("%-24s %-10s compile %9.1f ms  alloc %10s  heap %9s  rules %5d  patterns %5d  states %7d  classes %5d  cache %9s  clears %4d  rebuilt %d  decide(64KiB) %9.1f µs",
					c.Name, sem, float64(res.CompileNS)/1e6, mib(int64(res.TotalAlloc)), mib(res.HeapInuse),
					st.Rules, st.Patterns, st.States, st.Classes, mib(int64(st.Bytes)), st.Clears, res.Rebuilt, float64(res.LongDecideNS)/1e3)
				if res.TotalAlloc > maxCompileAllocation {
					t.Errorf("compile allocated %s, want at most %s (maxCompileAllocation)", mib(int64(res.TotalAlloc)), mib(maxCompileAllocation))
				}
				if res.HeapInuse > maxCompileMemory {
					t.Errorf("compiled file and matcher hold %s, want at most %s (maxCompileMemory)", mib(res.HeapInuse), mib(maxCompileMemory))
				}
				if limit := automaton.DefaultCacheBytes + maxCacheSlack; st.Bytes > limit {
					t.Errorf("the automaton holds %s, want at most %s (DefaultCacheBytes and its patterns)", mib(int64(st.Bytes)), mib(int64(limit)))
				}
				for _, f := range res.AllocFailures {
					t.Errorf("%s, want 0", f)
				}
				for _, d := range res.Disagreements {
					t.Errorf("engine and reference disagree: %s", d)
				}
				if res.Phase == phaseCompared && res.Compared == 0 {
					t.Errorf("no decision compared with the reference")
				}
				// A thrashing shape sends its URLs to the piece matcher,
				// whose cost per byte does not grow with the patterns alive.
				if strings.HasPrefix(c.Name, "thrash-") && sem != engine.Koster1996 && res.Phase != phaseCompiled && st.Pieces == 0 {
					t.Errorf("the piece matcher decided none of the URLs of a thrashing shape: %+v", st)
				}
			})
		}
	}
}

// runChild runs TestAdversarialChild for one case and semantics and
// returns the result of the last phase it finished (Phase "" if none). Each
// phase may take compileWatchdog; a child that passes it is killed and the
// test fails, naming the phase.
func runChild(t *testing.T, name string, sem engine.Semantics) childResult {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestAdversarialChild$", "-test.timeout=0")
	cmd.Env = append(os.Environ(), childEnv+"="+name+"\t"+sem.String())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	defer func() {
		cmd.Process.Kill()
		for range lines { // drain, so that the reader ends
		}
		cmd.Wait()
	}()
	var res childResult
	var other strings.Builder // the child's other output, for a failure message
	next := map[string]string{"": "compile and matcher", phaseCompiled: "engine decisions (64 KiB URLs, allocation checks)", phaseDecided: "the other crawlers' matchers and the reference decisions"}
	timer := time.NewTimer(compileWatchdog)
	defer timer.Stop()
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				cmd.Wait()
				t.Errorf("%s %s: the child ended during %s (%v):\n%s%s", name, sem, next[res.Phase], cmd.ProcessState, tail(other.String()), tail(stderr.String()))
				return res
			}
			if !strings.HasPrefix(l, childPhasePrefix) {
				other.WriteString(l + "\n")
				continue
			}
			if err := json.Unmarshal([]byte(l[len(childPhasePrefix):]), &res); err != nil {
				t.Fatalf("%s %s: bad line from the child: %v", name, sem, err)
			}
			if res.Phase == phaseCompared {
				return res
			}
			timer.Reset(compileWatchdog)
		case <-timer.C:
			what := next[res.Phase]
			if res.Phase == "" {
				what += " (goal: 100 ms for any 500 KiB file): automaton construction is not bounded"
			}
			t.Errorf("%s %s: %s did not finish within %v; killed", name, sem, what, compileWatchdog)
			return res
		}
	}
}

// allocsPerRun is testing.AllocsPerRun, asked twice when the first answer
// is not 0: AllocsPerRun counts every goroutine's allocations, and with one
// run a single one of the runtime's is "1 per decision" (seen once in CI).
// An allocation of Decide's shows again.
func allocsPerRun(runs int, f func()) float64 {
	if allocs := testing.AllocsPerRun(runs, f); allocs == 0 {
		return 0
	}
	return testing.AllocsPerRun(runs, f)
}

// tail returns the end of a child's output, for a failure message.
func tail(s string) string {
	if len(s) > 4000 {
		s = "..." + s[len(s)-4000:]
	}
	return s
}

// TestAdversarialChild is the work of one TestAdversarial case, in a child
// process; it does nothing unless childEnv is set.
func TestAdversarialChild(t *testing.T) {
	spec := os.Getenv(childEnv)
	if spec == "" {
		t.Skip("runs only as a child of TestAdversarial")
	}
	name, semName, _ := strings.Cut(spec, "\t")
	sem, err := compile.ParseSemantics(semName)
	if err != nil {
		t.Fatal(err)
	}
	var c gen.Case
	for _, x := range adversarialCases() {
		if x.Name == name {
			c = x
		}
	}
	if c.Name == "" {
		t.Fatalf("no case %q", name)
	}
	var res childResult
	opts := engine.Options{Semantics: sem}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	r := engine.Compile(c.Body, opts)
	m := r.Matcher(adversarialAgentSets[0]...)
	res.CompileNS = time.Since(start).Nanoseconds()
	runtime.ReadMemStats(&after)
	res.TotalAlloc = after.TotalAlloc - before.TotalAlloc
	runtime.GC()
	runtime.ReadMemStats(&after)
	res.HeapInuse = int64(after.HeapInuse) - int64(before.HeapInuse)
	res.Stats = m.Stats()
	report := func(phase string) {
		res.Phase = phase
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println(childPhasePrefix + string(b))
	}
	report(phaseCompiled)

	// A matcher that builds no states: its fallback decides every URL.
	mf := engine.Compile(c.Body, engine.Options{Semantics: sem, CacheBytes: -1}).Matcher(adversarialAgentSets[0]...)
	long, longNS := 0, int64(0)
	for _, u := range c.URLs {
		isLong := len(u) >= gen.LongURL/2
		runs := 3
		if isLong {
			runs = 1
		}
		// The fallback allocates nothing once its scratch is warm.
		mf.Decide(u)
		if allocs := allocsPerRun(runs, func() { mf.Decide(u) }); allocs != 0 && len(res.AllocFailures) < maxReported {
			res.AllocFailures = append(res.AllocFailures, fmt.Sprintf("the fallback's Decide(%.40q... %d bytes) allocates %.0f times", u, len(u), allocs))
		}
		m.Decide(u) // build the states u visits
		before := m.Stats()
		allocs := allocsPerRun(runs, func() { m.Decide(u) })
		if st := m.Stats(); st.Clears != before.Clears || st.GiveUps != before.GiveUps || st.States != before.States {
			res.Rebuilt++
			continue
		}
		if allocs != 0 && len(res.AllocFailures) < maxReported {
			res.AllocFailures = append(res.AllocFailures, fmt.Sprintf("Decide(%.40q... %d bytes) allocates %.0f times", u, len(u), allocs))
		}
		if isLong {
			start := time.Now()
			m.Decide(u)
			longNS += time.Since(start).Nanoseconds()
			long++
		}
	}
	if long > 0 {
		res.LongDecideNS = longNS / int64(long)
	}
	res.Stats = m.Stats() // with the states the URLs built
	report(phaseDecided)

	// The first URLs and the last (the longest), none left out for what it
	// costs the reference.
	urls := c.URLs
	if len(urls) > referenceURLs {
		urls = append(append([]string(nil), urls[:referenceURLs-4]...), urls[len(urls)-4:]...)
	}
	f := reference.Parse(c.Body, sem)
	for _, agents := range adversarialAgentSets {
		m := r.Matcher(agents...)
		for _, u := range urls {
			got, want := m.Decide(u), reference.DecideFile(f, agents, u)
			res.Compared++
			if (got.Allowed != want.Allowed || got.Rule.Line != want.Line) && len(res.Disagreements) < maxReported {
				rep := reference.Reproducer(c.Body, agents, u, sem)
				if len(rep) > 2000 {
					rep = fmt.Sprintf("(body of %d bytes: gen.Adversarial(%d), case %s; URL of %d bytes)", len(c.Body), adversarialSeed, c.Name, len(u))
				}
				res.Disagreements = append(res.Disagreements, fmt.Sprintf("%s %v %.60q: engine allowed=%v line %d (%s), reference allowed=%v line %d (%s)\n%s",
					sem, agents, u, got.Allowed, got.Rule.Line, got.Reason, want.Allowed, want.Line, want.Reason, rep))
			}
		}
	}
	report(phaseCompared)
}

// TestAdversarial_Truncation: only the first 500 KiB count; a rule past the
// limit decides nothing.
func TestAdversarial_Truncation(t *testing.T) {
	for _, c := range adversarialCases() {
		if c.Name != "oversize-3MiB" {
			continue
		}
		r := engine.Compile(c.Body, engine.Options{})
		f := r.File()
		if !f.Truncated || f.Size != compile.DefaultMaxFileSize {
			t.Errorf("Truncated %v Size %d, want true %d", f.Truncated, f.Size, compile.DefaultMaxFileSize)
		}
		m := r.Matcher("Googlebot")
		if d := m.Decide("/anything"); !d.Allowed {
			t.Errorf("/anything: %+v; the Disallow: / past the size limit decided", d)
		}
		if d := m.Decide("/before-the-limit/x"); d.Allowed {
			t.Errorf("/before-the-limit/x: %+v, want disallowed", d)
		}
		return
	}
	t.Fatal("no oversize case")
}

// TestAdversarial_LineEndings: the same rules decide alike whatever ends
// their lines (docs/SEMANTICS.md section 1.1).
func TestAdversarial_LineEndings(t *testing.T) {
	byName := map[string]gen.Case{}
	for _, c := range adversarialCases() {
		byName[c.Name] = c
	}
	ref := byName[gen.LineEndingCases[0]]
	for _, sem := range allSemantics {
		for _, agents := range adversarialAgentSets {
			want := engine.Compile(ref.Body, engine.Options{Semantics: sem}).Matcher(agents...)
			for _, name := range gen.LineEndingCases[1:] {
				c := byName[name]
				m := engine.Compile(c.Body, engine.Options{Semantics: sem}).Matcher(agents...)
				if got, w := m.Stats().Rules, want.Stats().Rules; got != w {
					t.Errorf("%s %s %v: %d rules, %s has %d", name, sem, agents, got, ref.Name, w)
				}
				for _, u := range ref.URLs {
					if g, w := m.Decide(u), want.Decide(u); g.Allowed != w.Allowed || g.Rule.Line != w.Rule.Line {
						t.Errorf("%s %s %v %.60q: allowed=%v line %d; %s: allowed=%v line %d", name, sem, agents, u, g.Allowed, g.Rule.Line, ref.Name, w.Allowed, w.Rule.Line)
					}
				}
			}
		}
	}
}

// concurrentCases are the cases the concurrency test shares between
// goroutines: all but the ones whose compile is slow under -race (the
// uncached matchers are built anew on every call).
func concurrentCases(t *testing.T) []gen.Case {
	var out []gen.Case
	for _, c := range adversarialCases() {
		switch c.Name {
		case "wildcards-50-overlap", "wildcards-max-size", "star-dictionary-1000", "max-size-tiny-wildcards", "max-size-tiny-rules",
			"binary-junk", "oversize-3MiB", "groups-12000", "agents-20000-lines", "line-16k-wildcards", "line-over-limit":
			continue
		}
		if strings.HasPrefix(c.Name, "thrash-") {
			continue // TestThrashing_HeapUnderConcurrency shares one of them between goroutines
		}
		out = append(out, c)
	}
	// And a realistic file, so that the matchers are of a real size.
	body := gen.Robots(300, 1, true)
	out = append(out, gen.Case{Name: "realistic-300", Body: body, URLs: append(gen.URLs(body, 30, 1), "/"+strings.Repeat("a", gen.LongURL-1))})
	if len(out) < 5 {
		t.Fatalf("only %d cases for the concurrency test", len(out))
	}
	return out
}

// TestAdversarial_Concurrent shares compiled files between goroutines that
// build matchers lazily (more distinct crawlers than engine.MaxCachedMatchers,
// so that both the cached and the uncached path run) and decide at once,
// while others compile the same bodies anew. Every answer must equal the one
// computed alone. Run it with -race.
func TestAdversarial_Concurrent(t *testing.T) {
	cases := concurrentCases(t)
	type key struct {
		c     int
		agent string
		url   int
	}
	agentsFor := func(i int) []string {
		switch i % 4 {
		case 0:
			return []string{"Googlebot"}
		case 1:
			return []string{"AdversarialBot", "Googlebot"}
		case 2:
			return []string{fmt.Sprintf("Bot-%d", i%(engine.MaxCachedMatchers+8))}
		}
		return []string{"OtherBot"}
	}
	shortURLs := func(c gen.Case) []string {
		var out []string
		for _, u := range c.URLs {
			if len(u) < 1024 {
				out = append(out, u)
			}
		}
		return append(out, c.URLs[len(c.URLs)-1]) // and one long URL
	}
	// Answers computed alone, on separate compiles.
	want := map[key]engine.Decision{}
	for ci, c := range cases {
		for i := 0; i < 8; i++ {
			agents := agentsFor(i)
			m := engine.Compile(c.Body, engine.Options{}).Matcher(agents...)
			for ui, u := range shortURLs(c) {
				want[key{ci, strings.Join(agents, ","), ui}] = m.Decide(u)
			}
		}
	}
	shared := make([]*engine.Robots, len(cases))
	for i, c := range cases {
		shared[i] = engine.Compile(c.Body, engine.Options{})
	}
	const goroutines = 16
	iters := 200
	if testing.Short() {
		iters = 60
	}
	var wg sync.WaitGroup
	var failures atomic.Int32
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < iters; i++ {
				ci := (g + i) % len(cases)
				r := shared[ci]
				if (g+i)%17 == 0 {
					r = engine.Compile(cases[ci].Body, engine.Options{}) // a fresh one, racing with the others
				}
				agents := agentsFor(g*iters + i)
				m := r.Matcher(agents...)
				for ui, u := range shortURLs(cases[ci]) {
					w, ok := want[key{ci, strings.Join(agents, ","), ui}]
					d := m.Decide(u)
					if !ok {
						w = engine.Compile(cases[ci].Body, engine.Options{}).Matcher(agents...).Decide(u)
					}
					if d != w && failures.Add(1) <= 5 {
						t.Errorf("%s %v %.60q: concurrent decision %+v, alone %+v", cases[ci].Name, agents, u, d, w)
					}
				}
			}
		}(g)
	}
	wg.Wait()
}

// benchURLs are the long URLs the decide benchmarks use, each at 1 KiB and
// 64 KiB: ns/op (and MB/s, through SetBytes) should scale with the length,
// one pass per automaton.
func benchURLs() []struct{ name, url string } {
	return []struct{ name, url string }{
		{"a", "/" + strings.Repeat("a", gen.LongURL-1)},
		{"pct", "/" + strings.Repeat("%zz", gen.LongURL/3)},
		{"high", "/" + strings.Repeat("\xff", gen.LongURL-1)},
	}
}

// BenchmarkAdversarial_Compile compiles each adversarial case and builds
// the Googlebot matcher: the goal is at most 100 ms for any 500 KiB file.
func BenchmarkAdversarial_Compile(b *testing.B) {
	for _, c := range adversarialCases() {
		b.Run(c.Name, func(b *testing.B) {
			b.SetBytes(int64(len(c.Body)))
			b.ReportAllocs()
			var st engine.Stats
			for i := 0; i < b.N; i++ {
				st = engine.Compile(c.Body, engine.Options{}).Matcher("Googlebot").Stats()
			}
			b.ReportMetric(float64(st.States), "states")
		})
	}
}

// BenchmarkAdversarial_Decide decides 1 KiB and 64 KiB URLs against each
// case; compare the two sizes' MB/s: they should be close (linear time).
func BenchmarkAdversarial_Decide(b *testing.B) {
	for _, c := range adversarialCases() {
		m := engine.Compile(c.Body, engine.Options{}).Matcher("Googlebot")
		for _, u := range benchURLs() {
			for _, size := range []int{1 << 10, gen.LongURL} {
				url := u.url[:min(size, len(u.url))]
				b.Run(fmt.Sprintf("%s/%s-%dKiB", c.Name, u.name, size>>10), func(b *testing.B) {
					b.SetBytes(int64(len(url)))
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						m.Decide(url)
					}
				})
			}
		}
	}
}
