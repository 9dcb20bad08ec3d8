// Package reference is test support for robotstxt: the reference matcher
// that every engine is compared with, and the loader of the
// engine-independent conformance table (testdata/conformance.json). It is
// internal: no user imports it, and it imports testing only in its tests.
//
// It is not for production. The reference matcher is deliberately naive so
// that it is obviously correct, and it shares no code with the engine that
// parses or decides: an oracle that shares code with what it checks cannot
// catch that code's bugs. It reads the file into groups itself (parse.go:
// lines, comments, the byte order mark, keys and their typos, groups and
// Koster1996's records, from docs/SEMANTICS.md sections 1 and 2.1); it
// reads the name each user-agent line gives and selects the groups that
// apply with a loop of its own (a caller's agent that is not a product
// token is read with engine.ProductTokens in RFC9309 and Koster1996, the one
// engine function it calls: reading a header is no part of parsing,
// selecting or matching, and has its own table in testdata/useragents); it
// extracts the URL's path itself (RFC 3986 for RFC9309 and Koster1996,
// Google's GetPathParamsQuery transcribed for Google and for input that is
// not a URL); it percent-normalises the path and every rule value itself
// (split into bytes and escapes, then written out in the canonical form of
// the semantics); it tests every rule against the path by taking each
// literal piece's first occurrence in turn (checked against an
// O(len(pattern)*len(path)) dynamic programme; no regexp, no backtracking,
// never exponential); and it picks the deciding rule with the priority of
// the semantics written out plainly: longest pattern with allow winning
// ties, /robots.txt always allowed (RFC9309), Google's index.htm rule, first
// match in file order (Koster1996). It allocates freely and is slow; the
// engine package never imports it. From compile it takes only the names of
// the semantics and of the rule kinds.
//
// It decides usage preferences (content-usage lines, the IETF AI
// Preferences drafts draft-ietf-aipref-attach-05 and
// draft-ietf-aipref-vocab-08) the same way (usage.go): its parser keeps
// each group's content-usage lines, the groups are the ones the rules
// come from, a line's path is normalised and matched as a rule's pattern,
// the longest matching paths combine (n over y over unknown), and each
// statement is read by a parser of RFC 9651 Dictionaries of its own
// (sfv.go), written from the RFC without the engine's Structured Fields
// library.
//
// It reads what a page says (docs/SEMANTICS.md section 8; page.go,
// pagedate.go, pageconf.go) from a list of every directive that applies,
// one plain loop per answer, with dates read by a parser of its own; it
// shares no code with package engine/page but the HTML tokenizer of
// golang.org/x/net/html, whose reading of a tag is the definition both
// follow. Its table is testdata/page/conformance.json.
//
// The conformance table states, for each case, the decision that
// docs/SEMANTICS.md (and the source it comes from) requires in one, two or
// all three semantics, and for some the usage preferences. The expectations were derived by hand from the text,
// not by running this matcher: the table is the independent check on the
// matcher, and the matcher plus the table are the check on every engine.
package reference
