package engine_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
)

// corpusWorkload is the crawler's workload over the corpus: every file that
// has real URLs, with them.
type corpusWorkload struct {
	bodies [][]byte
	urls   [][]string
	bytes  int
}

func loadCorpusWorkload(b *testing.B) corpusWorkload {
	dir := corpus.Dir(b)
	if dir == "" {
		b.Skip("no corpus (set ROBOTSTXT_CORPUS)")
	}
	files, err := corpus.Files(dir)
	if err != nil {
		b.Fatal(err)
	}
	var w corpusWorkload
	for _, f := range files {
		if f.URLs == "" {
			continue
		}
		body, urls, err := f.Read()
		if err != nil {
			b.Fatal(err)
		}
		w.bodies, w.urls = append(w.bodies, body), append(w.urls, urls)
		w.bytes += min(len(body), compile.DefaultMaxFileSize)
	}
	return w
}

// BenchmarkConstruction_Stages measures what it costs to get from a
// corpus file's bytes to its decided URLs, stage upon stage, over every
// corpus file with real URLs (one op: all of them): parse (compile.Parse),
// compile (engine.Compile: the parse and what Robots adds), bind
// (Compile and Matcher: selecting the groups and laying out the
// automaton), decide (and every real URL of the file decided once: the
// states they visit built). A stage's cost is its row less the one before.
// ns/file, allocs/file and MB/s (of text) are per corpus file.
func BenchmarkConstruction_Stages(b *testing.B) {
	w := loadCorpusWorkload(b)
	opts := engine.Options{Semantics: engine.Google}
	stages := []struct {
		name string
		run  func(body []byte, urls []string)
	}{
		{"parse", func(body []byte, _ []string) { compile.Parse(body, compile.Options{Semantics: opts.Semantics}) }},
		{"compile", func(body []byte, _ []string) { engine.Compile(body, opts) }},
		{"bind", func(body []byte, _ []string) { engine.Compile(body, opts).Matcher("Googlebot") }},
		{"decide", func(body []byte, urls []string) {
			m := engine.Compile(body, opts).Matcher("Googlebot")
			for _, u := range urls {
				m.Allowed(u)
			}
		}},
	}
	for _, st := range stages {
		b.Run(st.name, func(b *testing.B) {
			b.SetBytes(int64(w.bytes))
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for k, body := range w.bodies {
					st.run(body, w.urls[k])
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			files := float64(b.N * len(w.bodies))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/files, "ns/file")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/files, "allocs/file")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/files, "B/file")
		})
	}
}

// BenchmarkConstruction_Sequence runs the crawler's sequence over every
// corpus file with real URLs, as BenchmarkConstruction_Stages's decide
// stage does, and reports the time of each step of it per file: parse
// (engine.Compile), bind (Matcher), first (every real URL of the file
// decided once: the states they visit built) and again (the same URLs
// decided again, the states built: what deciding costs alone). Unlike the
// stages' rows, which each start from the bytes, these are parts of one
// sequence, with what the steps before left in the caches.
func BenchmarkConstruction_Sequence(b *testing.B) {
	w := loadCorpusWorkload(b)
	opts := engine.Options{Semantics: engine.Google}
	var parse, bind, first, again time.Duration
	b.SetBytes(int64(w.bytes))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, body := range w.bodies {
			t0 := time.Now()
			r := engine.Compile(body, opts)
			t1 := time.Now()
			m := r.Matcher("Googlebot")
			t2 := time.Now()
			for _, u := range w.urls[k] {
				m.Allowed(u)
			}
			t3 := time.Now()
			for _, u := range w.urls[k] {
				m.Allowed(u)
			}
			t4 := time.Now()
			parse, bind, first, again = parse+t1.Sub(t0), bind+t2.Sub(t1), first+t3.Sub(t2), again+t4.Sub(t3)
		}
	}
	files := float64(b.N * len(w.bodies))
	for _, st := range []struct {
		name string
		d    time.Duration
	}{{"parse", parse}, {"bind", bind}, {"first", first}, {"again", again}} {
		b.ReportMetric(float64(st.d.Nanoseconds())/files, st.name+"-ns/file")
	}
}

// BenchmarkConstruction_Heap measures what a crawler keeps of a file, step
// by step, over every corpus file with real URLs, all kept at once: the
// heap after compiling them (engine.Compile: the parsed file),
// after binding (and the Googlebot matcher of each) and after deciding
// (and every real URL of each decided once: the states they visit built),
// per file, with the text the files had. It is measured by the heap after
// two collections, once per run, outside the timer: the op is one
// Compile, Matcher and decisions of the whole corpus.
func BenchmarkConstruction_Heap(b *testing.B) {
	w := loadCorpusWorkload(b)
	opts := engine.Options{Semantics: engine.Google}
	heap := func() int64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	n := len(w.bodies)
	robots := make([]*engine.Robots, n)
	ms := make([]*engine.Matcher, n)
	var compiled, bound, decided int64
	for i := 0; i < b.N; i++ {
		clear(robots)
		clear(ms)
		b.StopTimer()
		h0 := heap()
		b.StartTimer()
		for k, body := range w.bodies {
			robots[k] = engine.Compile(body, opts)
		}
		b.StopTimer()
		h1 := heap()
		b.StartTimer()
		for k, r := range robots {
			ms[k] = r.Matcher("Googlebot")
		}
		b.StopTimer()
		h2 := heap()
		b.StartTimer()
		for k, m := range ms {
			for _, u := range w.urls[k] {
				m.Allowed(u)
			}
		}
		b.StopTimer()
		h3 := heap()
		b.StartTimer()
		compiled, bound, decided = compiled+h1-h0, bound+h2-h0, decided+h3-h0
	}
	runtime.KeepAlive(robots)
	runtime.KeepAlive(ms)
	files := float64(b.N * n)
	b.ReportMetric(float64(w.bytes)/float64(n), "text-B/file")
	b.ReportMetric(float64(compiled)/files, "compiled-B/file")
	b.ReportMetric(float64(bound)/files, "bound-B/file")
	b.ReportMetric(float64(decided)/files, "decided-B/file")
}
