package bench

import (
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
)

// TestThrashing_AgreesWithGrobotstxt decides URLs of every thrashing shape
// with ours in Google semantics, both as Compile builds it (the DFA, giving
// up to the fallback where it thrashes) and with the fallback alone
// (CacheBytes < 0), and with grobotstxt, the Go port of Google's library,
// and fails on any difference. grobotstxt parses the whole 500 KiB file
// again for every URL, so every 2 KiB URL and a share of the short ones are
// compared (the engine's own tests compare all of them, 64 KiB ones
// included, with the reference matcher).
func TestThrashing_AgreesWithGrobotstxt(t *testing.T) {
	if testing.Short() {
		t.Skip("grobotstxt parses 500 KiB per URL")
	}
	google, err := LibraryNamed("grobotstxt")
	if err != nil {
		t.Fatal(err)
	}
	const shortShare = 20 // every twentieth short URL
	start := time.Now()
	compared := 0
	for _, c := range gen.Thrashing(1) {
		r := engine.Compile(c.Body, engine.Options{Semantics: Semantics})
		rf := engine.Compile(c.Body, engine.Options{Semantics: Semantics, CacheBytes: -1})
		g, err := google.Parse(c.Body)
		if err != nil {
			t.Fatal(err)
		}
		urls := c.Medium
		for i := 0; i < len(c.Short); i += shortShare {
			urls = append(urls, c.Short[i])
		}
		agent := gen.Agents[0] // one "*" group: every agent gets its rules
		m, mf := r.Matcher(agent), rf.Matcher(agent)
		for _, u := range urls {
			compared++
			want := g.Allowed(agent, u)
			if a, f := m.Allowed(u), mf.Allowed(u); a != want || f != want {
				t.Errorf("%s, %.80q: robotstxt %v, its fallback %v, grobotstxt %v", c.Name, u, a, f, want)
			}
		}
		if st := m.Stats(); st.GiveUps == 0 {
			t.Errorf("%s: the DFA never gave up (%+v): the fallback was not compared", c.Name, st)
		}
	}
	t.Logf("%d decisions compared in %v", compared, time.Since(start).Round(time.Millisecond))
}
