package bench

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
)

// firstRunCap bounds the guarded first run of every library on every input
// (parse and decide each URL once). Each of these inputs takes well under a
// millisecond per URL in every library; 5 s leaves room for a slow shared
// machine while still catching a library that blows up.
const firstRunCap = 5 * time.Second

// shortAdversarialCap replaces firstRunCap for BenchmarkAdversarial in
// -short mode (CI's smoke run). Three libraries overrun any cap on the
// wildcards inputs (backtracking or regexp simulation over 4 KiB URLs) and
// are skipped there; waiting 5 s for each of those six skips would double
// the smoke run. Every library that finishes an adversarial input finishes
// it well under 2 s on an idle 2-core machine.
const shortAdversarialCap = 2 * time.Second

// adversarialCap is the cap of BenchmarkAdversarial's first runs.
func adversarialCap() time.Duration {
	if testing.Short() {
		return shortAdversarialCap
	}
	return firstRunCap
}

// BenchmarkParse measures what a crawler does once per robots.txt in each
// library's best form: parse, and bind the agent where the library can. Ours
// is engine.Compile followed by Matcher(Agent) (Compile alone is lazy);
// temoto is FromBytes plus FindGroup; grobotstxt has no parsed form and is
// its parser run once over the body (it runs again on every decision).
func BenchmarkParse(b *testing.B) {
	eachLibraryInput(b, "Parse", func(lib Library, in input, i int) {
		d, _, _ := Prepare(lib, in.body, Agent)
		sink = d
	})
}

// BenchmarkFirstDecision measures what a crawler waits for before its first
// answer on a site: parse, bind the agent where the library can, and decide
// one URL. Ours builds its automaton's states as URLs reach them, so this is
// where the cost of building them shows; BenchmarkParse leaves it out.
func BenchmarkFirstDecision(b *testing.B) {
	eachLibraryInput(b, "FirstDecision", func(lib Library, in input, i int) {
		if d, _, err := Prepare(lib, in.body, Agent); err == nil {
			sinkBool = d(in.urls[i%len(in.urls)])
		}
	})
}

// eachLibraryInput runs op b.N times as the sub-benchmark name/LIB/INPUT of
// every library and named input, with the guarded first run, the input's
// bytes and allocations reported.
func eachLibraryInput(b *testing.B, name string, op func(lib Library, in input, i int)) {
	for _, lib := range Libraries {
		b.Run(lib.Name, func(b *testing.B) {
			for _, in := range benchInputs() {
				b.Run(in.name, func(b *testing.B) {
					guard(b, name+"/"+lib.Name+"/"+in.name, firstRunCap)
					b.SetBytes(int64(len(in.body)))
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						op(lib, in, i)
					}
				})
			}
		})
	}
}

// parseRun is the first run of BenchmarkParse.
func parseRun(lib Library, in input) error {
	_, _, err := Prepare(lib, in.body, Agent)
	return err
}

// BenchmarkDecide measures one decision (ns/op is per URL), cycling through
// 1,000 generated URLs per input, with the file parsed beforehand. Every
// library is measured through Allowed(agent, url); those that can bind an
// agent once are measured bound too ("-bound").
func BenchmarkDecide(b *testing.B) {
	for _, v := range variants() {
		b.Run(v.name, func(b *testing.B) {
			for _, in := range benchInputs() {
				b.Run(in.name, func(b *testing.B) {
					guard(b, "Decide/"+v.name+"/"+in.name, firstRunCap)
					decide, _ := v.prepare(in.body)
					urls := in.urls
					// The steady state: ours builds its cached Matcher,
					// passes its warm-up and builds the automaton states
					// these URLs visit.
					pastWarmUp(decide, urls)
					b.SetBytes(in.avgURLLen())
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						sinkBool = decide(urls[i%len(urls)])
					}
				})
			}
		})
	}
}

// distinctURLs is how many URLs BenchmarkDecideDistinct cycles through
// (distinctShortURLs in -short mode, where CI runs it once to keep it
// working: the slow peers' first run of 100,000 URLs takes seconds).
const (
	distinctURLs      = 100_000
	distinctShortURLs = 5_000
)

// BenchmarkDecideDistinct is Decide as a crawler sees it: the large
// generated file, each library in its best form (Prepare), cycling through
// distinctURLs distinct URLs (all decided once first, so that ours has
// built the states they visit) instead of Decide's 1,000, which a branch
// predictor learns by heart and whose states stay in the cache.
func BenchmarkDecideDistinct(b *testing.B) {
	for _, lib := range Libraries {
		b.Run(lib.Name, func(b *testing.B) {
			guard(b, "DecideDistinct/"+lib.Name, firstRunCap)
			decide, err := distinctRun(lib)
			if err != nil {
				b.Fatal(err)
			}
			urls := distinctInput().urls
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				sinkBool = decide(urls[i%len(urls)])
			}
		})
	}
}

