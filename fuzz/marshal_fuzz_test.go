package fuzz

import (
	"os"
	"runtime"
	"sort"
	"sync"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
)

// maxMarshalFuzzInput bounds the encodings FuzzUnmarshalBinary tries: large
// enough for a few matchers, small enough for many executions per second.
const maxMarshalFuzzInput = 64 << 10

var marshalSeedBodies = []string{
	"User-agent: *\nDisallow: /private/\nAllow: /private/ok\nSitemap: https://example.com/s.xml\n",
	"User-agent: Googlebot\nDisallow: /*.pdf$\nAllow: /shop/index.htm\nCrawl-delay: 3\n\nUser-agent: *\nDisallow: /\nAllow: /$\n",
	"User-agent: a\nUser-agent: b\nDisallow: /*a*b*c*d\nDisallow: /x%2Fy?q=*\nbogus line\n",
	"",
}

// FuzzUnmarshalBinary feeds arbitrary bytes to Robots.UnmarshalBinary: it
// must never panic, and a Robots it accepts must decide without panicking.
// Seeded with valid encodings (every semantics, with built matchers) and
// their truncations.
func FuzzUnmarshalBinary(f *testing.F) {
	for i, body := range marshalSeedBodies {
		for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
			r := engine.Compile([]byte(body), engine.Options{Semantics: sem})
			for _, agents := range agentSets[:1+i%len(agentSets)] {
				r.Matcher(agents...)
			}
			data, err := r.MarshalBinary()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
			f.Add(data[:len(data)/2])
			f.Add(data[:len(data)-1])
		}
	}
	fixed, _ := engine.DisallowAll(engine.Options{}).MarshalBinary()
	f.Add(fixed)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxMarshalFuzzInput {
			return
		}
		var r engine.Robots
		if err := r.UnmarshalBinary(data); err != nil {
			return
		}
		_ = r.Sitemaps()
		for _, agents := range agentSets {
			m := r.Matcher(agents...)
			for _, u := range []string{"/", "/robots.txt", "/private/x", "/shop/", "/a.pdf", "/x%2fy?q=1", "https://h/%41/b"} {
				m.Decide(u)
			}
			_ = m.String()
		}
		if _, err := r.MarshalBinary(); err != nil {
			t.Fatalf("MarshalBinary of an accepted encoding: %v", err)
		}
	})
}

// TestMarshal_CorpusRoundTrip compiles every corpus file (Google semantics),
// builds the matchers for Googlebot and "*", sends the Robots through
// MarshalBinary and UnmarshalBinary, and checks that the loaded Robots
// decides the file's real URLs and URLs made from its patterns exactly as
// the original. It logs the encoded size against the robots.txt size. It
// skips when the corpus is absent; -short takes the first 2,000 files.
func TestMarshal_CorpusRoundTrip(t *testing.T) {
	files := corpus.TestFiles(t, 2000)
	const maxRealURLs = 200 // per file, to keep the whole run well under a minute
	tokens := [][]string{{"Googlebot"}, {"*"}}

	type result struct {
		name          string
		body, encoded int
		decisions     int
	}
	results := make([]result, len(files))
	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				cf := files[i]
				body, err := os.ReadFile(cf.Path)
				if err != nil {
					t.Error(err)
					continue
				}
				r := engine.Compile(body, engine.Options{Semantics: engine.Google})
				for _, toks := range tokens {
					r.Matcher(toks...)
				}
				data, err := r.MarshalBinary()
				if err != nil {
					t.Errorf("%s: MarshalBinary: %v", cf.Name, err)
					continue
				}
				var got engine.Robots
				if err := got.UnmarshalBinary(data); err != nil {
					t.Errorf("%s: UnmarshalBinary: %v", cf.Name, err)
					continue
				}
				urls := append([]string{"/", "/robots.txt", "/index.html", "/a/b?c=d"}, URLsFromPatterns(r.File(), 3)...)
				if cf.URLs != "" {
					real, _ := corpus.ReadLines(cf.URLs)
					urls = append(urls, real[:min(len(real), maxRealURLs)]...)
				}
				n := 0
				for _, toks := range tokens {
					mw, mg := r.Matcher(toks...), got.Matcher(toks...)
					if mw.Stats() != mg.Stats() {
						t.Errorf("%s: Matcher(%q) stats %+v after round trip, want %+v", cf.Name, toks, mg.Stats(), mw.Stats())
					}
					for _, u := range urls {
						a, b := mg.Decide(u), mw.Decide(u)
						n++
						if a.Allowed != b.Allowed || a.Rule.Line != b.Rule.Line {
							t.Errorf("%s: Matcher(%q).Decide(%q) = allowed %v line %d after round trip, want allowed %v line %d\n%s",
								cf.Name, toks, u, a.Allowed, a.Rule.Line, b.Allowed, b.Rule.Line, Reproducer(body, toks, u, engine.Google))
							break
						}
					}
				}
				results[i] = result{cf.Name, len(body), len(data), n}
			}
		}()
	}
	for i := range files {
		if t.Failed() {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()

	var totalBody, totalEnc, decisions int
	var encs []int
	for _, r := range results {
		if r.name == "" {
			continue
		}
		totalBody += r.body
		totalEnc += r.encoded
		decisions += r.decisions
		encs = append(encs, r.encoded)
	}
	if len(encs) == 0 {
		return
	}
	sort.Ints(encs)
	t.Logf("%d files, %d decisions compared; encoded %d bytes for %d bytes of robots.txt (ratio %.2f); encoding median %d bytes, max %d bytes",
		len(encs), decisions, totalEnc, totalBody, float64(totalEnc)/float64(max(totalBody, 1)), encs[len(encs)/2], encs[len(encs)-1])
}
