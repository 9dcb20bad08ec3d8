package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
)

// BenchmarkClient_CachedAllowed measures Client.Allowed on a cache hit: the
// origin of the page URL, the cache look-up, and the decision.
//
//   - canonical: the allocation-free path (goal: < 100 ns, 0 allocs).
//   - noncanonical: an upper-case host takes the url.Parse fallback.
//   - canonical-with-store: canonical on a Client with an Options.Store
//     (a fresh entry answers without asking it: the goal is canonical's
//     cost).
//   - lookup-only, decide-only: the two halves of canonical.
//   - parallel: canonical, from every CPU at once (goal: with -cpu 1,2, two
//     goroutines at least 1.6x the throughput of one: a hit takes no lock
//     and shares no write).
//   - parallel-lookup-only: lookup-only, from every CPU at once: the cache
//     alone, without the engine's decision.
func BenchmarkClient_CachedAllowed(b *testing.B) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /private\nAllow: /private/public\n\nUser-agent: ExampleBot\nDisallow: /search\nDisallow: /*.pdf$\n"))
	}))
	defer s.Close()
	c := New(Options{})
	ctx := context.Background()
	canonical := s.URL + "/docs/2024/report.html?page=2"
	inputs := []struct{ name, url string }{
		{"canonical", canonical},
		{"noncanonical", strings.Replace(canonical, "http://", "HTTP://", 1)},
	}
	for _, in := range inputs {
		if _, res, err := c.Allowed(ctx, "ExampleBot", in.url); err != nil || res.Robots == nil {
			b.Fatal(err)
		}
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if ok, _, _ := c.Allowed(ctx, "ExampleBot", in.url); !ok {
					b.Fatal("disallowed")
				}
			}
		})
	}
	cs := New(Options{Store: newMemStore()})
	if _, res, err := cs.Allowed(ctx, "ExampleBot", canonical); err != nil || res.Robots == nil {
		b.Fatal(err)
	}
	b.Run("canonical-with-store", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if ok, _, _ := cs.Allowed(ctx, "ExampleBot", canonical); !ok {
				b.Fatal("disallowed")
			}
		}
	})
	// The two halves of canonical: the cache hit alone, the decision alone.
	b.Run("lookup-only", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := c.Lookup(ctx, canonical); err != nil {
				b.Fatal(err)
			}
		}
	})
	res, _ := c.Lookup(ctx, canonical)
	m := res.Robots.Matcher("ExampleBot")
	b.Run("decide-only", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if !m.Decide(canonical).Allowed {
				b.Fatal("disallowed")
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if ok, _, _ := c.Allowed(ctx, "ExampleBot", canonical); !ok {
					b.Fatal("disallowed")
				}
			}
		})
	})
	b.Run("parallel-lookup-only", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := c.Lookup(ctx, canonical); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

// BenchmarkClient_CorpusBytes is what a crawler's cache holds per site:
// every corpus file is served from one loopback server, each as the
// robots.txt of its own origin, and looked up once for Googlebot (one
// decision), by a Client that compiles whole files ("whole") and by one
// with Options.Agents ("agents", engine.CompileFor). bytes/site is
// Stats().Bytes over the files, with nothing evicted. Skipped without a
// corpus; run it with -benchtime 1x.
func BenchmarkClient_CorpusBytes(b *testing.B) {
	files, _ := corpus.AllBodies(b)
	hc := fileServer(b, files)
	ctx := context.Background()
	for _, v := range []struct {
		name   string
		agents []string
	}{{"whole", nil}, {"agents", []string{"Googlebot"}}} {
		b.Run(v.name, func(b *testing.B) {
			var perSite float64
			for i := 0; i < b.N; i++ {
				c := New(Options{HTTPClient: hc, Agents: v.agents, MaxEntries: len(files), MaxBytes: 1 << 40})
				for f := range files {
					if _, _, err := c.Allowed(ctx, "Googlebot", fmt.Sprintf("http://f%d.test/", f)); err != nil {
						b.Fatal(err)
					}
				}
				st := c.Stats()
				if st.Entries != len(files) {
					b.Fatalf("%d entries cached, want %d", st.Entries, len(files))
				}
				perSite = float64(st.Bytes) / float64(len(files))
				c.Close()
			}
			b.ReportMetric(perSite, "bytes/site")
		})
	}
}
