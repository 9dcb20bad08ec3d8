package fuzz

import (
	"testing"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/internal/reference"
)

// FuzzReferencePieces compares the reference's own URL reading and
// percent-normalisation with compile's, piece by piece: a disagreement here
// names the step (path extraction, path normalisation, pattern
// normalisation) that FuzzEngine would only show as a different decision.
// This test is the only place where the two meet; the reference itself
// calls none of compile's URL or pattern functions.
func FuzzReferencePieces(f *testing.F) {
	seeds := []string{
		"https://example.com/a?b#c", "http://a.com;x/y", "www.example.com?q", "mailto:a@b", "//a/b",
		"/%7ejoe/%2f/%%41/%4%41/\xc3\xbc*$", "/a$b$", "HTTP://u:p@[::1]:8080/x", "a#b/c", "http:/a", "x://y",
	}
	for _, s := range seeds {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, sem uint8) {
		if len(s) > 1024 {
			return
		}
		comparePieces(t, s, compile.Semantics(sem%3))
	})
}

// comparePieces reports where the reference's reading of s as a URL, and of
// s as a pattern, differs from compile's in sm.
func comparePieces(t *testing.T, s string, sm compile.Semantics) {
	t.Helper()
	if got, want := reference.ExtractPath(s, sm), compile.ExtractPath(s, sm); got != want {
		t.Errorf("%s: path of %q: reference %q, compile %q", sm, s, got, want)
	}
	if got, want := reference.NormalizedPath(reference.ExtractPath(s, sm), sm), compile.URLPath(s, sm); got != want {
		t.Errorf("%s: normalised path of %q: reference %q, compile %q", sm, s, got, want)
	}
	if got, want := reference.NormalizedPattern(s, sm), compile.NormalizePattern(s, sm); got != want {
		t.Errorf("%s: pattern %q: reference %q, compile %q", sm, s, got, want)
	}
}
