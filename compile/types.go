package compile

import (
	"fmt"
	"strings"
)

// Semantics selects which reading of robots.txt a parse and a decision follow.
// The zero value is RFC9309.
type Semantics uint8

const (
	// RFC9309 is the Robots Exclusion Protocol as standardised, read
	// generously: longest match wins, allow wins ties, patterns and URLs are
	// brought to one canonical percent-encoding before comparison.
	RFC9309 Semantics = iota
	// Google decides exactly as Google's open-source robots.txt library
	// does, quirks included: patterns are normalised, URLs are not.
	Google
	// Koster1996 is the 1996 draft: first matching rule in file order wins,
	// '*' and '$' are ordinary characters, a blank line ends a record.
	Koster1996
)

var semanticsNames = [...]string{RFC9309: "rfc9309", Google: "google", Koster1996: "koster1996"}

// String returns the lower-case name of s ("rfc9309", "google", "koster1996").
func (s Semantics) String() string {
	if int(s) < len(semanticsNames) {
		return semanticsNames[s]
	}
	return fmt.Sprintf("Semantics(%d)", uint8(s))
}

// ParseSemantics returns the Semantics named by name, ignoring case.
func ParseSemantics(name string) (Semantics, error) {
	for i, n := range semanticsNames {
		if strings.EqualFold(name, n) {
			return Semantics(i), nil
		}
	}
	return 0, fmt.Errorf("unknown semantics %q (want rfc9309, google or koster1996)", name)
}

const (
	// DefaultMaxFileSize is the number of bytes of a robots.txt that are read:
	// 500 KiB, as RFC 9309 section 2.5 requires at least and Google reads. The
	// rest of a longer file is ignored and the parse reports DiagTruncated.
	// Options.MaxFileSize may raise it, never lower it.
	DefaultMaxFileSize = 512000

	// MaxLineLength is the number of bytes of one line that are kept:
	// Google's library keeps 16663 bytes (2083 * 8, eight times the longest URL
	// the old Internet Explorer accepted). The rest of the line is dropped
	// and the line is reported with DiagLineTooLong.
	MaxLineLength = 16663
)

// Options configure a parse. The zero value is valid: RFC9309 semantics and
// DefaultMaxFileSize.
type Options struct {
	Semantics Semantics
	// MaxFileSize is the number of bytes read; 0 or any value below
	// DefaultMaxFileSize means DefaultMaxFileSize.
	MaxFileSize int
}

// EffectiveMaxFileSize returns the file size limit o stands for.
func (o Options) EffectiveMaxFileSize() int {
	if o.MaxFileSize < DefaultMaxFileSize {
		return DefaultMaxFileSize
	}
	return o.MaxFileSize
}

// RuleKind says whether a rule allows or disallows. The zero value, NoRule,
// is the kind of no rule at all: the Rule of a decision that no rule of the
// file made.
type RuleKind uint8

const (
	// NoRule is the zero RuleKind: no rule. Parse never gives it to a Rule.
	NoRule RuleKind = iota
	// Disallow is a disallow line.
	Disallow
	// Allow is an allow line.
	Allow
)

var ruleKindNames = [...]string{NoRule: "none", Disallow: "disallow", Allow: "allow"}

// String returns "allow", "disallow", or "none" for NoRule.
func (k RuleKind) String() string {
	if int(k) < len(ruleKindNames) {
		return ruleKindNames[k]
	}
	return fmt.Sprintf("RuleKind(%d)", uint8(k))
}

// Rule is one allow or disallow line with a non-empty value.
type Rule struct {
	Kind RuleKind
	// Pattern is the value normalised for the file's semantics (section 3.2
	// of docs/SEMANTICS.md). It is what is matched; its length in bytes is what
	// the longest-match priority counts.
	Pattern string
	// Value is the value as written, after the comment was cut and white
	// space trimmed.
	Value string
	// Line is the 1-based line number in the file.
	Line int
}

// Agent is one user-agent line of a group.
type Agent struct {
	// Name is the product token the line names: the leading run of
	// [A-Za-z_-] of the value, "*" for the global group, or "" when the
	// value names no token (it then matches no crawler).
	Name string
	// Value is the value as written.
	Value string
	Line  int
}

