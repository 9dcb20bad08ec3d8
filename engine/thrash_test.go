package engine_test

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
	"github.com/seed-275a9bd5/robotstxt/internal/race"
)

// thrashShapes are the thrashing shapes (gen.Thrashing), made once.
var thrashShapes = sync.OnceValue(func() []gen.ThrashCase { return gen.Thrashing(1) })

// TestThrashing_FallbackDecides decides each thrashing shape's short URLs
// (Google semantics, where '*' is a wildcard): the linear engine's tries
// decide those whose best match they find early, the piece matcher those
// whose tries would cost too much, and the DFA, if the work makes it
// start, gives up on them and stops building: a few states per URL at
// most (the probes'), not one per byte of every URL, and a cache cleared a
// few times at most (a state of these shapes holds thousands of
// positions, so a few dozen fill the cache).
func TestThrashing_FallbackDecides(t *testing.T) {
	n := gen.ThrashShortURLs
	if testing.Short() {
		n = 300
	}
	for _, c := range thrashShapes() {
		t.Run(c.Name, func(t *testing.T) {
			m := engine.Compile(c.Body, engine.Options{Semantics: engine.Google}).Matcher("Googlebot")
			bytes := 0
			for _, u := range c.Short[:n] {
				m.Allowed(u)
				bytes += len(u)
			}
			st := m.Stats()
			t.Logf("%d URLs of %d bytes: %+v", n, bytes, st)
			if st.Clears > 4 || st.States > bytes/4 {
				t.Errorf("%d states built and %d clears for %d URL bytes", st.States, st.Clears, bytes)
			}
		})
	}
}

// heapChildEnv marks the process TestThrashing_HeapUnderConcurrency runs
// itself in.
const heapChildEnv = "ROBOTSTXT_HEAP_CHILD"

// TestThrashing_HeapUnderConcurrency has 8 goroutines decide the 2 KiB URLs
// of the words shape on one matcher (the case that held 133-153 MiB of heap
// when each goroutine built a private cache generation) and samples the heap
// meanwhile: it stays within the cache budget, what the compiled file holds
// at most while they run (Robots.Bytes, sampled with the heap: the file, the
// fallback and the current generation of states) and 8 MiB. The cache
// budget term is the generation a reset retired, which goroutines still
// scanning it hold until they leave it. Robots.Bytes at the end alone is no
// bound: it counts the current generation as it is then, which after a
// reset may be two states (4.6 MiB in one CI run, 7.9 MiB in another), while
// the peak saw it full.
func TestThrashing_HeapUnderConcurrency(t *testing.T) {
	if race.Enabled {
		t.Skip("-race multiplies memory; the heap is measured without it (TestCache_SharedReset and this file's other test run the same paths under -race)")
	}
	// The heap is measured in a process of its own: in the package's
	// process the heap earlier tests left (24 MiB in one run) lets that
	// much more garbage float between collections, which is no memory of
	// this matcher's, and failed the bound by 0.5 MiB.
	if os.Getenv(heapChildEnv) != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestThrashing_HeapUnderConcurrency$", "-test.v", "-test.count=1")
		if testing.Short() {
			cmd.Args = append(cmd.Args, "-test.short")
		}
		cmd.Env = append(os.Environ(), heapChildEnv+"=1")
		out, err := cmd.CombinedOutput()
		t.Logf("in a process of its own:\n%s", out)
		if err != nil {
			t.Fatalf("the measuring process failed: %v", err)
		}
		return
	}
	// Collect often, so that the heap sampled is what the matcher holds
	// and not garbage the collector has not reached yet.
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	var c gen.ThrashCase
	for _, s := range thrashShapes() {
		if s.Name == "words" {
			c = s
		}
	}
	rounds := 6
	if testing.Short() {
		rounds = 2
	}
	var base runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&base)
	r := engine.Compile(c.Body, engine.Options{Semantics: engine.Google})
	m := r.Matcher("Googlebot")
	var peak, peakHeld atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			if h := uint64(r.Bytes()); h > peakHeld.Load() {
				peakHeld.Store(h)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := 0; k < rounds; k++ {
				for i := range c.Medium {
					m.Allowed(c.Medium[(i+g*3)%len(c.Medium)])
				}
			}
		}(g)
	}
	wg.Wait()
	close(stop)
	<-sampled
	held := max(peakHeld.Load(), uint64(r.Bytes()))
	limit := base.HeapAlloc + engine.DefaultCacheBytes + held + 8<<20
	t.Logf("peak heap %.1f MiB over %.1f MiB before compiling; the file holds %.1f MiB at most (%.1f MiB at the end); %+v",
		float64(peak.Load())/(1<<20), float64(base.HeapAlloc)/(1<<20), float64(held)/(1<<20), float64(r.Bytes())/(1<<20), m.Stats())
	if peak.Load() > limit {
		t.Errorf("peak heap %d bytes, want at most %d (before %d, cache %d, file %d, 8 MiB)", peak.Load(), limit, base.HeapAlloc, engine.DefaultCacheBytes, held)
	}
}

// TestThrashing_UsageBounded is TestThrashing_FallbackDecides for usage
// preferences: each thrashing shape's rules made content-usage lines (a
// file an attacker writes for the usage automata), its short URLs' usage
// decided. The usage automata are the allow/disallow automaton's kind, so
// their memory stays within a cache budget each (the matcher's three:
// rules, train-ai, search) and the patterns' positions.
func TestThrashing_UsageBounded(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 20
	}
	for _, c := range thrashShapes() {
		t.Run(c.Name, func(t *testing.T) {
			var body strings.Builder
			for _, line := range strings.Split(string(c.Body), "\n") {
				if _, path, ok := strings.Cut(line, "allow: "); ok {
					line = "Content-Usage: " + path + " train-ai=n, search=y"
				}
				body.WriteString(line + "\n")
			}
			m := engine.Compile([]byte(body.String()), engine.Options{Semantics: engine.Google}).Matcher("Googlebot")
			if len(m.UsageRules()) == 0 {
				t.Fatal("no content-usage lines")
			}
			for _, u := range c.Short[:n] {
				if got := m.Usage(u); got.TrainAI != engine.UsageDisallowed && got.TrainAI != engine.UsageUnknown {
					t.Fatalf("Usage(%q) = %v", u, got)
				}
			}
			t.Logf("%d content-usage lines, %d URLs: %d bytes", len(m.UsageRules()), n, m.Bytes())
			if b := m.Bytes(); b > 3*(engine.DefaultCacheBytes+maxCacheSlack) {
				t.Errorf("the matcher holds %d bytes after %d URLs", b, n)
			}
		})
	}
}
