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
