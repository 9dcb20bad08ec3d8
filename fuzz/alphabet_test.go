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

// statementAtoms are what TestDifferential_UsageSmallAlphabet builds
// content-usage statements from: the vocabulary's members and those that
// give unknown (other values, inner lists, parameters, upper-case keys),
// an extension key, every bare item type of RFC 9651, and separators
// that are or are not valid between members.
var statementAtoms = []string{
	"train-ai=y", "train-ai=n", "search=y", "search=n", "train-genai=n", "train-genai=y",
	"train-ai", "search=?1", "train-ai=y;p=1", "search=n;a;b=?0", "Train-AI=n", "train-ai=(y n)",
	`search="n"`, "train-ai=yes", "train-ai=N", "*x=y", "a.b_c-d*=1", "a=-1.25", "a=1234567890123456",
	"a=:YQ==:", "a=:YQ:", "d=@1", "d=@1.5", `s=%"%c3%a9"`, `s=%"%C3"`, "t=?2", "b=1.", "t=y/n:x",
	", ", ",", " ", "\t", "=", ";", "()", "y", "",
}

// TestDifferential_UsageSmallAlphabet compares the engine's usage
// preferences with the reference's (docs/SEMANTICS.md section 7) on random
// files whose groups mix allow, disallow and content-usage lines, their
// paths made from alphabet and their statements from statementAtoms.
func TestDifferential_UsageSmallAlphabet(t *testing.T) {
	files := 1000
	if testing.Short() {
		files = 200
	}
	rng := rand.New(rand.NewSource(2))
	agents := []string{"FooBot", "*", "bar"}
	keys := []string{"Content-Usage: ", "content-usage:", "CONTENT-USAGE :\t", "Content-Usage "}
	n := 0
	for i := 0; i < files && !t.Failed(); i++ {
		var body strings.Builder
		if rng.Intn(4) == 0 {
			body.WriteString("Content-Usage: train-ai=n\n") // outside every group
		}
		for g := rng.Intn(3) + 1; g > 0; g-- {
			body.WriteString("User-agent: " + agents[rng.Intn(len(agents))] + "\n")
			for r := rng.Intn(6); r > 0; r-- {
				switch rng.Intn(3) {
				case 0:
					kind := []string{"Allow", "Disallow"}[rng.Intn(2)]
					body.WriteString(kind + ": " + alphabetString(rng, 4) + "\n")
				default:
					body.WriteString(keys[rng.Intn(len(keys))] + usageValue(rng) + "\n")
				}
			}
			if rng.Intn(3) == 0 {
				body.WriteString("\n")
			}
		}
		var urls []string
		for u := 0; u < 6; u++ {
			urls = append(urls, alphabetString(rng, 6))
		}
		n += diffFile(t, "usage-small-alphabet", []byte(body.String()), urls,
			[]compile.Semantics{compile.RFC9309, compile.Google, compile.Koster1996})
	}
	t.Logf("%d files, %d decisions compared", files, n)
}

// usageValue returns a random content-usage value: a path or none, then a
// statement of up to three atoms.
func usageValue(rng *rand.Rand) string {
	var b strings.Builder
	if rng.Intn(3) > 0 {
		b.WriteString("/" + alphabetString(rng, 3))
		b.WriteString([]string{" ", "\t", "  "}[rng.Intn(3)])
	}
	for k := rng.Intn(3) + 1; k > 0; k-- {
		b.WriteString(statementAtoms[rng.Intn(len(statementAtoms))])
		if k > 1 && rng.Intn(4) > 0 {
			b.WriteString(", ")
		}
	}
	return b.String()
}
