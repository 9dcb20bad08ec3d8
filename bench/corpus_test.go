package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/automaton"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
)

// corpusFileCap bounds each library's first run on one corpus file (parse,
// bind, decide every URL of the file, and measure memory, in a helper
// process; see corpusFirstRun). Real files take
// microseconds to milliseconds; a file that takes a library longer than 2 s
// is skipped for it and counted.
const corpusFileCap = 2 * time.Second

// corpusShortFiles is the number of corpus files BenchmarkRealCorpus uses in
// -short mode (the first ones in name order that have URLs), so that CI's
// run stays fast; the full corpus has about 1,100.
const corpusShortFiles = 100

// corpusFile is a corpus robots.txt with the real URLs of its site.
type corpusFile struct {
	name string
	body []byte
	urls []string
}

var corpusLoad struct {
	once  sync.Once
	files []corpusFile
	err   error
}

// loadCorpus returns the corpus files that have real URLs (all of them, or
// the first corpusShortFiles in -short mode), or nil when there is no corpus.
func loadCorpus() ([]corpusFile, error) {
	c := &corpusLoad
	c.once.Do(func() {
		dir := corpusDir()
		if dir == "" {
			return
		}
		all, err := corpus.Files(dir)
		if err != nil {
			c.err = err
			return
		}
		for _, f := range all {
			if f.URLs == "" {
				continue
			}
			if testing.Short() && len(c.files) == corpusShortFiles {
				break
			}
			body, err := os.ReadFile(f.Path)
			if err != nil {
				c.err = err
				return
			}
			urls, err := corpus.ReadLines(f.URLs)
			if err != nil {
				c.err = err
				return
			}
			if len(urls) == 0 {
				continue
			}
			c.files = append(c.files, corpusFile{name: f.Name, body: body, urls: urls})
		}
	})
	return c.files, c.err
}

// corpusResult is one library's first run over the corpus: which files it
// finished within corpusFileCap, its answers, and its memory.
type corpusResult struct {
	ok       []int    // indexes of the files it finished, in order
	answers  [][]bool // answers[i]: its decisions on file i's URLs (nil if not finished)
	skipped  int      // files over corpusFileCap
	failed   int      // files it rejected (parse error) or panicked on
	failures []string // a few of the failures, for the log
	heap     []int64  // heap[i]: heap retained after parse+bind of file i
	decided  []int64  // decided[i]: heap retained after deciding file i's URLs too
	automata []int64  // automata[i]: ours' Matcher.Stats().Bytes for file i
}

var corpusResults sync.Map // library name -> *corpusResult

// corpusReadyCap bounds how long a corpus helper may take to load the
// corpus before its first file (a second or two for the full corpus).
const corpusReadyCap = 2 * time.Minute

// corpusFirstRun runs lib once over files, in a helper process
// (corpusHelper) that is killed when one file takes it longer than
// corpusFileCap; that file is counted as skipped and a new helper goes on
// from the next one. The result is cached for the run.
func corpusFirstRun(lib Library, files []corpusFile) (*corpusResult, error) {
	if r, ok := corpusResults.Load(lib.Name); ok {
		return r.(*corpusResult), nil
	}
	res := &corpusResult{answers: make([][]bool, len(files)), heap: make([]int64, len(files)), decided: make([]int64, len(files)), automata: make([]int64, len(files))}
	fail := func(i int, why string) {
		res.failed++
		if len(res.failures) < 3 {
			res.failures = append(res.failures, files[i].name+": "+why)
		}
	}
	for from := 0; from < len(files); {
		next, err := corpusHelperRun(lib, files, from, res, fail)
		if err != nil {
			return nil, err
		}
		from = next
	}
	corpusResults.Store(lib.Name, res)
	return res, nil
}

// corpusHelperRun runs one helper from file index from, records its
// results, and returns the index to go on from.
func corpusHelperRun(lib Library, files []corpusFile, from int, res *corpusResult, fail func(int, string)) (int, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := helperCommand(ctx, "corpus", lib.Name, strconv.Itoa(from))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	next := from // the file the helper is on
	timer := time.NewTimer(corpusReadyCap)
	defer timer.Stop()
	ready := false
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				werr := cmd.Wait()
				if !ready {
					return 0, fmt.Errorf("corpus helper for %s: %v: %s", lib.Name, werr, firstLine(stderr.String()))
				}
				if next < len(files) { // it died on files[next] (a crash recover cannot catch)
					fail(next, "helper died: "+firstLine(stderr.String()+" "+fmt.Sprint(werr)))
					return next + 1, nil
				}
				return next, nil
			}
			if l == "ready" {
				ready = true
			} else if err := res.record(l, files, fail); err != nil {
				return 0, err
			} else {
				next++
			}
			timer.Reset(corpusFileCap)
		case <-timer.C:
			cancel()
			for range lines {
			}
			cmd.Wait()
			if !ready {
				return 0, fmt.Errorf("corpus helper for %s: not ready after %v", lib.Name, corpusReadyCap)
			}
			res.skipped++
			noteSkip("RealCorpus/%s/%s: over the %v cap (skipped)", lib.Name, files[next].name, corpusFileCap)
			return next + 1, nil
		}
	}
}