// distinctInput is BenchmarkDecideDistinct's input: the large file of
// benchInputs, with its distinct URLs, made once.
var distinctInput = sync.OnceValue(func() input {
	in, err := inputNamed(benchInputs(), "large")
	if err != nil {
		panic(err) // benchInputs always has it
	}
	n := distinctURLs
	if testing.Short() {
		n = distinctShortURLs
	}
	in.urls = gen.URLs(in.body, n, 4)
	return in
})

// distinctRun is the first run of BenchmarkDecideDistinct: lib prepared
// for the file, and every URL decided once. It returns the prepared
// decision function.
func distinctRun(lib Library) (func(string) bool, error) {
	in := distinctInput()
	decide, _, err := Prepare(lib, in.body, Agent)
	if err != nil {
		return nil, err
	}
	for _, u := range in.urls {
		sinkBool = decide(u)
	}
	return decide, nil
}

// decideRun is the first run of BenchmarkDecide: every URL once.
func decideRun(v variant, in input) error {
	d, err := v.prepare(in.body)
	if err != nil {
		return err
	}
	for _, u := range in.urls {
		sinkBool = d(u)
	}
	return nil
}

// scalingSizes are the rule counts of BenchmarkScaling.
var scalingSizes = []int{10, 100, 1000, 10000, 100000}

// scalingCap bounds the guarded first compile of BenchmarkScaling: the
// 100,000-rule file is 3 MB, which a linear compiler handles in about a
// second; 30 s catches a blow-up.
const scalingCap = 30 * time.Second

// scalingShortMax is the largest size run in -short mode.
const scalingShortMax = 1000

// scalingInput returns the generated file of n rules (with wildcards) and
// its URLs, and the options that compile it whole.
func scalingInput(n int) (input, engine.Options) {
	body := gen.Robots(n, int64(n), true)
	return input{name: fmt.Sprintf("rules=%d", n), body: body, urls: gen.URLs(body, decideURLs, 3)},
		engine.Options{Semantics: Semantics, MaxFileSize: len(body)}
}

// scalingCompile compiles the n-rule file and its Matcher for Agent.
func scalingCompile(n int) *engine.Matcher {
	in, opts := scalingInput(n)
	return engine.Compile(in.body, opts).Matcher(Agent)
}

