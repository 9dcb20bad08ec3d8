package engine_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
)

type namedInput struct {
	name string
	body []byte
}

func benchInputs(b *testing.B) []namedInput {
	in := []namedInput{
		{"small", gen.Robots(10, 1, false)},
		{"large", gen.Robots(500, 2, true)},
	}
	if dir := corpus.Dir(b); dir != "" {
		for _, f := range []string{"www.google.com.txt", "en.wikipedia.org.txt", "www.amazon.com.txt", "docs.oracle.com.txt"} {
			if body, err := os.ReadFile(filepath.Join(dir, "files", f)); err == nil {
				in = append(in, namedInput{f, body})
			}
		}
	}
	return in
}

// BenchmarkMatcher_Decide decides 1,000 realistic URLs per iteration group;
// ns/op is per URL.
func BenchmarkMatcher_Decide(b *testing.B) {
	for _, in := range benchInputs(b) {
		for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google} {
			b.Run(in.name+"/"+sem.String(), func(b *testing.B) {
				m := engine.Compile(in.body, engine.Options{Semantics: sem}).Matcher("Googlebot")
				urls := gen.URLs(in.body, 1000, 3)
				total := 0
				for _, u := range urls {
					total += len(u)
				}
				b.SetBytes(int64(total / len(urls)))
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					m.Decide(urls[i%len(urls)])
				}
			})
		}
	}
}

// BenchmarkMatcher_DecideScaling shows decide time against the number of
// rules: it should stay flat.
func BenchmarkMatcher_DecideScaling(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		body := gen.Robots(n, int64(n), true)
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			m := engine.Compile(body, engine.Options{}).Matcher("*")
			urls := gen.URLs(body, 1000, 4)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.Decide(urls[i%len(urls)])
			}
		})
	}
}

// BenchmarkCompile measures parse + automaton for one agent.
func BenchmarkCompile(b *testing.B) {
	for _, in := range benchInputs(b) {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.body)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				engine.Compile(in.body, engine.Options{}).Matcher("Googlebot")
			}
		})
	}
}

// BenchmarkCompileFor measures a crawler's first contact: CompileFor for
// one agent and one decision, beside Compile, Matcher and one decision.
func BenchmarkCompileFor(b *testing.B) {
	for _, in := range benchInputs(b) {
		for _, shape := range []string{"for", "compile"} {
			b.Run(in.name+"/"+shape, func(b *testing.B) {
				b.SetBytes(int64(len(in.body)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if shape == "for" {
						engine.CompileFor(in.body, engine.Options{}, "Googlebot").Allowed("/")
					} else {
						engine.Compile(in.body, engine.Options{}).Matcher("Googlebot").Allowed("/")
					}
				}
			})
		}
	}
}

// BenchmarkCompileScaling shows compile time against the number of rules:
// it should grow linearly.
func BenchmarkCompileScaling(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		body := gen.Robots(n, int64(n), true)
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				engine.Compile(body, engine.Options{}).Matcher("*")
			}
		})
	}
}

// BenchmarkMatcher_DecideLongEscaped decides URLs whose answer is final a
// few bytes into the path, with a percent-escape before that point and a
// long tail after it: the path is normalised in part first, so the tail is
// never rewritten (ns/op should barely grow with the tail).
func BenchmarkMatcher_DecideLongEscaped(b *testing.B) {
	m := engine.Compile([]byte("User-agent: *\nDisallow: /a\nAllow: /aA\n"), engine.Options{}).Matcher("bot")
	for _, n := range []int{100, 10_000, 100_000} {
		u := "https://example.com/a%41" + strings.Repeat("x", n)
		b.Run(fmt.Sprintf("tail=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				m.Allowed(u)
			}
		})
	}
}

// BenchmarkMatcher_DecideParallel decides URLs on one matcher from one or
// more goroutines (run with -cpu 1,2): fresh, a matcher compiled for each
// round of 4,000 URLs that its goroutines share (its first decisions, by
// the linear engine: the warm-up is set past them); fresh-for, the same
// with CompileFor and 100 URLs a round (a crawler's file); and built, one matcher
// past its warm-up with the states of its URLs built (the DFA), decided by
// b.RunParallel. ns/URL is wall time per URL: two goroutines on two free
// cores should take about half of one's.
func BenchmarkMatcher_DecideParallel(b *testing.B) {
	body := gen.Robots(500, 2, true)
	urls := gen.URLs(body, 4000, 3)
	b.Run("fresh", func(b *testing.B) {
		opts := engine.Options{Semantics: engine.Google, WarmUp: 1 << 20}
		decideFresh(b, func() *engine.Matcher { return engine.Compile(body, opts).Matcher("Googlebot") }, urls)
	})
	b.Run("fresh-for", func(b *testing.B) {
		opts := engine.Options{Semantics: engine.Google}
		decideFresh(b, func() *engine.Matcher { return engine.CompileFor(body, opts, "Googlebot") }, urls[:100])
	})
	b.Run("built", func(b *testing.B) {
		m := engine.Compile(body, engine.Options{Semantics: engine.Google, WarmUp: -1}).Matcher("Googlebot")
		for range 2 {
			for _, u := range urls {
				m.Allowed(u)
			}
		}
		var next atomic.Int64
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			i := int(next.Add(1000))
			for pb.Next() {
				m.Allowed(urls[i%len(urls)])
				i++
			}
		})
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/URL")
	})
}

