package engine_test

import (
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
	"github.com/seed-275a9bd5/robotstxt/internal/reference"
)

// TestPolicy_CorpusNeverGivesUp decides the real URLs of every corpus file
// that has some, in RFC9309 and Google semantics, with the default options
// and with the DFA from the first URL, and checks that the DFA never gives
// up on them: giving up is for inputs chosen to thrash, and a crawler's
// real workload has the DFA build the states it needs and stop missing.
// (The piece matcher may decide real URLs: a file of hundreds of "/*/..."
// rules is cheaper for it than for tries.) URLs made from the file's own
// patterns come after, and may make a few give up (dreamstime.com's
// thousand "/*/*WORD.html" rules do), but not one in a hundred.
func TestPolicy_CorpusNeverGivesUp(t *testing.T) {
	files := corpus.TestFiles(t, 300)
	decided, generated, gaveUp := 0, 0, 0
	for _, f := range files {
		if f.URLs == "" {
			continue
		}
		body, urls, err := f.Read()
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []engine.Options{{Semantics: engine.RFC9309}, {Semantics: engine.Google}, {Semantics: engine.Google, WarmUp: -1}} {
			r := engine.Compile(body, opts)
			m := r.Matcher("Googlebot")
			for _, u := range urls {
				m.Allowed(u)
			}
			decided += len(urls)
			if st := m.Stats(); st.GiveUps != 0 {
				t.Errorf("%s (%+v): %d of %d real URLs gave up on the DFA: %+v", f.Name, opts, st.GiveUps, len(urls), st)
			}
			made := reference.URLsFromPatterns(r.File(), 2)
			for _, u := range made {
				m.Allowed(u)
			}
			generated += len(made)
			gaveUp += int(m.Stats().GiveUps)
		}
	}
	t.Logf("%d decisions of real URLs, none given up; %d of URLs made from the patterns, %d given up", decided, generated, gaveUp)
	if gaveUp*100 > generated {
		t.Errorf("the DFA gave up on %d of %d URLs made from the files' patterns", gaveUp, generated)
	}
}
