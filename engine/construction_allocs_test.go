package engine_test

import (
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
	"github.com/seed-275a9bd5/robotstxt/internal/race"
)

// TestConstruction_Allocs holds the allocations of a crawler's sequence to
// a budget: Compile, Matcher, and 100 URLs decided once, on a small file
// and a large one, by default (the URLs in the warm-up: the linear engine,
// its index on the large file) and with no warm-up (the DFA's layout and
// start state in Matcher, then the states the URLs visit). Matcher's
// automaton.Compile costs two: its program, and the keys of the radix sort
// that puts it in rank order. The budgets are what the sequence costs now
// and a little room: what every compiled file of a crawler pays, so that a
// change that adds allocations to it is seen.
func TestConstruction_Allocs(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector's sync.Pool drops what it is given")
	}
	for _, tc := range []struct {
		name                string
		body                []byte
		warmUp              int
		compile, bind, both float64 // budgets: Compile, Compile+Matcher, and the URLs too
	}{
		{"small", gen.Robots(10, 1, false), 0, 6, 9, 11},
		{"large", gen.Robots(500, 2, true), 0, 6, 9, 18},
		{"small, no warm-up", gen.Robots(10, 1, false), -1, 6, 21, 32},
		{"large, no warm-up", gen.Robots(500, 2, true), -1, 6, 27, 82},
	} {
		urls := gen.URLs(tc.body, 100, 3)
		opts := engine.Options{Semantics: engine.Google, WarmUp: tc.warmUp}
		compile := testing.AllocsPerRun(20, func() { engine.Compile(tc.body, opts) })
		bind := testing.AllocsPerRun(20, func() { engine.Compile(tc.body, opts).Matcher("Googlebot") })
		both := testing.AllocsPerRun(20, func() {
			m := engine.Compile(tc.body, opts).Matcher("Googlebot")
			for _, u := range urls {
				m.Allowed(u)
			}
		})
		t.Logf("%s: Compile %.0f, and Matcher %.0f, and 100 URLs %.0f allocations", tc.name, compile, bind, both)
		if compile > tc.compile || bind > tc.bind || both > tc.both {
			t.Errorf("%s: %.0f, %.0f and %.0f allocations, want at most %.0f, %.0f and %.0f", tc.name, compile, bind, both, tc.compile, tc.bind, tc.both)
		}
	}
}