// BenchmarkScaling measures our engine alone on generated files of 10 to
// 100,000 rules (with wildcards): Compile (engine.Compile and the Matcher;
// ns/rule shows whether it grows linearly) and Decide (ns/op per URL, which
// should stay flat). The file size limit is raised to the body's size so
// that the large files are compiled whole. In -short mode sizes above
// scalingShortMax are skipped.
func BenchmarkScaling(b *testing.B) {
	for _, n := range scalingSizes {
		in, opts := scalingInput(n)
		var m *engine.Matcher // compiled once for Decide
		setup := func(b *testing.B) {
			if testing.Short() && n > scalingShortMax {
				b.Skipf("-short: sizes above %d rules are skipped", scalingShortMax)
			}
			guard(b, "Scaling/"+in.name, scalingCap)
		}
		b.Run("Compile/"+in.name, func(b *testing.B) {
			setup(b)
			b.SetBytes(int64(len(in.body)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m = engine.Compile(in.body, opts).Matcher(Agent)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/rule")
		})
		b.Run("Decide/"+in.name, func(b *testing.B) {
			setup(b)
			if m == nil {
				m = engine.Compile(in.body, opts).Matcher(Agent)
			}
			urls := in.urls
			pastWarmUp(func(u string) bool { return m.Decide(u).Allowed }, urls)
			b.SetBytes(in.avgURLLen())
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				sinkBool = m.Decide(urls[i%len(urls)]).Allowed
			}
		})
	}
}

// adversarialInputs are worst cases for robots.txt matchers:
//
//   - wildcards: 200 rules of many '*' ("/*a*a*a...*a<n>b"), which blow up
//     DFA construction and backtracking matchers, decided on 4 KiB URLs of
//     'a's that almost match;
//   - wildcards-url-64KiB: the same rules on one 64 KiB URL of 'a's;
//   - tiny-rules-500KiB: a 500 KB file (just under the 500 KiB limit of
//     RFC 9309 parsers) of 36,000 short distinct rules;
//   - url-64KiB: the large generated file on one 64 KiB URL.
func adversarialInputs() []input {
	var wild strings.Builder
	wild.WriteString("User-agent: *\n")
	for i := 0; i < 200; i++ {
		kind := "Disallow"
		if i%4 == 0 {
			kind = "Allow"
		}
		fmt.Fprintf(&wild, "%s: /%s%db\n", kind, strings.Repeat("*a", 1+i%40), i)
	}
	var wildURLs []string
	for i := 0; i < 16; i++ {
		wildURLs = append(wildURLs, fmt.Sprintf("https://www.example.com/%s%d", strings.Repeat("a", 4096), i))
	}
	long := "https://www.example.com/" + strings.Repeat("a", 64<<10)

	var tiny strings.Builder
	tiny.WriteString("User-agent: *\n")
	for i := 0; tiny.Len() < 500_000; i++ {
		fmt.Fprintf(&tiny, "Disallow: /%x\n", i*7919)
	}
	tinyURLs := make([]string, 100)
	for i := range tinyURLs {
		tinyURLs[i] = fmt.Sprintf("https://www.example.com/%x/page.html", i*104729)
	}

	large := gen.Robots(500, 2, true)
	return []input{
		{name: "wildcards", body: []byte(wild.String()), urls: wildURLs},
		{name: "wildcards-url-64KiB", body: []byte(wild.String()), urls: []string{long + "b"}},
		{name: "tiny-rules-500KiB", body: []byte(tiny.String()), urls: tinyURLs},
		{name: "url-64KiB", body: large, urls: []string{"https://www.example.com/" + strings.Repeat("api/", 16<<10) + "?sid=1"}},
	}
}

// BenchmarkAdversarial measures each library in its best form on each
// adversarial input: one op parses, binds and decides every URL of the
// input (SetBytes counts the body and the URLs). The first run of each
// library on each input is capped at firstRunCap (shortAdversarialCap in
// -short mode); a library that overruns it is skipped for that input and
// listed at the end of the run.
func BenchmarkAdversarial(b *testing.B) {
	inputs := adversarialInputs()
	for _, lib := range Libraries {
		b.Run(lib.Name, func(b *testing.B) {
			for _, in := range inputs {
				b.Run(in.name, func(b *testing.B) {
					guard(b, "Adversarial/"+lib.Name+"/"+in.name, adversarialCap())
					b.SetBytes(int64(len(in.body)) + in.avgURLLen()*int64(len(in.urls)))
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						_ = adversarialRun(lib, in)
					}
				})
			}
		})
	}
}

// adversarialRun is one op of BenchmarkAdversarial, and its first run.
func adversarialRun(lib Library, in input) error {
	d, _, err := Prepare(lib, in.body, Agent)
	if err != nil {
		return err
	}
	for _, u := range in.urls {
		sinkBool = d(u)
	}
	return nil
}

// thrashingLibraries are the libraries BenchmarkThrashing compares: ours and
// the two the thrashing issue measured against (the others parse the file
// again per URL, or simulate patterns by backtracking or regexp, and overrun
// any cap on these inputs).
var thrashingLibraries = []string{"robotstxt", "slyrz", "temoto"}

// thrashingInputs are the thrashing shapes of gen.Thrashing, each with its
// three URL sets: INPUT is SHAPE-short (2,000 URLs of 2 to 64 bytes),
// SHAPE-2KiB (20 URLs) and SHAPE-64KiB (one URL).
var thrashingInputs = sync.OnceValue(func() []input {
	var ins []input
	for _, c := range gen.Thrashing(1) {
		ins = append(ins,
			input{name: c.Name + "-short", body: c.Body, urls: c.Short},
			input{name: c.Name + "-2KiB", body: c.Body, urls: c.Medium},
			input{name: c.Name + "-64KiB", body: c.Body, urls: []string{c.Long}},
		)
	}
	return ins
})

// BenchmarkThrashing measures each library of thrashingLibraries on the
// thrashing shapes, files whose wildcard rules keep thousands of patterns
// alive at every byte, with URLs chosen so that nearly every URL reaches
// states of an automaton that no URL reached before. One op parses, binds
// and decides every URL of the input (SetBytes counts the body and the
// URLs), as BenchmarkAdversarial does; the first run is guarded the same
// way. In -short mode only the 2 KiB sets run.
func BenchmarkThrashing(b *testing.B) {
	for _, name := range thrashingLibraries {
		lib, err := LibraryNamed(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(lib.Name, func(b *testing.B) {
			for _, in := range thrashingInputs() {
				if testing.Short() && !strings.HasSuffix(in.name, "-2KiB") {
					continue
				}
				b.Run(in.name, func(b *testing.B) {
					guard(b, "Thrashing/"+lib.Name+"/"+in.name, adversarialCap())
					b.SetBytes(int64(len(in.body)) + in.avgURLLen()*int64(len(in.urls)))
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						_ = adversarialRun(lib, in)
					}
				})
			}
		})
	}
}
