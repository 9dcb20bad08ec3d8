package automaton_test

import (
	"fmt"

	"github.com/seed-275a9bd5/robotstxt/automaton"
)

func Example() {
	// The patterns are parts of one text; each names its bytes there.
	text := "/private/" + "/private/*.pdf" + "/*/public/"
	patterns := []automaton.Pattern{
		{Start: 0, Len: 9, Priority: 9},                   // "/private/"
		{Start: 9, Len: 14, Anchored: true, Priority: 14}, // "/private/*.pdf", the whole input
		{Start: 23, Len: 10, Priority: 10},                // "/*/public/"
	}
	set := automaton.Compile(text, patterns, automaton.Options{})
	for _, in := range []string{"/private/a.pdf", "/private/a.pdf?x", "/private/public/", "/index.html"} {
		fmt.Printf("%s: %d\n", in, set.Match(in))
	}
	// Output:
	// /private/a.pdf: 1
	// /private/a.pdf?x: 0
	// /private/public/: 2
	// /index.html: -1
}