// record parses one result line of corpusHelper.
func (res *corpusResult) record(line string, files []corpusFile, fail func(int, string)) error {
	f := strings.SplitN(line, " ", 5)
	i, err := strconv.Atoi(f[0])
	if err != nil || i < 0 || i >= len(files) || len(f) < 3 {
		return fmt.Errorf("corpus helper: bad line %q", firstLine(line))
	}
	if f[1] == "err" {
		fail(i, strings.Join(f[2:], " "))
		return nil
	}
	f = strings.SplitN(line, " ", 6)
	if f[1] != "ok" || len(f) != 6 || len(f[5]) != len(files[i].urls) {
		return fmt.Errorf("corpus helper: bad line %q", firstLine(line))
	}
	heap, _ := strconv.ParseInt(f[2], 10, 64)
	decided, _ := strconv.ParseInt(f[3], 10, 64)
	automata, _ := strconv.ParseInt(f[4], 10, 64)
	answers := make([]bool, len(f[5]))
	for j := range answers {
		answers[j] = f[5][j] == '1'
	}
	res.ok = append(res.ok, i)
	res.answers[i] = answers
	res.heap[i] = heap
	res.decided[i] = decided
	res.automata[i] = automata
	return nil
}

// corpusHelper is the helper process of corpusFirstRun: it loads the corpus,
// prints "ready", then for each file from index from on, parses and binds it
// with the library named lib, measures the heap that retains, decides every
// URL, measures the heap again, and prints "I ok HEAP DECIDED AUTOMATA
// ANSWERS" (ANSWERS: one '1' for allowed or '0' per URL) or "I err MESSAGE"
// when the library rejects the file or panics.
func corpusHelper(libName, fromArg string, w io.Writer) error {
	lib, err := LibraryNamed(libName)
	if err != nil {
		return err
	}
	from, err := strconv.Atoi(fromArg)
	if err != nil {
		return err
	}
	files, err := loadCorpus()
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "ready")
	for i := from; i < len(files); i++ {
		fmt.Fprintln(w, corpusFileRun(lib, i, &files[i]))
	}
	return nil
}

// collect runs the garbage collector twice, so that the heap it leaves is
// what is reachable: what a sync.Pool holds (ours keeps scratch buffers in
// pools, shared by every file) survives one collection in the pool's victim
// cache and would be counted as the file's.
func collect() {
	runtime.GC()
	runtime.GC()
}

// corpusFileRun is one file of corpusHelper; it returns the result line.
func corpusFileRun(lib Library, i int, f *corpusFile) (line string) {
	defer func() {
		if p := recover(); p != nil {
			line = fmt.Sprintf("%d err panic: %s", i, firstLine(fmt.Sprint(p)))
		}
	}()
	var m0, m1, m2 runtime.MemStats
	answers := make([]byte, len(f.urls))
	collect()
	runtime.ReadMemStats(&m0)
	decide, r, err := Prepare(lib, f.body, Agent)
	if err != nil {
		return fmt.Sprintf("%d err %s", i, firstLine(err.Error()))
	}
	collect()
	runtime.ReadMemStats(&m1)
	heap := max(0, int64(m1.HeapAlloc)-int64(m0.HeapAlloc))
	var automata int
	if o, ok := r.(interface{ CompiledBytes(string) int }); ok {
		automata = o.CompiledBytes(Agent)
	}
	for j, u := range f.urls {
		answers[j] = '0'
		if decide(u) {
			answers[j] = '1'
		}
	}
	collect()
	runtime.ReadMemStats(&m2)
	decided := max(0, int64(m2.HeapAlloc)-int64(m0.HeapAlloc))
	if o, ok := r.(interface{ CompiledBytes(string) int }); ok {
		automata = o.CompiledBytes(Agent) // with the states the URLs built
	}
	runtime.KeepAlive(r)
	return fmt.Sprintf("%d ok %d %d %d %s", i, heap, decided, automata, answers)
}

