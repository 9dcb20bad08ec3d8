package bench

import (
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
)

// firstContactLibraries are the peers BenchmarkFirstContact runs beside ours.
// robotstxt is engine.CompileFor, the crawler's shape; robotstxt-compile
// is engine.Compile then Matcher, for a caller that may ask any agent.
var firstContactLibraries = []string{"robotstxt", "robotstxt-compile", "slyrz", "temoto", "grobotstxt"}

// firstContactURL is the URL decided on each file, as nzrsky/robotstxt's
// published benchmark decides one.
const firstContactURL = "https://example.com/"

// firstContactBodies returns every corpus file's body (all 8,712, not only
// those with URLs; a tenth of them in -short mode), or nil without a corpus.
func firstContactBodies(b *testing.B) [][]byte {
	dir := corpusDir()
	if dir == "" {
		b.Skip("no corpus (set ROBOTSTXT_CORPUS)")
	}
	files, err := corpus.Files(dir)
	if err != nil {
		b.Fatal(err)
	}
	every := 1
	if testing.Short() {
		every = 10
	}
	bodies, err := corpus.Bodies(files, every)
	if err != nil {
		b.Fatal(err)
	}
	return bodies
}

// BenchmarkFirstContact measures what a crawler pays on meeting a site it
// decides one URL for: every corpus file held in memory, then, in each op,
// each file parsed and one URL decided for Googlebot, file after file (the
// shape of the benchmark nzrsky/robotstxt, a C++ fork of Google's library,
// publishes). Ours reads whole files (MaxFileSize 64 MiB), as the other
// libraries do. ns/op is one pass over the corpus; MB/s counts its bytes.
func BenchmarkFirstContact(b *testing.B) {
	bodies := firstContactBodies(b)
	var size int64
	for _, body := range bodies {
		size += int64(len(body))
	}
	for _, name := range firstContactLibraries {
		b.Run(name, func(b *testing.B) {
			first := firstContactOf(b, name)
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				n := 0
				for _, body := range bodies {
					if first(body) {
						n++
					}
				}
				sinkBool = n > 0
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(bodies)), "ns/file")
		})
	}
}

// firstContactOf returns the library's first contact: parse body, then
// decide firstContactURL for Googlebot (false when the library rejects the
// body).
func firstContactOf(b *testing.B, name string) func(body []byte) bool {
	opts := engine.Options{Semantics: engine.Google, MaxFileSize: 64 << 20}
	switch name {
	case "robotstxt":
		return func(body []byte) bool {
			return engine.CompileFor(body, opts, Agent).Allowed(firstContactURL)
		}
	case "robotstxt-compile":
		return func(body []byte) bool {
			return engine.Compile(body, opts).Allowed(Agent, firstContactURL)
		}
	}
	lib, err := LibraryNamed(name)
	if err != nil {
		b.Fatal(err)
	}
	return func(body []byte) (allowed bool) {
		defer func() { _ = recover() }() // slyrz panics on a few files
		d, _, err := Prepare(lib, body, Agent)
		return err == nil && d(firstContactURL)
	}
}
