package compile

import (
	"bufio"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// corpusEntry is one row of the corpus's MANIFEST.tsv.
type corpusEntry struct {
	file string // relative to the corpus directory
	kind string // robots, robots-no-user-agent, html, text-no-directives, json, empty, binary-or-utf16
}

// readManifest reads MANIFEST.tsv, finding the columns by its header.
func readManifest(t *testing.T, dir string) []corpusEntry {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatalf("corpus %s: %v", dir, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	fileCol, kindCol := -1, -1
	var entries []corpusEntry
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if fileCol < 0 {
			for i, c := range cols {
				switch c {
				case "file":
					fileCol = i
				case "kind":
					kindCol = i
				}
			}
			if fileCol < 0 || kindCol < 0 {
				t.Fatalf("%s/MANIFEST.tsv: no file or kind column in header %q", dir, cols)
			}
			continue
		}
		if len(cols) > max(fileCol, kindCol) {
			entries = append(entries, corpusEntry{file: cols[fileCol], kind: cols[kindCol]})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s/MANIFEST.tsv: %v", dir, err)
	}
	return entries
}

// TestCorpus_ParseAll parses every file of the corpus in every semantics
// and checks the invariants of FuzzParse. Files that are HTML or binary must
// produce diagnostics and (almost) no rules. With -short only every tenth
// file is read.
func TestCorpus_ParseAll(t *testing.T) {
	dir := corpus.Dir(t)
	if dir == "" {
		t.Skip("no corpus: set ROBOTSTXT_CORPUS to a corpus directory")
	}
	entries := readManifest(t, dir)
	start := time.Now()
	var files, bytes, rules, groups, diags, truncated int
	for i, e := range entries {
		if testing.Short() && i%10 != 0 {
			continue
		}
		body, err := os.ReadFile(filepath.Join(dir, e.file))
		if err != nil {
			t.Errorf("%s: %v", e.file, err)
			continue
		}
		files++
		bytes += len(body)
		for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
			f := Parse(body, Options{Semantics: sem, Diagnostics: true})
			checkFile(t, body, f)
			if sem != RFC9309 {
				continue
			}
			n := 0
			for _, g := range f.Groups {
				n += g.Rules.Len()
			}
			rules += n
			groups += len(f.Groups)
			diags += len(f.Diagnostics)
			if f.Truncated {
				truncated++
			}
			if e.kind == "html" || e.kind == "binary-or-utf16" {
				if len(f.Diagnostics) == 0 {
					t.Errorf("%s (%s): no diagnostics", e.file, e.kind)
				}
				if n > 5 {
					t.Errorf("%s (%s): %d rules, want (almost) none", e.file, e.kind, n)
				}
				if n > 0 {
					t.Logf("%s (%s): %d rules", e.file, e.kind, n)
				}
			}
		}
		if t.Failed() {
			break // one broken invariant floods the log otherwise
		}
	}
	t.Logf("%d files, %d bytes in %v: %d groups, %d rules, %d diagnostics, %d truncated (RFC9309)",
		files, bytes, time.Since(start).Round(time.Millisecond), groups, rules, diags, truncated)
}
