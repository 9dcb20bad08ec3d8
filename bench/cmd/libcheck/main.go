// Command libcheck is `robotstxt check` for the other libraries of the
// bench, so that the command line can be compared with them as whole
// processes (BenchmarkCLI):
//
//	libcheck -lib NAME -robots FILE -agent TOKEN [-urls FILE]
//
// It reads the robots.txt, readies it for the agent in the library's best
// form (bench.Prepare: bound where the library binds), then decides the URLs
// of FILE (or standard input), one a line, and writes "allowed<TAB>URL" or
// "disallowed<TAB>URL" for each, as robotstxt check does. Lines are read in
// place, without a copy, as robotstxt check reads them. A library that panics
// on a URL stops the process, and so does a line longer than 1 MiB: the
// comparison is of speed, not robustness.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"unsafe"

	"github.com/seed-275a9bd5/robotstxt/bench"
)

func main() {
	lib := flag.String("lib", "slyrz", "the library (a name of bench.Libraries)")
	robots := flag.String("robots", "", "the robots.txt")
	agent := flag.String("agent", "Googlebot", "the crawler's product token")
	urls := flag.String("urls", "", "the URL file (default standard input)")
	flag.Parse()
	if err := run(*lib, *robots, *agent, *urls); err != nil {
		fmt.Fprintln(os.Stderr, "libcheck:", err)
		os.Exit(2)
	}
}

func run(name, robots, agent, urls string) error {
	lib, err := bench.LibraryNamed(name)
	if err != nil {
		return err
	}
	body, err := os.ReadFile(robots)
	if err != nil {
		return err
	}
	allowed, _, err := bench.Prepare(lib, body, agent)
	if err != nil {
		return err
	}
	var in io.Reader = os.Stdin
	if urls != "" {
		f, err := os.Open(urls)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	r := bufio.NewReaderSize(in, 1<<20) // robotstxt check's longest line
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		if len(line) > 0 {
			u := unsafe.String(unsafe.SliceData(line), len(line))
			b := w.AvailableBuffer()
			if allowed(u) {
				b = append(b, "allowed\t"...)
			} else {
				b = append(b, "disallowed\t"...)
			}
			b = append(b, line...)
			if _, err := w.Write(append(b, '\n')); err != nil {
				return err
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	return w.Flush()
}
