package doccheck

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The lines around README's results table, which scripts/benchtable.py
// rewrites; bench/RESULTS.md has the same table between the same lines.
const (
	tableBegin = "<!-- benchtable: begin -->"
	tableEnd   = "<!-- benchtable: end -->"
)

// readFile returns the file at path, relative to the repository root.
func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestREADME_NewcomersPage: issue 49 found README.md at 809 lines, 41% of
// them a measurement diary with commit hashes and p-values, the commands a
// newcomer runs first under it. README is at most 300 lines, its two
// commands within the first 15, with no commit hash or p-value in it.
func TestREADME_NewcomersPage(t *testing.T) {
	readme := readFile(t, "README.md")
	lines := strings.Split(strings.TrimSuffix(readme, "\n"), "\n")
	if len(lines) > 300 {
		t.Errorf("README.md has %d lines, want at most 300", len(lines))
	}
	head := strings.Join(lines[:min(15, len(lines))], "\n")
	for _, cmd := range []string{"go run ./cmd/robotstxt check ", "go test ./...\n"} {
		if !strings.Contains(head+"\n", cmd) {
			t.Errorf("README.md's first 15 lines lack %q", cmd)
		}
	}
	hash := regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)
	// The module path's owner, seed-275a9bd5, is no commit.
	for _, m := range hash.FindAllString(strings.ReplaceAll(readme, "seed-275a9bd5", ""), -1) {
		if strings.ContainsAny(m, "0123456789") && strings.ContainsAny(m, "abcdef") {
			t.Errorf("README.md holds what looks like a commit hash: %s", m)
		}
	}
	if m := regexp.MustCompile(`\bp ?[=<] ?0?\.\d`).FindString(readme); m != "" {
		t.Errorf("README.md holds a p-value: %s", m)
	}
}

// resultsTable returns the lines between the benchtable markers of the file
// at path.
func resultsTable(t *testing.T, path string) string {
	t.Helper()
	text := readFile(t, path)
	_, rest, ok := strings.Cut(text, tableBegin+"\n")
	table, _, ok2 := strings.Cut(rest, tableEnd)
	if !ok || !ok2 {
		t.Fatalf("%s has no %s ... %s lines", path, tableBegin, tableEnd)
	}
	return table
}

// TestREADME_ResultsTableIsRESULTS: README's results table is the summary
// of bench/RESULTS.md, both written by scripts/benchtable.py from one run's
// output, so that neither is edited by hand or left behind by the other.
// It is a table of at most 15 lines.
func TestREADME_ResultsTableIsRESULTS(t *testing.T) {
	readme, results := resultsTable(t, "README.md"), resultsTable(t, "bench/RESULTS.md")
	if readme != results {
		t.Errorf("README.md's results table is not bench/RESULTS.md's: run scripts/benchtable.py render\n--- README.md\n%s\n--- bench/RESULTS.md\n%s", readme, results)
	}
	rows := 0
	for _, l := range strings.Split(readme, "\n") {
		if strings.HasPrefix(l, "|") {
			rows++
		}
	}
	if rows < 3 || rows > 15 {
		t.Errorf("README.md's results table has %d lines, want a table of 3 to 15:\n%s", rows, readme)
	}
}

// TestLicense_EveryModule: the root module and every nested module (a go.mod
// below the root: store/*, bench, contrib/*) carry the same LICENSE, the
// Apache License 2.0, since a Go module's zip holds only the files under
// its own root; README names the licence.
func TestLicense_EveryModule(t *testing.T) {
	root := readFile(t, "LICENSE")
	if !strings.Contains(root, "Apache License\n                           Version 2.0, January 2004") {
		t.Fatal("LICENSE is not the Apache License 2.0")
	}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "../.." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.Name() != "go.mod" {
			return nil
		}
		dir := filepath.Dir(path)
		data, err := os.ReadFile(filepath.Join(dir, "LICENSE"))
		if err != nil || !bytes.Equal(data, []byte(root)) {
			t.Errorf("the module in %s has no LICENSE, or not the root's (%v)", dir, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if readme := readFile(t, "README.md"); !strings.Contains(readme, "Apache License 2.0") || !strings.Contains(readme, "(LICENSE)") {
		t.Error("README.md does not name the licence and link LICENSE")
	}
}

// TestREADME_LinksResolve: every relative link of README.md and
// docs/GUIDE.md names a file of the repository, and a heading of it when
// the link has an anchor (GitHub's: the heading in lower case, without
// punctuation, spaces as '-'), so that moving a section breaks a test, not
// a newcomer's click.
func TestREADME_LinksResolve(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, page := range []string{"README.md", "docs/GUIDE.md"} {
		text := readFile(t, page)
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.ToSlash(filepath.Join(filepath.Dir(page), file))
			}
			if _, err := os.Stat(filepath.Join("../..", path)); err != nil {
				t.Errorf("%s links %s: %v", page, target, err)
				continue
			}
			if anchor != "" && !hasAnchor(readFile(t, path), anchor) {
				t.Errorf("%s links %s: %s has no heading with the anchor #%s", page, target, path, anchor)
			}
		}
	}
}

// hasAnchor reports whether a heading of the Markdown text has the GitHub
// anchor a.
func hasAnchor(text, a string) bool {
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
				b.WriteRune(r)
			}
		}
		if b.String() == a {
			return true
		}
	}
	return false
}
