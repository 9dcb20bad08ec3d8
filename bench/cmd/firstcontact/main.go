//go:build nzrsky

package main

/*
#cgo CXXFLAGS: -O3 -std=c++20
#cgo LDFLAGS: -lstdc++
void cpp_add(const char* body, long n, const char* url, long m);
void cpp_agent_set(const char* agent, long n);
void cpp_clear(void);
long cpp_pass(void);
#include <stdlib.h>
*/
import "C"

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"syscall"
	"unsafe"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
)

const agent = "Googlebot"

// list is one measured list: each file's body and the URL decided on it.
type list struct {
	name   string
	bodies [][]byte
	urls   []string
}

func main() {
	cycles := flag.Int("cycles", 21, "pass pairs per list (odd: the median is a pass's)")
	dir := flag.String("corpus", "", "corpus directory (default: as the benchmarks find it)")
	flag.Parse()
	if *dir == "" {
		*dir = corpusDir()
	}
	lists, err := load(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "firstcontact:", err)
		os.Exit(2)
	}
	opts := engine.Options{Semantics: engine.Google, MaxFileSize: 64 << 20} // whole files, as the C++ reads them
	ours := []struct {
		name   string
		decide func(body []byte, url string) bool
	}{
		{"CompileFor", func(b []byte, u string) bool { return engine.CompileFor(b, opts, agent).Allowed(u) }},
		{"Compile+Matcher", func(b []byte, u string) bool { return engine.Compile(b, opts).Matcher(agent).Allowed(u) }},
	}
	fmt.Printf("| list | files | C++ ms a pass | ours | ms a pass | C++ / ours (median of %d pass pairs) |\n|---|---|---|---|---|---|\n", *cycles)
	for _, l := range lists {
		cppLoad(l)
		for _, o := range ours {
			var cppMS, ourMS, ratios []float64
			for c := range *cycles + 1 {
				runtime.GC()
				t0 := cpuNS()
				nc := int(C.cpp_pass())
				t1 := cpuNS()
				runtime.GC()
				t2 := cpuNS()
				no := 0
				for i, b := range l.bodies {
					if o.decide(b, l.urls[i]) {
						no++
					}
				}
				t3 := cpuNS()
				if nc != no {
					fmt.Fprintf(os.Stderr, "firstcontact: %s: C++ allowed %d URLs, %s %d\n", l.name, nc, o.name, no)
				}
				if c == 0 {
					continue // the first pair warms up
				}
				cppMS, ourMS = append(cppMS, float64(t1-t0)/1e6), append(ourMS, float64(t3-t2)/1e6)
				ratios = append(ratios, float64(t1-t0)/float64(t3-t2))
			}
			fmt.Printf("| %s | %d | %.1f | %s | %.1f | %.2f× |\n", l.name, len(l.bodies), median(cppMS), o.name, median(ourMS), median(ratios))
		}
	}
}

// cppLoad gives the C++ side l's bodies and URLs.
func cppLoad(l list) {
	C.cpp_clear()
	a := []byte(agent)
	C.cpp_agent_set((*C.char)(unsafe.Pointer(&a[0])), C.long(len(a)))
	for i, b := range l.bodies {
		u := []byte(l.urls[i])
		var bp *C.char
		if len(b) > 0 {
			bp = (*C.char)(C.CBytes(b))
		}
		up := (*C.char)(C.CBytes(u))
		C.cpp_add(bp, C.long(len(b)), up, C.long(len(u)))
		C.free(unsafe.Pointer(bp))
		C.free(unsafe.Pointer(up))
	}
}

// home is a URL of a site's home page.
var home = regexp.MustCompile(`^https?://[^/]+/?$`)

// load reads the two lists: every file with https://example.com/, and
// every file with real URLs with its first URL below the home page (its
// first URL when all are home pages).
func load(dir string) ([]list, error) {
	files, err := corpus.Files(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no corpus files in %s", dir)
	}
	all, deep := list{name: "every file, https://example.com/"}, list{name: "files with real URLs, the first below /"}
	for _, f := range files {
		body, urls, err := f.Read()
		if err != nil {
			return nil, err
		}
		all.bodies, all.urls = append(all.bodies, body), append(all.urls, "https://example.com/")
		if len(urls) == 0 {
			continue
		}
		u := urls[0]
		if i := slices.IndexFunc(urls, func(u string) bool { return !home.MatchString(u) }); i >= 0 {
			u = urls[i]
		}
		deep.bodies, deep.urls = append(deep.bodies, body), append(deep.urls, u)
	}
	return []list{all, deep}, nil
}

// corpusDir is the corpus the benchmarks use: $ROBOTSTXT_CORPUS, else
// shared/corpus beside the checkout.
func corpusDir() string {
	if d := os.Getenv("ROBOTSTXT_CORPUS"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "corpus")
}

// cpuNS returns the process's CPU time, user and system, in nanoseconds.
func cpuNS() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func median(x []float64) float64 {
	y := slices.Clone(x)
	slices.Sort(y)
	return y[len(y)/2]
}
