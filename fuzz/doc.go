// Package fuzz is test support for robotstxt: the reference matcher that
// every engine is compared with, and the loader of the engine-independent
// conformance table (testdata/conformance.json).
//
// It is NOT for production. The reference matcher is deliberately naive so
// that it is obviously correct: it parses with compile.Parse, selects the
// groups that apply with a plain loop of its own (it does not share
// compile's selection code), tests every rule of those groups against the
// URL's path with a memoised O(len(pattern)*len(path)) wildcard matcher (no
// regexp, no backtracking, never exponential), and picks the deciding rule
// with the priority of the chosen semantics written out plainly: longest
// pattern with allow winning ties (RFC9309, Google), first match in file
// order (Koster1996). It allocates freely and is slow; the engine package
// never imports it.
//
// The conformance table states, for each case, the decision that
// docs/SEMANTICS.md (and the source it comes from) requires in one, two or
// all three semantics. The expectations were derived by hand from the text,
// not by running this matcher: the table is the independent check on the
// matcher, and the matcher plus the table are the check on every engine.
package fuzz
