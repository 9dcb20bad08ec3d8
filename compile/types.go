package compile

import (
	"fmt"
	"strconv"
	"strings"
)

// Semantics selects which reading of robots.txt a parse and a decision follow
// (docs/SEMANTICS.md gives every rule with its source). The zero value is
// RFC9309. In short: RFC9309 and Google let the longest matching pattern
// decide (allow on a tie) and differ in percent-encoding and a few of
// Google's quirks; Koster1996 lets the first matching rule in file order
// decide, with no wildcards.
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
func (s Semantics) String() string { return nameOf(semanticsNames[:], s, "Semantics") }

// nameOf returns names[k], or TYPE(k) when k has no name.
func nameOf[K ~uint8](names []string, k K, typ string) string {
	if int(k) < len(names) && names[k] != "" {
		return names[k]
	}
	return typ + "(" + strconv.Itoa(int(k)) + ")"
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
// DefaultMaxFileSize, no diagnostics.
type Options struct {
	Semantics Semantics
	// MaxFileSize is the number of bytes read; 0 or any value below
	// DefaultMaxFileSize means DefaultMaxFileSize, and any value above
	// LargestMaxFileSize means LargestMaxFileSize.
	MaxFileSize int
	// Diagnostics makes Parse keep a Diagnostic for every line it did not
	// fully understand (File.Diagnostics), for a linter. Deciding never
	// needs them, so a parse for decisions leaves them out.
	Diagnostics bool
}

// LargestMaxFileSize is the most Options.MaxFileSize can raise the file
// size limit to (512 MiB, a thousand times the default): a File's records
// hold offsets into its text and line numbers in 32 bits, and the text of
// a file this size (its values, a diagnostic's copy of its line, and
// patterns that percent-encoding made at most three times as long) stays
// below 4 GiB.
const LargestMaxFileSize = 512 << 20

// EffectiveMaxFileSize returns the file size limit o stands for.
func (o Options) EffectiveMaxFileSize() int {
	return min(max(o.MaxFileSize, DefaultMaxFileSize), LargestMaxFileSize)
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
func (k RuleKind) String() string { return nameOf(ruleKindNames[:], k, "RuleKind") }

// Rule is one allow or disallow line with a non-empty value. A File does
// not hold Rules: it holds compact records of them (see Rules), and a Rule
// is a view of one, made when asked for, whose strings are substrings of
// the file's text.
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

// Agent is one user-agent line of a group. A File holds a record of it
// (see Agents), and an Agent is made when asked for.
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

// Names reports whether a names the crawler whose product token is tok
// (docs/SEMANTICS.md sections 2.2 and 2.3): tok is a product token (one or
// more of [A-Za-z_-]) and equals a's name, ignoring case. No token names the
// global line "*" (see IsGlobal), and a line whose value names no token
// names no crawler.
//
// It is the one place that says which user-agent lines name a crawler:
// File.Select, the engine and the linter all ask it. It does not allocate.
func (a Agent) Names(tok string) bool {
	// a.Name is "", "*" or a product token: once the lengths are equal and
	// the bytes equal ignoring case, only a tok of "*" is not a token.
	return len(tok) == len(a.Name) && strings.EqualFold(tok, a.Name) && ValidToken(tok)
}

// Extension is a line inside a group that is not a rule: crawl-delay,
// request-rate, visit-time, host, clean-param, and any unknown key. It never
// changes a decision. A File holds a record of it (see Extensions).
type Extension struct {
	// Key is the key as written, lower-cased.
	Key   string
	Value string
	Line  int
}

// Usage is one content-usage line of a group (docs/SEMANTICS.md section
// 7): "Content-Usage: [PATH WS] STATEMENT", a preference for the use of
// the content at the paths that the path matches, as an allow or
// disallow pattern does. A File holds a record of it (see File.Usages and
// File.GroupUsages); content-usage lines are not Rules and decide no crawl
// (in RFC9309 they end a group's user-agent lines, as rules do). The
// statement is parsed when a matcher first decides usage, not here.
type Usage struct {
	// Pattern is the path normalised as an allow/disallow pattern of
	// the file's semantics; "" when the line has no path, which matches
	// every path with length 0.
	Pattern string
	// Path is the path as written, "" when the value does not start with
	// '/'.
	Path string
	// Statement is the statement of preference: the value after the
	// path and the white space after it (the whole value when there is
	// no path), such as "train-ai=n, search=y".
	Statement string
	// Value is the value as written, after the comment was cut and white
	// space trimmed.
	Value string
	Line  int
}

// Group is a run of user-agent lines and the lines that follow them up to the
// next group.
type Group struct {
	Agents     Agents
	Rules      Rules // in file order; rules with an empty value are not kept
	Extensions Extensions
	// EmptyRuleLine is the line of the group's first allow or disallow line
	// with an empty value, 0 if it has none. Such a line allows and
	// disallows nothing (docs/SEMANTICS.md section 3.1), so it is not in
	// Rules, but it ends the group's user-agent lines, and a "Disallow:"
	// says that the group means to allow everything.
	EmptyRuleLine int
}

// Names reports whether a user-agent line of g names the crawler whose
// product token is tok (see Agent.Names).
func (g *Group) Names(tok string) bool { return g.anyAgent(func(a Agent) bool { return a.Names(tok) }) }

// IsGlobal reports whether a user-agent line of g is "*": g applies to the
// crawlers that no group names (docs/SEMANTICS.md section 2.3).
func (g *Group) IsGlobal() bool { return g.anyAgent(Agent.IsGlobal) }

// anyAgent reports whether is is true of a user-agent line of g.
func (g *Group) anyAgent(is func(Agent) bool) bool {
	for i := range g.Agents.Len() {
		if is(g.Agents.At(i)) {
			return true
		}
	}
	return false
}

// Join is a line that stands between two user-agent lines of one group
// without ending it: a sitemap, an extension (crawl-delay, an unknown key)
// or a line that is no directive. Only an allow or disallow line ends a
// group's user-agent lines (docs/SEMANTICS.md section 2.1), so both lines
// get the rules that follow, which such a line between them seldom means.
// Blank and comment lines between user-agent lines are layout, not Joins
// (and in Koster1996 a blank line ends the record).
type Join struct {
	Group int // index into File.Groups
	// Agent is the index into the group's Agents of the later user-agent
	// line; the earlier one is at Agent-1.
	Agent int
	// Line is the first line between the two that is a Join.
	Line int
	// Key says what the line is: "sitemap", an extension's key (lower
	// case), or "" for a line that is no directive.
	Key string
}

// Sitemap is a sitemap line; sitemaps are global, kept in file order with
// duplicates. A File holds a record of it (see Sitemaps).
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
	DiagTooMany                          // more diagnostics than MaxDiagnostics: the rest were counted, not kept
)

// MaxDiagnostics is the number of diagnostics a File keeps. A file that
// has more (500 KiB of lines that are no directive has 256,000) keeps the
// first MaxDiagnostics, then one DiagTooMany at the line of the first it
// did not keep, which says how many were left out, and, when the file was
// cut, its DiagTruncated: 48 bytes for each 2-byte line would make a
// linter's memory grow with the file.
const MaxDiagnostics = 1000

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
	DiagTooMany:          "too-many",
}

