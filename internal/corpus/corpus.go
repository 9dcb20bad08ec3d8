// Package corpus finds the shared corpus of real robots.txt files and URLs
// for tests and benchmarks: the directory $ROBOTSTXT_CORPUS names, else
// shared/corpus beside the checkout (../shared/corpus from the repository's
// root), and nowhere else. It is test support: callers skip cleanly when
// there is no corpus, and fail when $ROBOTSTXT_CORPUS names a directory
// that is not one (a typo must not skip the corpus tests without a word).
// The corpus is never copied into the repository.
package corpus

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// EnvVar names the environment variable that points at the corpus directory.
const EnvVar = "ROBOTSTXT_CORPUS"

// rootModule is the module whose directory is the root of the checkout; the
// nested modules (bench, store/...) live below it.
const rootModule = "github.com/seed-275a9bd5/robotstxt"

// Find returns the corpus directory: $ROBOTSTXT_CORPUS if set (the value
// "off" disables the corpus: ""), else shared/corpus beside the checkout
// that holds the working directory when there is one there, else "". A
// corpus directory holds a files/ directory. $ROBOTSTXT_CORPUS naming
// anything else is an error that says so.
func Find() (string, error) {
	if d := os.Getenv(EnvVar); d != "" {
		if d == "off" {
			return "", nil
		}
		if !isDir(filepath.Join(d, "files")) {
			return "", fmt.Errorf("corpus: %s=%s names no corpus directory (there is no %s): fix the path, or set %s=off to run without the corpus",
				EnvVar, d, filepath.Join(d, "files"), EnvVar)
		}
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", nil
	}
	return besideCheckout(wd), nil
}

// besideCheckout returns shared/corpus beside the checkout that holds dir,
// when it is a corpus directory, else "". The checkout is the directory of
// the nearest go.mod at or above dir that declares the root module; only
// the directory beside it is looked at, not those beside its parents.
func besideCheckout(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && moduleOf(data) == rootModule {
			c := filepath.Join(filepath.Dir(d), "shared", "corpus")
			if isDir(filepath.Join(c, "files")) {
				return c
			}
			return ""
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// moduleOf returns the module path that a go.mod file declares, or "".
func moduleOf(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// Dir is Find for a test or benchmark: it returns the corpus directory, or
// "" when there is none, and fails tb when $ROBOTSTXT_CORPUS names no
// corpus directory.
func Dir(tb testing.TB) string {
	tb.Helper()
	d, err := Find()
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// File is one corpus file with what the manifests say of it.
type File struct {
	Name string // e.g. "www.google.com.txt"
	Path string
	Kind string // MANIFEST.tsv kind: robots, html, binary-or-utf16, ...
	// URLs is the path of the real URL list of its host, or "".
	URLs string
}

// Files lists the corpus files in name order, with their manifest kind and
// URL list. dir is what Dir returned.
func Files(dir string) ([]File, error) {
	kinds := map[string]string{}
	if err := readTSV(filepath.Join(dir, "MANIFEST.tsv"), func(col map[string]string) {
		kinds[col["file"]] = col["kind"]
	}); err != nil {
		return nil, err
	}
	urls := map[string]string{}
	_ = readTSV(filepath.Join(dir, "URLS_MANIFEST.tsv"), func(col map[string]string) {
		if f := col["corpus_file_for_site"]; f != "" && f != "-" {
			urls[f] = filepath.Join(dir, col["file"])
		}
	})
	names, err := filepath.Glob(filepath.Join(dir, "files", "*"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]File, 0, len(names))
	for _, p := range names {
		rel := "files/" + filepath.Base(p)
		out = append(out, File{Name: filepath.Base(p), Path: p, Kind: kinds[rel], URLs: urls[rel]})
	}
	return out, nil
}

func readTSV(path string, row func(map[string]string)) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var header []string
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if header == nil {
			header = fields
			continue
		}
		col := make(map[string]string, len(header))
		for i, h := range header {
			if i < len(fields) {
				col[h] = fields[i]
			}
		}
		row(col)
	}
	return sc.Err()
}

// Read returns the file's body and its real URLs (none when it has no URL
// list).
func (f File) Read() (body []byte, urls []string, err error) {
	if body, err = os.ReadFile(f.Path); err != nil || f.URLs == "" {
		return body, nil, err
	}
	urls, err = ReadLines(f.URLs)
	return body, urls, err
}

// Bodies returns the bodies of one in every of files (1: all of them), in
// their order: what the benchmarks that hold the whole corpus in memory
// read.
func Bodies(files []File, every int) ([][]byte, error) {
	var bodies [][]byte
	for i := 0; i < len(files); i += max(every, 1) {
		body, err := os.ReadFile(files[i].Path)
		if err != nil {
			return nil, err
		}
		bodies = append(bodies, body)
	}
	return bodies, nil
}

// AllBodies returns the body of every corpus file, in name order, and
// their total size, for a benchmark that holds the whole corpus in memory:
// it skips tb when there is no corpus (see Dir) and fails it when a file
// cannot be read.
func AllBodies(tb testing.TB) (bodies [][]byte, size int64) {
	tb.Helper()
	dir := Dir(tb)
	if dir == "" {
		tb.Skip("no corpus (set ROBOTSTXT_CORPUS)")
	}
	files, err := Files(dir)
	if err == nil {
		bodies, err = Bodies(files, 1)
	}
	if err != nil {
		tb.Fatal(err)
	}
	for _, body := range bodies {
		size += int64(len(body))
	}
	return bodies, size
}

// ReadLines returns the non-empty lines of a URL list.
func ReadLines(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimRight(l, "\r"); l != "" {
			out = append(out, l)
		}
	}
	return out, nil
}

// TestFiles returns the corpus files for a test, skipping the test when
// there is no corpus and keeping the first shortLimit files in -short mode.
func TestFiles(tb testing.TB, shortLimit int) []File {
	tb.Helper()
	dir := Dir(tb)
	if dir == "" {
		tb.Skip("corpus not found: set " + EnvVar + " or place it at shared/corpus beside the checkout")
	}
	files, err := Files(dir)
	if err != nil {
		tb.Fatal(err)
	}
	if testing.Short() && len(files) > shortLimit {
		files = files[:shortLimit]
	}
	return files
}