// corpusCommon is the preamble of the corpus benchmarks: it loads the
// corpus (skipping b without one), runs every library's first run, and
// returns the files, the results in Libraries order, and the indexes of the
// files every library finished with their URLs and bytes.
func corpusCommon(b *testing.B) (files []corpusFile, results []*corpusResult, common []int, urls int, size int64) {
	files, err := loadCorpus()
	if err != nil {
		b.Fatalf("corpus: %v", err)
	}
	if len(files) == 0 {
		b.Skip("no corpus: set -corpus DIR or $ROBOTSTXT_CORPUS, or put it in shared/corpus beside the checkout")
	}
	results = make([]*corpusResult, len(Libraries))
	for li, lib := range Libraries {
		if results[li], err = corpusFirstRun(lib, files); err != nil {
			b.Fatal(err)
		}
	}
	for i := range files {
		all := true
		for _, res := range results {
			all = all && res.answers[i] != nil
		}
		if all {
			common = append(common, i)
			urls += len(files[i].urls)
			size += int64(len(files[i].body))
		}
	}
	if len(common) == 0 {
		b.Skip("no corpus file was finished by every library")
	}
	return files, results, common, urls, size
}

// BenchmarkRealCorpus runs every library in its best form over the corpus
// files that have real URLs. Each library's first run goes over every file
// (see corpusFirstRun); one timed op then parses, binds and decides all URLs
// of the files that every library finished, so that all are timed on the
// same work. It reports ns/URL (the op divided by those URLs), heap-B/file
// (heap retained after parse and bind, averaged; runtime.MemStats),
// heap-decided-B/file (the same after deciding the file's URLs too: a
// crawler's cached file), for ours also automaton-B/file
// (Matcher.Stats().Bytes after deciding), disagree (decisions on
// those files that differ from our engine in Google semantics: a sanity
// check, not a failure, as the libraries read robots.txt differently), and
// per library the files skipped (over the cap) and failed (rejected or
// panicked on). Each file's sequence is also timed on its own, and every
// other library reports file-ratio (when ours ran first in the same
// process): the median over the files of its time on a file divided by
// ours. ns/URL is a sum, which the corpus's few largest files weigh on
// (one of 833 KiB is about a quarter of it); the median ratio says how
// the libraries compare on a typical file.
//
// The corpus is -corpus DIR, else $ROBOTSTXT_CORPUS, else shared/corpus
// beside the checkout (../shared/corpus from the repository root); the
// benchmark is skipped without one. In -short mode only the first
// corpusShortFiles files are used.
func BenchmarkRealCorpus(b *testing.B) {
	files, results, common, urls, size := corpusCommon(b)
	ref := results[0]        // our engine: the reference for disagreement
	var ours []time.Duration // our time on each file, once ours has run
	for li, lib := range Libraries {
		res := results[li]
		b.Run(lib.Name, func(b *testing.B) {
			disagree := 0
			var heap, decided, automata int64
			var examples []string
			for _, i := range common {
				heap += res.heap[i]
				decided += res.decided[i]
				automata += res.automata[i]
				for j, got := range res.answers[i] {
					if want := ref.answers[i][j]; got != want {
						disagree++
						if len(examples) < 3 {
							examples = append(examples, fmt.Sprintf("%s %s: %s allowed=%v, robotstxt allowed=%v", files[i].name, files[i].urls[j], lib.Name, got, want))
						}
					}
				}
			}
			perFile := make([]time.Duration, len(common))
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				for k, i := range common {
					f := &files[i]
					t0 := time.Now()
					decide, _, _ := Prepare(lib, f.body, Agent)
					for _, u := range f.urls {
						sinkBool = decide(u)
					}
					perFile[k] += time.Since(t0)
				}
			}
			b.StopTimer()
			for k := range perFile { // per op: the libraries ran different b.N
				perFile[k] /= time.Duration(b.N)
			}
			if li == 0 {
				ours = perFile
			} else if ours != nil {
				b.ReportMetric(medianRatio(perFile, ours), "file-ratio")
			}
			nf := float64(len(common))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(urls), "ns/URL")
			b.ReportMetric(float64(heap)/nf, "heap-B/file")
			b.ReportMetric(float64(decided)/nf, "heap-decided-B/file")
			if automata > 0 {
				b.ReportMetric(float64(automata)/nf, "automaton-B/file")
			}
			b.ReportMetric(float64(disagree), "disagree")
			b.ReportMetric(float64(res.skipped), "skipped")
			b.ReportMetric(float64(res.failed), "failed")
			b.Logf("%s: timed on the %d files (%d URLs) of %d that every library finished; it skipped %d over %v, failed %d %v; %d of %d decisions disagree with robotstxt (Google semantics)",
				lib.Name, len(common), urls, len(files), res.skipped, corpusFileCap, res.failed, res.failures, disagree, urls)
			for _, e := range examples {
				b.Logf("  e.g. %s", e)
			}
		})
	}
}

