// Command robotstxt decides URLs against a robots.txt, explains decisions,
// lints robots.txt files, shows what a robots.txt compiles to, and fetches
// one as a crawler does.
//
// Usage:
//
//	robotstxt check   --robots FILE (--agent TOKEN | --user-agent HEADER)... [--agent-chain] [--semantics S] [--explain] [--usage] [--urls FILE] [URL ...]
//	robotstxt explain --robots FILE (--agent TOKEN | --user-agent HEADER)... [--agent-chain] [--semantics S] URL ...
//	robotstxt dump    --robots FILE (--agent TOKEN | --user-agent HEADER)... [--agent-chain] [--semantics S] [--automaton]
//	robotstxt lint    [--semantics S] [--format text|json] FILE ...
//	robotstxt fetch   [--agent TOKEN ...] [--user-agent HEADER] [--agent-chain] [--semantics S] [--explain] [--usage] [--extensions] [--timeout DURATION] SITE_URL [PATH_OR_URL ...]
//	robotstxt page    --agent TOKEN... [--header 'Name: value']... [--html FILE] [--robots FILE --url URL] [--tdmrep FILE] [--format text|json]
//	robotstxt help    [COMMAND]
//	robotstxt version [--json]
//
// S is the semantics: rfc9309 (the default), google or koster1996; see
// docs/SEMANTICS.md. A FILE of "-" is standard input (--robots, --urls, lint).
// Flags are written --name VALUE or --name=VALUE (one dash works too), and
// may come before or after the URL arguments; after "--" every argument is
// a URL. A message names a flag as it was typed (-x or --x), suggests the
// closest flag for an unknown one (--robot: did you mean --robots?), and
// says what a valid value looks like.
//
// # The crawler
//
// check, explain and dump decide for the crawler named by its product
// tokens: every --agent, then the tokens that engine.ProductTokens finds in
// the --user-agent header ("Mozilla/5.0 (compatible; Googlebot/2.1)" gives
// Googlebot). By default every group naming any token applies, merged (as
// Google's library does); with --agent-chain only the groups of the first
// token that some group names apply (Robots.MatcherChain, Google's
// documented precedence: pass the tokens most specific first).
//
// --agent "" is a valid question: it names no group, so the "*" group
// applies. A product token is letters, '-' and '_'; a user-agent line of a
// robots.txt is read up to its first other character ("User-agent:
// MJ12bot" names MJ). An --agent that is not a product token is read as the
// library reads it (engine.AgentTokens): as a User-Agent header in rfc9309
// and koster1996 ("MJ12bot" stands for MJ, "Googlebot/2.1" for Googlebot),
// as given in google, where it matches no group, as in Google's library.
// Either way a warning on standard error says so:
//
//	robotstxt: warning: --agent "MJ12bot" is not a product token (letters, '-' and '_'): read as a User-Agent header (rfc9309 semantics), it stands for --agent MJ
//
// # How the file was read
//
// A robots.txt is never an error: it is parsed like any other, its first 500
// KiB only. When it was not read as a user probably thinks, one warning line
// on standard error says so (the library's engine.Robots.Warnings, which
// lint prints too), and the decisions and exit status stay those of the
// file as read:
//
//	robotstxt: warning: FILE: the file is UTF-16 text, not UTF-8 as RFC 9309 requires ...
//	robotstxt: warning: FILE: the file is not a text file (it holds NUL bytes ...) ...
//	robotstxt: warning: FILE: the file is mostly not UTF-8 (N of M lines) ...
//	robotstxt: warning: FILE: the file looks like an HTML page (line N), not a robots.txt ...
//	robotstxt: warning: FILE: the file looks like a JSON document (line N), not a robots.txt ...
//	robotstxt: warning: FILE: the file is longer than 512000 bytes: only the first 512000 bytes (to line N) were read ...
//	robotstxt: warning: FILE: the file has no user-agent line, so no rule applies to any crawler: every URL is allowed
//
// An empty file, or one of comments only, allows everything without a word.
//
// # check
//
// check prints one line per input line (or argument), in input order:
//
//	allowed<TAB>URL
//	disallowed<TAB>URL
//
// With --explain a third tab-separated field says which rule decided:
// "line N: allow PATTERN" or "line N: disallow PATTERN", PATTERN being the
// rule's value as written, or "-" when no rule matched (also for built-in
// decisions, such as RFC 9309's always-allowed /robots.txt).
//
// With --usage one more field, the last (after the explanation with
// --explain), gives the site's AI usage preferences for the URL, as
// engine.Usage.String writes them: "train-ai=X search=Y", X and Y each y, n
// or unknown, or "-" for a disallowed URL, to which no preference applies.
// They come from the Content-Usage lines of the crawler's groups: of those
// whose path matches the URL, the longest path decides, and a line without
// a path matches every URL, as the shortest:
//
//	allowed<TAB>URL<TAB>train-ai=n search=unknown
//	disallowed<TAB>URL<TAB>-
//
// The URLs come from the arguments, or else from --urls FILE, or else from
// standard input, one a line. Input is streamed: each answer is written as
// soon as the input has no more lines waiting, so robotstxt check can serve
// as a co-process. A line's end (LF or CR LF) and spaces and tabs around the
// URL are dropped. A URL is absolute (it has scheme://) or a path that
// starts with '/'; an empty line or argument is the empty URL, which is the
// path "/" (as in Google's library). Anything else is decided all the same,
// as the semantics reads it (the path starts at its first '/'), and
// reported on standard error:
//
//	robotstxt: line N: not a URL or path: TEXT (decided as the path PATH; write scheme://host/path or /path)
//	robotstxt: argument N: not a URL or path: TEXT (...)
//
// A line longer than 1 MiB cannot be decided: its output line is
// "error<TAB>" and its first 200 bytes followed by "..." (with --explain, a
// third field "too long"; with --usage, a last field "-"), and standard
// error says
// "robotstxt: line N: too long (more than 1048576 bytes): not decided".
//
// # explain
//
// explain prints, for each URL argument, a block of lines for people: the
// matched path, the user-agent lines that selected the groups, the deciding
// rule and its priority, and, when the crawler's groups have Content-Usage
// lines, a "usage:" line: the URL's usage preferences and the line that
// decided each. Arguments are read as check reads them.
//
// # dump
//
// dump prints the semantics, the tokens, the selected groups (their
// user-agent lines) and their merged rules in priority order, one
// "line N: KIND PATTERN" a line: the first in this order that matches a URL
// decides it. When the file has Content-Usage lines, those of the selected
// groups follow in file order, "line N: content-usage PATTERN STATEMENT"
// (no PATTERN for a line without a path). Then the extension lines of those
// groups ("line N: KEY:
// VALUE": crawl-delay, request-rate, host, ...; they never decide) and the
// file's sitemaps. With --automaton it also prints the automaton and a last
// line
//
//	states: N  classes: N  bytes: N  rules: N
//
// An automaton's states are built as URLs first reach them, and dump
// decides no URL: it shows the start state alone, and says so.
//
// # lint
//
// lint prints the file's warnings (above), the parser's diagnostics and
// lint's findings for each FILE, one a line, as
//
//	FILE:LINE: KIND: message
//
// or, with --format json, one JSON array of {"file", "line", "kind",
// "message"}. A problem of the whole file is one finding, its warning (a
// UTF-16 file is "utf16" once, not a not-utf8 finding per line; an HTML page
// "html-page" once), as engine/lint's Report says. A file longer than 500
// KiB is "truncated" only when the cut drops or shortens a user-agent,
// allow or disallow line (lint reads 4 MiB further to see; engine/lint's
// ReportBody): a large HTML page is "html-page" alone. A FILE that cannot
// be read is reported on standard error and the next one is linted.
//
// # fetch
//
// fetch fetches the robots.txt that governs SITE_URL as a crawler does
// (package engine/fetch), prints where the rules came from as
// "key<TAB>value" lines (with --extensions also the file's sitemaps and the
// crawler's extension lines, as "sitemap" and "extension" lines), then
// decides each PATH_OR_URL (or SITE_URL itself when none is given but a
// crawler is) in check's format, for the tokens of every --agent and of
// --user-agent, as check does. A PATH_OR_URL that is neither a URL nor a
// path is decided as check decides it, with a warning and exit status 1; a
// URL of another site is bad usage. A SITE_URL must be absolute:
// "127.0.0.1:8765" or "example.com" is told to add a scheme.
//
// # version
//
// version names the build, for a bug report: the module version when
// robotstxt was installed from the module path (robotstxt v1.2.3); else the
// commit it was built from in a git checkout, with "+dirty" for uncommitted
// changes, and the commit's time; else "(devel)". Go 1.24 and later give a
// build in a git checkout a version made of the commit
// (v0.0.0-20260102030405-0123456789ab), printed as a module version.
// version --json prints the same as a JSON object with the fields
// "version", "revision", "time" and "modified".
//
// # Exit status
//
//	0  check, explain: every URL was a URL or path and was decided;
//	   dump: printed; lint: no finding; fetch: an answer came (a robots.txt,
//	   or a 4xx: no robots.txt, everything allowed); page: an answer was
//	   printed; help, version
//	1  check, explain, fetch: some line or argument was not a URL or path
//	   (it was still decided), or a line was too long (not decided); lint:
//	   some finding; any command: the output could not be written
//	2  bad usage (unknown command or flag, a missing or bad flag value, an
//	   argument a command takes none of, help for an unknown command), or a
//	   robots.txt or URL file that cannot be read (missing, unreadable, a
//	   directory), with one line on standard error; lint reads the other
//	   files first
//	3  fetch: the robots.txt was unreachable (network error, timeout, 429 or
//	   5xx), so everything is disallowed; the decisions are printed first
//
// # What a page says
//
// page reads a fetched page for the crawler's product tokens (--agent): its
// response header field lines (--header 'X-Robots-Tag: googlebot: noindex',
// in order), its HTML (--html), the site's robots.txt for its URL
// (--robots with --url) and the origin's tdmrep.json (--tdmrep with --url),
// and prints each answer (index, follow, archive, snippet, previews, image
// index, translate, index-if-embedded, unavailable_after, AI training,
// search, the TDM reservation) with what decided it, or one JSON object
// (--format json). A URL robots.txt disallows has no answer.
//
// # Memory
//
// Unless the environment sets GOGC or GOMEMLIMIT, the command runs with
// GOGC=400 and a soft GOMEMLIMIT of 48 MiB: it keeps what it builds to the
// end and allocates nothing per URL, so collecting often would only cost
// time, and the limit bounds what a hostile robots.txt can make it hold.
//
// When standard output is closed early (robotstxt check ... | head -1) the
// command stops quietly: the operating system ends it with SIGPIPE (status
// 141 in a shell), and run, used in-process, returns the status so far
// without a message.
package main