// String returns the kind's short name, as the lint command prints it.
func (k DiagKind) String() string { return nameOf(diagNames[:], k, "DiagKind") }

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
// compile to the packages that use it. Only a new ParseInto or ParseFor
// into it modifies it, and it is safe for concurrent reads.
type File struct {
	Semantics Semantics
	// Truncated reports whether the body was longer than the size limit.
	Truncated bool
	Groups    []Group
	Sitemaps  Sitemaps
	// Diagnostics are the lines that were not fully understood, sorted by
	// line, when Options.Diagnostics asked for them (nil otherwise).
	Diagnostics []Diagnostic
	// Warnings say what a reader of the file should know about the whole
	// of it, when it was not read as a robots.txt of rules would be
	// (UTF-16, binary bytes, an HTML or JSON page, a cut file, no
	// user-agent line): at most one of each kind, nil in most files. They
	// change nothing that is decided.
	Warnings []Warning
	// Joins are the user-agent lines that a sitemap, extension or
	// unreadable line joined to the one before them, in file order: one
	// for each such pair, none in most files.
	Joins []Join
	// Size is the number of bytes read (at most the size limit).
	Size int
	// Lines is the number of lines read.
	Lines int

	// data holds the text the values of f are parts of (Parse keeps them
	// there, and nothing else of the body) and the records of its groups'
	// lines and its sitemaps, which f's views read.
	data records
	// usageAt and usages are where the records of the groups'
	// content-usage lines are in data (Usages): a File holds them, not
	// each Group, so that the many files without any pay 8 bytes, not 16
	// a group.
	usageAt, usages uint32
}

// Sizes of what a File holds, for Bytes (TestSizes checks them on 64-bit
// platforms).
const (
	sizeofFile    = 184
	sizeofGroup   = 56
	sizeofRecords = 40
	sizeofRec     = 12
	sizeofJoin    = 40
	sizeofDiag    = 48
	sizeofWarning = 32
)

// Bytes returns the memory f holds, as Parse made it: its groups, the
// records of their lines and of its sitemaps, the text their values are
// parts of, and its diagnostics, joins and warnings. A cache of parsed
// files can charge each what it holds.
func (f *File) Bytes() int {
	n := sizeofFile + sizeofGroup*len(f.Groups) + sizeofJoin*len(f.Joins) +
		sizeofDiag*len(f.Diagnostics) + sizeofWarning*len(f.Warnings) +
		sizeofRec*len(f.data.recs) + len(f.data.text)
	// Messages are constants but for a few numbers (counted as if they
	// were not); a diagnostic's text is a part of f's.
	for _, d := range f.Diagnostics {
		n += len(d.Message)
	}
	for _, w := range f.Warnings {
		n += len(w.Message)
	}
	return n
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
	Rules Rules
	// Extensions are the extension lines of the selected groups, in file order.
	Extensions Extensions
}

// Bytes returns the memory s holds beyond its File's: the indexes of its
// groups and, when it merges several groups, the copies of their records.
func (s *Selection) Bytes() int {
	n := 8 * len(s.Groups)
	if len(s.Groups) > 1 && s.Rules.n+s.Extensions.n > 0 {
		n += sizeofRecords + sizeofRec*int(s.Rules.n+s.Extensions.n)
	}
	return n
}
