package automaton_test

import (
	"fmt"

	"github.com/seed-275a9bd5/robotstxt/automaton"
)

// Patterns with priorities, as a robots.txt matcher gives them (here the
// pattern's length, so that the longest match wins): Match returns the
// index of the highest-priority pattern that matches a prefix of the input
// (the whole input, for an anchored pattern), or NoMatch.
func Example() {
	pats := []automaton.Pattern{
		{Bytes: "/private/", Priority: 9},
		{Bytes: "/private/press/", Priority: 15},
		{Bytes: "/*.pdf", Anchored: true, Priority: 6},
	}
	set := automaton.Compile(pats, automaton.Options{}) // states are built as inputs reach them
	for _, in := range []string{"/private/plans", "/private/press/2026", "/docs/a.pdf", "/docs/a.pdf?x=1", "/"} {
		if i := set.Match(in); i != automaton.NoMatch {
			fmt.Printf("%-20s pattern %d: %s\n", in, i, pats[i].Bytes)
		} else {
			fmt.Printf("%-20s no pattern\n", in)
		}
	}
	// Output:
	// /private/plans       pattern 0: /private/
	// /private/press/2026  pattern 1: /private/press/
	// /docs/a.pdf          pattern 2: /*.pdf
	// /docs/a.pdf?x=1      no pattern
	// /                    no pattern
}
