// Package reference is test support for robotstxt: the reference matcher
// that every engine is compared with, and the loader of the
// engine-independent conformance table (testdata/conformance.json). It is
// internal: no user imports it, and it imports testing only in its tests.
//
// It is not for production. The reference matcher is deliberately naive so
// that it is obviously correct, and it shares no matching, path or
// normalisation code with the engine: an oracle that shares code with what
// it checks cannot catch that code's bugs. It shares only the parser's
// grouping: compile.Parse says which lines form which group and gives each
// line's value as written, kind and number. From there it does everything
// again, plainly, from docs/SEMANTICS.md: it reads the name each user-agent
// line gives and selects the groups that apply with a loop of its own (a
// caller's agent that is not a product token is read with
// engine.ProductTokens in RFC9309 and Koster1996, the one engine function it
// calls: reading a header is no part of selecting or matching, and has its
// own table in testdata/useragents); it
// extracts the URL's path itself (RFC 3986 for RFC9309 and Koster1996,
// Google's GetPathParamsQuery transcribed for Google and for input that is
// not a URL); it percent-normalises the path and every rule value itself
// (split into bytes and escapes, then written out in the canonical form of
// the semantics); it tests every rule against the path with an
// O(len(pattern)*len(path)) dynamic-programming wildcard matcher (no regexp,
// no backtracking, never exponential); and it picks the deciding rule with
// the priority of the semantics written out plainly: longest pattern with
// allow winning ties, /robots.txt always allowed (RFC9309), Google's
// index.htm rule, first match in file order (Koster1996). It allocates
// freely and is slow; the engine package never imports it.
//
// The conformance table states, for each case, the decision that
// docs/SEMANTICS.md (and the source it comes from) requires in one, two or
// all three semantics. The expectations were derived by hand from the text,
// not by running this matcher: the table is the independent check on the
// matcher, and the matcher plus the table are the check on every engine.
package reference
