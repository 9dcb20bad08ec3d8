package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFind_MissingDirectoryIsAnError: issue 31 found that a mistyped
// $ROBOTSTXT_CORPUS skipped the corpus tests without a word, like no
// corpus at all. It is an error now, which says what to do; "off" and a
// real corpus are not.
func TestFind_MissingDirectoryIsAnError(t *testing.T) {
	good := t.TempDir()
	if err := os.Mkdir(filepath.Join(good, "files"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env, dir, err string
	}{
		{filepath.Join(good, "typo"), "", "names no corpus directory"},
		{t.TempDir(), "", "names no corpus directory"}, // a directory without files/
		{"off", "", ""},
		{good, good, ""},
	} {
		t.Setenv(EnvVar, c.env)
		dir, err := Find()
		if dir != c.dir || (err == nil) != (c.err == "") || err != nil && (!strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), EnvVar+"=off")) {
			t.Errorf("%s=%s: Find() = %q, %v; want %q and an error with %q", EnvVar, c.env, dir, err, c.dir, c.err)
		}
	}
}

// TestFind_BesideTheCheckoutOnly: issue 49 found that the tests took
// shared/corpus from any parent directory, where README says "beside the
// checkout". Without $ROBOTSTXT_CORPUS the corpus is ../shared/corpus from
// the root module's directory, found from any directory of the checkout
// (a nested module's too), and one beside a directory further up is not
// taken.
func TestFind_BesideTheCheckoutOnly(t *testing.T) {
	mkdir := func(parts ...string) string {
		d := filepath.Join(parts...)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	write := func(dir, module string) {
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("// a comment\nmodule "+module+"\n\ngo 1.22\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	top := t.TempDir()
	mkdir(top, "shared", "corpus", "files") // beside top/outer, not beside the checkout
	checkout := mkdir(top, "outer", "robotstxt")
	write(checkout, rootModule)
	bench := mkdir(checkout, "bench")
	write(bench, rootModule+"/bench")
	pkg := mkdir(checkout, "engine", "lint")
	for _, dir := range []string{checkout, bench, pkg} {
		if got := besideCheckout(dir); got != "" {
			t.Errorf("from %s: %q, want none (the corpus is beside a parent of the checkout)", dir, got)
		}
	}
	beside := mkdir(top, "outer", "shared", "corpus", "files")
	for _, dir := range []string{checkout, bench, pkg} {
		if got := besideCheckout(dir); got != filepath.Dir(beside) {
			t.Errorf("from %s: %q, want %q", dir, got, filepath.Dir(beside))
		}
	}
	// Outside any checkout of the module there is nothing to be beside.
	if got := besideCheckout(mkdir(top, "outer", "elsewhere")); got != "" {
		t.Errorf("outside the checkout: %q, want none", got)
	}
	other := mkdir(top, "outer", "other")
	write(other, "example.com/other")
	if got := besideCheckout(other); got != "" {
		t.Errorf("in another module: %q, want none", got)
	}
}
