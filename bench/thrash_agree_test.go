package bench

import (
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
)

// TestThrashing_AgreesWithGrobotstxt decides URLs of every thrashing shape
// with ours in Google semantics, as Compile builds it (the linear engine's
// tries, or its piece matcher where they would cost too much), with the
// DFA from the first URL (WarmUp < 0: it gives up to the piece matcher
// where it thrashes), and with the piece matcher alone (and CacheBytes <
// 0), and with grobotstxt, the Go port of Google's library, and fails on
// any difference. grobotstxt parses the whole 500 KiB file
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
		var ms []*engine.Matcher
		agent := gen.Agents[0] // one "*" group: every agent gets its rules
		for _, opts := range []engine.Options{{}, {WarmUp: -1}, {WarmUp: -1, CacheBytes: -1}} {
			opts.Semantics = Semantics
			ms = append(ms, engine.Compile(c.Body, opts).Matcher(agent))
		}
		g, err := google.Parse(c.Body)
		if err != nil {
			t.Fatal(err)
		}
		urls := c.Medium
		for i := 0; i < len(c.Short); i += shortShare {
			urls = append(urls, c.Short[i])
		}
		for _, u := range urls {
			compared++
			want := g.Allowed(agent, u)
			for k, m := range ms {
				if got := m.Allowed(u); got != want {
					t.Errorf("%s, %.80q: robotstxt (%s) %v, grobotstxt %v", c.Name, u, [...]string{"default", "DFA", "pieces"}[k], got, want)
				}
			}
		}
	}
	t.Logf("%d decisions compared in %v", compared, time.Since(start).Round(time.Millisecond))
}