// IsGlobal reports whether a names the global group "*".
func (a Agent) IsGlobal() bool { return a.Name == "*" }

// Extension is a line inside a group that is not a rule: crawl-delay,
// request-rate, visit-time, host, clean-param, and any unknown key. It never
// changes a decision.
type Extension struct {
	// Key is the key as written, lower-cased.
	Key   string
	Value string
	Line  int
}

// Group is a run of user-agent lines and the lines that follow them up to the
// next group.
type Group struct {
	Agents     []Agent
	Rules      []Rule // in file order; rules with an empty value are not kept
	Extensions []Extension
}

// Sitemap is a sitemap line; sitemaps are global, kept in file order with
// duplicates.
type Sitemap struct {
	URL  string
	Line int
}

// DiagKind classifies a Diagnostic.
type DiagKind uint8

const (
	DiagUnknownKey       DiagKind = iota // a key that is no directive we know
	DiagTypo                             // a key accepted as a known misspelling or prefix
	DiagMissingColon                     // a line read as "key value" without a colon, or not a directive at all
	DiagLineTooLong                      // a line longer than MaxLineLength; its end was dropped
	DiagRuleOutsideGroup                 // an allow/disallow (or group extension) before any user-agent line
	DiagInvalidValue                     // a value that cannot be what its key wants (crawl-delay "soon", empty user-agent)
	DiagTruncated                        // the file is longer than the size limit; the rest was ignored
	DiagNotUTF8                          // the line is not valid UTF-8
	DiagHTML                             // the line looks like HTML: the server probably sent a web page
)

var diagNames = [...]string{
	DiagUnknownKey:       "unknown-key",
	DiagTypo:             "typo",
	DiagMissingColon:     "missing-colon",
	DiagLineTooLong:      "line-too-long",
	DiagRuleOutsideGroup: "rule-outside-group",
	DiagInvalidValue:     "invalid-value",
	DiagTruncated:        "truncated",
	DiagNotUTF8:          "not-utf8",
	DiagHTML:             "html",
}

// String returns the kind's short name, as the lint command prints it.
func (k DiagKind) String() string {
	if int(k) < len(diagNames) {
		return diagNames[k]
	}
	return fmt.Sprintf("DiagKind(%d)", uint8(k))
}

// Diagnostic reports one line that was not fully understood. Parsing never
// fails; diagnostics say what was skipped or guessed.
type Diagnostic struct {
	Line    int // 1-based; for DiagTruncated the line at which reading stopped
	Kind    DiagKind
	Text    string // the line's content (possibly cut), for the reader
	Message string // a short explanation
}

func (d Diagnostic) String() string {
	return fmt.Sprintf("line %d: %s: %s", d.Line, d.Kind, d.Message)
}

// File is a parsed robots.txt: plain data, the one artifact that crosses from
// compile to the packages that use it. It is not modified after Parse returns
// and is safe for concurrent reads.
type File struct {
	Semantics   Semantics
	Groups      []Group
	Sitemaps    []Sitemap
	Diagnostics []Diagnostic
	// Size is the number of bytes read (at most the size limit).
	Size int
	// Truncated reports whether the body was longer than the size limit.
	Truncated bool
	// Lines is the number of lines read.
	Lines int
}

// MatchKind says how a Selection was made.
type MatchKind uint8

const (
	MatchNone     MatchKind = iota // no group applies: everything is allowed
	MatchSpecific                  // one or more groups name one of the tokens
	MatchGlobal                    // no group names a token; the "*" groups apply
)

func (m MatchKind) String() string {
	switch m {
	case MatchSpecific:
		return "specific"
	case MatchGlobal:
		return "global"
	}
	return "none"
}

// Selection is what applies to one crawler: the merged rules of the groups
// selected for its product tokens (docs/SEMANTICS.md section 2.3).
type Selection struct {
	Match MatchKind
	// Groups are the indexes into File.Groups of the selected groups, in
	// file order.
	Groups []int
	// Rules are the rules of the selected groups, merged, in file order.
	Rules []Rule
	// Extensions are the extension lines of the selected groups, in file order.
	Extensions []Extension
}
