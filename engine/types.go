package engine

import "github.com/seed-275a9bd5/robotstxt/compile"

// The types below are package compile's, named here, in this file alone,
// so that a user of decisions, explanations and sitemaps imports engine
// alone.

// Semantics selects how a robots.txt is read and decided (Options.Semantics;
// docs/SEMANTICS.md gives every rule with its source). It is
// compile.Semantics; the zero value is RFC9309. The three differ in:
//
//   - RFC9309: the standard, read leniently. The longest matching pattern
//     decides and allow wins a tie; pattern and URL are brought to one
//     percent-encoding (%7E and ~ are the same) before comparing; /robots.txt
//     is always allowed; an agent string that is no product token is read
//     as a User-Agent header. The default for any crawler.
//   - Google: exactly what Google's open-source robots.txt library decides,
//     quirks included: longest match as RFC9309, but only patterns are
//     percent-normalised, never URLs; an allow of /d/index.html also
//     allows /d/; an agent string that is no product token names no group.
//   - Koster1996: the 1996 draft as written: the first matching rule in
//     file order decides, '*' and '$' are ordinary bytes, a blank line
//     ends a record, and 401 and 403 disallow everything when fetching.
//     Groups are picked as in RFC9309 (names equal, ignoring case), which
//     is not what Python's urllib.robotparser does: it also takes a group
//     whose name is part of the crawler's ("bot" for MyBot), and obeys only
//     the first group that matches.
type Semantics = compile.Semantics

// The three semantics; see Semantics.
const (
	RFC9309    = compile.RFC9309    // the standard, read leniently (the default)
	Google     = compile.Google     // Google's library, bit for bit
	Koster1996 = compile.Koster1996 // the 1996 draft: first match, no wildcards
)

// RuleKind says whether a rule allows or disallows; it is compile.RuleKind.
// The zero value, NoRule, is the kind of the Rule of a Decision that no rule
// of the file made (Rule.Line is then 0).
type RuleKind = compile.RuleKind

const (
	// NoRule is the zero RuleKind: no rule decided. It prints as "none".
	NoRule = compile.NoRule
	// Disallow is the kind of a disallow line.
	Disallow = compile.Disallow
	// Allow is the kind of an allow line.
	Allow = compile.Allow
)

// Extension is a line of a group that is no rule (crawl-delay, host, an
// unknown key ...): its key, value and line; it is compile.Extension.
type Extension = compile.Extension

// Warning says something about a whole file that its reader should know:
// that it was not read as a robots.txt of rules would be (UTF-16, binary
// bytes, an HTML or JSON page, a cut file, no user-agent line); it is
// compile.Warning. Robots.Warnings returns them.
type Warning = compile.Warning

// WarningKind classifies a Warning; it is compile.WarningKind (WarnUTF16,
// WarnBinary, WarnNotUTF8, WarnHTML, WarnJSON, WarnTruncated,
// WarnNoUserAgent).
type WarningKind = compile.WarningKind

// The kinds of Warning; see compile.WarnUTF16 and the others.
const (
	WarnUTF16       = compile.WarnUTF16
	WarnBinary      = compile.WarnBinary
	WarnNotUTF8     = compile.WarnNotUTF8
	WarnHTML        = compile.WarnHTML
	WarnJSON        = compile.WarnJSON
	WarnTruncated   = compile.WarnTruncated
	WarnNoUserAgent = compile.WarnNoUserAgent
)

// Sitemap is a sitemap line of the file (its URL as written and its line);
// it is compile.Sitemap.
type Sitemap = compile.Sitemap

// MatchKind says how the groups that apply to a crawler were selected; it is
// compile.MatchKind.
type MatchKind = compile.MatchKind

const (
	// MatchNone: no group names the crawler and there is no "*" group, so
	// no rule applies and everything is allowed.
	MatchNone = compile.MatchNone
	// MatchSpecific: one or more groups name one of the crawler's tokens.
	MatchSpecific = compile.MatchSpecific
	// MatchGlobal: no group names the crawler; the "*" groups apply.
	MatchGlobal = compile.MatchGlobal
)

// Selection is what applies to one crawler, the groups selected for its
// tokens and their merged rules; it is compile.Selection.
type Selection = compile.Selection

// DefaultMaxFileSize is the number of bytes of a robots.txt that are read
// unless Options.MaxFileSize raises it (500 KiB); it is
// compile.DefaultMaxFileSize. A caller that reads a body itself need not read
// more.
const DefaultMaxFileSize = compile.DefaultMaxFileSize

// UsageRule is a content-usage line of a group (its path's pattern, its
// statement, its value and line); it is compile.Usage. Matcher.UsageRules
// returns a crawler's.
type UsageRule = compile.Usage
