// Package compile turns the bytes of a robots.txt into plain data: a File of
// groups (user-agent lines with their allow and disallow rules, each with its
// line number and its pattern normalised for the chosen Semantics), global
// sitemaps, extension lines such as crawl-delay, and a diagnostic for every
// line that was not fully understood. It decides nothing; the packages that
// match URLs take the rules of File.Select and nothing else.
//
// The algorithm: Parse reads at most the size limit (500 KiB by default),
// skips a leading byte-order mark, splits lines at LF, CR LF or a lone CR,
// keeps at most MaxLineLength bytes of each and cuts it at a NUL, removes the
// comment from '#' on and the spaces and tabs around key and value, splits
// the key from the value at the first colon (or at the white space of a
// two-word line), recognises the key by case-insensitive prefix with the
// common typos, and reports each line to a handler. Parse's builder is the
// handler that groups the lines: a user-agent line opens a new group only
// when a rule line came since the previous user-agent line (and, in
// Koster1996, after a blank line), rules join the open group, sitemaps are
// global. The File also keeps what a linter needs beyond the rules (each
// group's first empty rule line, the lines that joined user-agent lines
// into one group), so that a linter reads the File and not the body.
// Agent.Names says which user-agent lines name a crawler; File.Select merges
// the groups they name. Everything is linear in the input, never fails,
// never panics, and keeps nothing of the input: the values a File holds are
// copied out of it into one string, and comments, keys and white space are
// left behind. A File holds its rules, user-agent, extension and sitemap
// lines as 12-byte records of offsets into that string, in one array with
// it, not as Rules, Agents, Extensions and Sitemaps (40 or 48 bytes and two
// strings each): Group.Rules, Group.Agents, Group.Extensions, File.Sitemaps
// and a Selection's Rules and Extensions are views of them (their At makes
// one): a crawler keeps parsed files by the million, and what it keeps of
// each is then mostly its values.
// File.Warnings say, once each, when the whole file was not read as a
// robots.txt of rules would be (UTF-16, binary bytes, an HTML or JSON page,
// a cut file, no user-agent line).
// docs/SEMANTICS.md sections 1, 2 and
// 6 are the specification.
package compile
