// Package compile turns the bytes of a robots.txt into plain data: a File of
// groups (user-agent lines with their allow and disallow rules, each with
// its line number and its pattern normalised for the chosen Semantics),
// global sitemaps, extension lines such as crawl-delay, and warnings about
// the file as a whole (UTF-16, binary bytes, an HTML or JSON page, a cut
// file, no user-agent line). It decides nothing; the packages that match
// URLs take the rules of File.Select and nothing else.
//
// The algorithm: Parse reads at most the size limit (500 KiB by default),
// skips a leading byte-order mark, splits lines at LF, CR LF or a lone CR
// (strings.IndexByte finds each line's end and colon), keeps at most
// MaxLineLength bytes of a line and cuts it at a NUL, removes the comment
// from '#' on and the spaces and tabs around key and value, splits the key
// from the value at the first colon (or at the white space of a two-word
// line), recognises the key by case-insensitive prefix with Google's typos,
// and reports each line to a handler. Parse's builder groups the lines: a
// user-agent line opens a new group only when a rule line came since the
// previous user-agent line (and, in Koster1996, after a blank line); rules
// join the open group; sitemaps are global. With Options.Diagnostics it
// also keeps a Diagnostic for every line not fully understood, for a
// linter; deciding never needs them.
//
// What a File keeps: the values, copied out of the body into one string
// (a rule's normalised pattern after its value when normalising rewrote
// it, and a rule that repeats the rule at its place in the last group with
// rules sharing its text), and its lines as 12-byte records of offsets
// into that string. Group.Rules, Group.Agents, Group.Extensions,
// File.Sitemaps and a Selection's Rules and Extensions are views of the
// records; their At makes a line's struct without allocating. Comments,
// keys and white space are not kept.
//
// Costs: linear in the bytes read; no allocation per line; a File is
// immutable once Parse returns and safe for concurrent reads.
// docs/SEMANTICS.md is the specification of every rule above.
package compile