// decideFresh times fresh matchers (fresh), deciding urls from GOMAXPROCS
// goroutines that share each matcher, and reports the wall time per URL
// (ns/URL). The matchers are made in batches, outside the timer, and the
// goroutines go through a batch together, as a crawler's busy workers
// would: starting goroutines for each matcher would time the wake-up of an
// idle thread (tens of microseconds on a VM), as long as deciding 100 URLs.
func decideFresh(b *testing.B, fresh func() *engine.Matcher, urls []string) {
	const batch = 64
	g := runtime.GOMAXPROCS(0)
	b.ReportAllocs()
	ms := make([]*engine.Matcher, batch)
	var d time.Duration
	for done := 0; done < b.N; done += batch {
		n := min(batch, b.N-done)
		b.StopTimer()
		for i := range n {
			ms[i] = fresh()
		}
		b.StartTimer()
		var wg sync.WaitGroup
		t0 := time.Now()
		for k := range g {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, m := range ms[:n] {
					for i := k; i < len(urls); i += g {
						m.Allowed(urls[i])
					}
				}
			}()
		}
		wg.Wait()
		d += time.Since(t0)
	}
	b.ReportMetric(float64(d.Nanoseconds())/float64(b.N*len(urls)), "ns/URL")
}

// BenchmarkMatcher_Usage decides 1,000 URLs of a large generated file in
// which every third disallow line has a content-usage line of the same
// path after it: decide is Decide's time per URL, usage Usage's (Decide's
// decision then one match for each of the two categories).
func BenchmarkMatcher_Usage(b *testing.B) {
	var body strings.Builder
	for i, line := range strings.SplitAfter(string(gen.Robots(500, 2, true)), "\n") {
		body.WriteString(line)
		if path, ok := strings.CutPrefix(strings.TrimSpace(line), "Disallow: "); ok && i%3 == 0 {
			fmt.Fprintf(&body, "Content-Usage: %s train-ai=n, search=y\n", path)
		}
	}
	m := engine.Compile([]byte(body.String()), engine.Options{}).Matcher("Googlebot")
	if len(m.UsageRules()) == 0 {
		b.Fatal("no usage lines for the crawler")
	}
	urls := gen.URLs([]byte(body.String()), 1000, 3)
	for _, bench := range []struct {
		name string
		f    func(string)
	}{
		{"decide", func(u string) { m.Decide(u) }},
		{"usage", func(u string) { m.Usage(u) }},
	} {
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				bench.f(urls[i%len(urls)])
			}
		})
	}
}

// BenchmarkUsage_Statements shows what statements cost, the adversary's
// shapes: a file of 500,000 bytes of content-usage lines, each with its
// own path and a statement, decided first by Decide (which parses no
// statement) and first by Usage (which parses them all); and a
// Content-Usage header of 256 KiB (fetch.DefaultMaxHeaderBytes) of
// distinct members, combined by Usage.WithHeader.
func BenchmarkUsage_Statements(b *testing.B) {
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for i := 0; body.Len() < 500_000; i++ {
		fmt.Fprintf(&body, "Content-Usage: /p%d train-ai=n, search=y\n", i)
	}
	file := []byte(body.String())
	var header strings.Builder
	for i := 0; header.Len() < 256<<10; i++ {
		fmt.Fprintf(&header, "k%d=y, ", i)
	}
	header.WriteString("train-ai=n")
	for _, bench := range []struct {
		name string
		f    func()
	}{
		{"first-decide", func() { engine.Compile(file, engine.Options{}).Matcher("bot").Decide("https://example.com/p1") }},
		{"first-usage", func() { engine.Compile(file, engine.Options{}).Matcher("bot").Usage("https://example.com/p1") }},
		{"header-256KiB", func() { engine.Usage{}.WithHeader(header.String()) }},
	} {
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				bench.f()
			}
		})
	}
}
