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
