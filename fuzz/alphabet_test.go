package fuzz

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// alphabet is what the small-alphabet tests build patterns, paths and URLs
// from: the bytes and escapes that URL reading, percent-normalisation,
// wildcards and the special rules of docs/SEMANTICS.md (sections 3 and 4)
// care about, so that random strings hit their corner cases often.
var alphabet = []string{
	"/", "a", "b", "A", "e", "f", "F", "1", "4", "~", ".", "+", "@",
	"%", "%%", "%4", "%g", "%41", "%61", "%2f", "%2F", "%7e", "%25", "%c3", "%C3", "\xc3",
	"*", "$", "?", ";", "#", ":", "//", "://", "http:", "http://h", "HTTPS://h", "x.com", "[::1]",
	"index.htm", "index.html", "robots.txt", "%72obots.txt",
}

func alphabetString(rng *rand.Rand, maxAtoms int) string {
	var b strings.Builder
	for i := rng.Intn(maxAtoms) + 1; i > 0; i-- {
		b.WriteString(alphabet[rng.Intn(len(alphabet))])
	}
	return b.String()
}

// TestDifferential_SmallAlphabet compares the engine with the reference on
// random files and URLs made from alphabet, in every semantics, for agents
// that name groups in several cases and forms.
func TestDifferential_SmallAlphabet(t *testing.T) {
	files := 3000
	if testing.Short() {
		files = 500
	}
	rng := rand.New(rand.NewSource(1))
	agents := []string{"FooBot", "foobot", "Foo", "*", "Foo-Bar_x", "Foo1", "*x"}
	suffixes := []string{"", "/1.0", " x", "\t", "2"}
	n := 0
	for i := 0; i < files && !t.Failed(); i++ {
		var body strings.Builder
		for g := rng.Intn(3) + 1; g > 0; g-- {
			body.WriteString("User-agent: " + agents[rng.Intn(len(agents))] + suffixes[rng.Intn(len(suffixes))] + "\n")
			for r := rng.Intn(5); r > 0; r-- {
				kind := []string{"Allow", "Disallow"}[rng.Intn(2)]
				body.WriteString(kind + ": " + alphabetString(rng, 6) + "\n")
			}
			if rng.Intn(3) == 0 {
				body.WriteString("\n")
			}
		}
		var urls []string
		for u := 0; u < 8; u++ {
			urls = append(urls, alphabetString(rng, 8))
		}
		n += diffFile(t, "small-alphabet", []byte(body.String()), urls,
			[]compile.Semantics{compile.RFC9309, compile.Google, compile.Koster1996},
			[]string{"foobot"}, []string{"FOO"}, []string{"Foo-Bar_x"})
	}
	t.Logf("%d files, %d decisions compared", files, n)
}

// TestReferencePieces_SmallAlphabet is FuzzReferencePieces on random strings
// made from alphabet: the reference's path extraction and normalisation of
// paths and patterns must give what compile's do.
func TestReferencePieces_SmallAlphabet(t *testing.T) {
	n := 200000
	if testing.Short() {
		n = 20000
	}
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < n && !t.Failed(); i++ {
		s := alphabetString(rng, 8)
		for _, sm := range []compile.Semantics{compile.RFC9309, compile.Google, compile.Koster1996} {
			comparePieces(t, s, sm)
		}
	}
}
