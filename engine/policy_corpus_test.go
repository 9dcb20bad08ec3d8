package engine_test

import (
	"os"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/fuzz"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
)

// TestPolicy_CorpusNeverGivesUp decides the real URLs of every corpus file
// that has some (and URLs made from the file's own patterns), in RFC9309
// and Google semantics, and checks that the automaton's DFA never gives up
// on them: the give-up policy (package automaton) is for inputs chosen to
// thrash, and a crawler's real workload stays on the DFA.
func TestPolicy_CorpusNeverGivesUp(t *testing.T) {
	files := corpus.TestFiles(t, 300)
	decided := 0
	for _, f := range files {
		if f.URLs == "" {
			continue
		}
		body, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		urls, err := corpus.ReadLines(f.URLs)
		if err != nil {
			t.Fatal(err)
		}
		for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google} {
			r := engine.Compile(body, engine.Options{Semantics: sem})
			urls := append(urls, fuzz.URLsFromPatterns(r.File(), 2)...)
			m := r.Matcher("Googlebot")
			for _, u := range urls {
				m.Allowed(u)
			}
			decided += len(urls)
			if st := m.Stats(); st.GiveUps != 0 || st.Fallback != 0 {
				t.Errorf("%s (%s): the DFA gave up on %d of %d URLs (%d decided by the fallback): %+v", f.Name, sem, st.GiveUps, len(urls), st.Fallback, st)
			}
		}
	}
	t.Logf("%d decisions", decided)
}
