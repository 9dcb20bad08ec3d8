// Command robotstxt decides URLs against a robots.txt, lints robots.txt
// files, and shows what a robots.txt compiles to.
//
// Usage:
//
//	robotstxt check --robots FILE --agent TOKEN [--agent TOKEN ...] [--semantics S] [--explain] [--urls FILE] [URL ...]
//	robotstxt lint [--semantics S] FILE ...
//	robotstxt dump --robots FILE --agent TOKEN [--agent TOKEN ...] [--semantics S]
//	robotstxt fetch ...
//	robotstxt help [COMMAND]
//	robotstxt version
//
// S is the semantics: rfc9309 (the default), google or koster1996; see
// SEMANTICS.md. Flags may be written with one or two dashes, and may come
// before or after the URL arguments; after "--" every argument is a URL.
//
// # check
//
// check decides each URL for the crawler whose product tokens are given with
// --agent (several tokens of one crawler, such as Googlebot-Image and
// Googlebot, may be given; every group naming any of them applies). It
// prints one line per URL, in input order:
//
//	allowed<TAB>URL
//	disallowed<TAB>URL
//
// With --explain a third tab-separated field says which rule decided:
// "line N: allow PATTERN" or "line N: disallow PATTERN", PATTERN being the
// rule's value as written, or "-" when no rule matched (also for built-in
// decisions, such as RFC 9309's always-allowed /robots.txt).
//
// The URLs come from the arguments, or else from --urls FILE, or else from
// standard input, one a line. Input is streamed: each answer is written as
// soon as the input has no more lines waiting, so robotstxt check can serve
// as a co-process. A line's end (LF or CR LF) and spaces and tabs around the
// URL are dropped; an empty line gives no output. A URL is absolute (it has
// scheme://) or a path that starts with '/'. Any other line is reported on
// standard error as
//
//	robotstxt: line N: not a URL or path: TEXT
//
// and a line longer than 1 MiB as "robotstxt: line N: too long"; both are
// skipped and the others are still decided. N counts input lines, or
// arguments when the URLs are given as arguments.
//
// # lint
//
// lint prints the parser's diagnostics for each FILE, one a line, as
//
//	FILE:LINE: KIND: message
//
// where KIND is a short name such as unknown-key, typo, missing-colon or
// line-too-long.
//
// # dump
//
// dump prints the rules that apply to the crawler, merged and normalised, in
// priority order, the automata they compile to, and a last line
//
//	automata: N  states: N  classes: N  bytes: N  rules: N
//
// # Exit status
//
//	0  check: every URL was decided; lint: no diagnostics
//	1  check: some line was not decided (not a URL, too long) or the output
//	   could not be written; lint: there were diagnostics
//	2  bad usage (unknown command or flag, missing --robots or --agent,
//	   unknown semantics) or an unreadable robots.txt or URL file (missing,
//	   unreadable, a directory), with one line on standard error
//
// An empty or binary robots.txt is not an error: it is parsed like any
// other (an empty one allows everything). Only the first 500 KiB of a
// robots.txt are read, as RFC 9309 allows.
//
// When standard output is closed early (robotstxt check ... | head -1) the
// command stops quietly: the operating system ends it with SIGPIPE (status
// 141 in a shell), and run, used in-process, returns the status so far
// without a message.
package main