// medianRatio returns the median over the files of their time in t over
// their time in base (a file base took no measurable time on is left out).
func medianRatio(t, base []time.Duration) float64 {
	var r []float64
	for k := range t {
		if base[k] > 0 {
			r = append(r, float64(t[k])/float64(base[k]))
		}
	}
	if len(r) == 0 {
		return 0
	}
	slices.Sort(r)
	if len(r)%2 == 1 {
		return r[len(r)/2]
	}
	return (r[len(r)/2-1] + r[len(r)/2]) / 2
}

// prepareCommon parses and binds, with lib, the files numbered in common
// (every library finished them in corpusCommon's first run, so none fails).
func prepareCommon(lib Library, files []corpusFile, common []int) []func(string) bool {
	decide := make([]func(string) bool, len(common))
	for k, i := range common {
		decide[k], _, _ = Prepare(lib, files[i].body, Agent)
	}
	return decide
}

// warmUp decides the URLs of each file numbered in common, untimed, again
// and again, until the file has decided more than twice
// automaton.DefaultWarmUp of them: our engine's matchers are then past
// their warm-up, in which they decide without building states, and have
// built the states of the file's URLs. Every library is warmed up alike,
// except with -short, where only ours (Libraries[0], ours true) is and the
// others decide each URL once: -short is a smoke run whose numbers nobody
// quotes, and grobotstxt, which parses the file anew for every URL, spent
// over a minute of it in those rounds.
func warmUp(decide []func(string) bool, files []corpusFile, common []int, ours bool) {
	for k, i := range common {
		if ours || !testing.Short() {
			pastWarmUp(decide[k], files[i].urls)
			continue
		}
		for _, u := range files[i].urls {
			sinkBool = decide[k](u)
		}
	}
}

// pastWarmUp decides urls, again and again, until more than twice
// automaton.DefaultWarmUp of them were decided (none when there are none):
// our engine's matcher is then past its warm-up (which counts inputs by
// sampling, so that it ends after about DefaultWarmUp of them, not
// exactly) and has built the states the URLs visit, the steady state a
// benchmark of decisions measures.
func pastWarmUp(decide func(string) bool, urls []string) {
	for n := 0; n <= 2*automaton.DefaultWarmUp && len(urls) > 0; n += len(urls) {
		for _, u := range urls {
			sinkBool = decide(u)
		}
	}
}

// BenchmarkRealCorpusDecideTwice is BenchmarkRealCorpusDecide for our
// engine, with every file's URLs decided twice in a row: first-ns/URL is the
// first round's time per URL, again-ns/URL the second's (each round timed
// with time.Now around it, the rounds of all files summed). The first round
// pays for moving to the file: its automata, class maps and URLs are not in
// the CPU's caches and its branches not in the predictor. The second pays
// for the decisions alone. The gap is what a crawler that goes from site to
// site pays on top of the work; the second round is what the scan costs.
func BenchmarkRealCorpusDecideTwice(b *testing.B) {
	files, _, common, urls, _ := corpusCommon(b)
	decide := prepareCommon(Libraries[0], files, common)
	warmUp(decide, files, common, true)
	var first, again time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		for k, i := range common {
			d := decide[k]
			t0 := time.Now()
			for _, u := range files[i].urls {
				sinkBool = d(u)
			}
			t1 := time.Now()
			for _, u := range files[i].urls {
				sinkBool = d(u)
			}
			first += t1.Sub(t0)
			again += time.Since(t1)
		}
	}
	b.StopTimer()
	perURL := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) / float64(urls) }
	b.ReportMetric(perURL(first), "first-ns/URL")
	b.ReportMetric(perURL(again), "again-ns/URL")
}

// BenchmarkRealCorpusDecide is BenchmarkRealCorpus without the parsing: every
// library first parses and binds every file that every library finished and
// decides its URLs (untimed, warmUp: all of them stay in memory, and ours
// is past its warm-up and has built the automaton states the URLs visit),
// then one timed op decides every URL of every file, in file order. ns/URL is the cost of one
// decision on real files with their real URLs, averaged over all of them:
// what a crawler pays, in the steady state, once its robots.txt files are
// compiled. BenchmarkRealCorpus times the whole sequence, first decisions
// included.
func BenchmarkRealCorpusDecide(b *testing.B) {
	files, results, common, urls, _ := corpusCommon(b)
	for li, lib := range Libraries {
		res := results[li]
		b.Run(lib.Name, func(b *testing.B) {
			decide := prepareCommon(lib, files, common)
			warmUp(decide, files, common, li == 0)
			b.ReportAllocs()
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				for k, i := range common {
					d := decide[k]
					for _, u := range files[i].urls {
						sinkBool = d(u)
					}
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(urls), "ns/URL")
			b.ReportMetric(float64(len(common)), "files")
			b.ReportMetric(float64(res.skipped), "skipped")
			b.ReportMetric(float64(res.failed), "failed")
		})
	}
}
