package reference

import (
	"sort"
	"strings"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// This file is the reference's usage preferences (docs/SEMANTICS.md
// section 7; draft-ietf-aipref-attach-05 section 3, draft-ietf-aipref-
// vocab-08 sections 5 and 6), written again from the documents: the
// content-usage lines parse.go kept per group, the groups selectGroups
// picks, the path and statement of each line split here, patterns
// normalised and matched as the reference's allow/disallow patterns are,
// statements parsed by the reference's own Dictionary parser (sfv.go).

// The preferences as engine.Preference.String prints them.
const (
	PrefUnknown       = "unknown" // no y or n for the category
	PrefAllowed       = "y"       // the Token y
	PrefDisallowed    = "n"       // the Token n
	PrefNotApplicable = "-"       // the URL may not be fetched
)

// The vocabulary's categories, in its order, by their labels
// (draft-ietf-aipref-vocab-08 sections 4 and 6.1).
const (
	CategoryTrainAI = "train-ai"
	CategorySearch  = "search"
)

// UsageResult is the reference's usage preferences for one URL.
type UsageResult struct {
	// Applicable is false when the URL may not be fetched: then there are
	// no preferences, and the other fields are zero.
	Applicable bool
	// TrainAI and Search are PrefAllowed, PrefDisallowed or PrefUnknown.
	TrainAI, Search string
	// TrainAILine and SearchLine are the content-usage lines that decided
	// each: of the longest matching patterns, the first in file order
	// whose statement gives the combined preference; 0 when none matched.
	TrainAILine, SearchLine int
}

// String returns u in the form of engine.Usage.String: "-" when not
// applicable, else "train-ai=X search=Y".
func (u UsageResult) String() string {
	if !u.Applicable {
		return PrefNotApplicable
	}
	return CategoryTrainAI + "=" + u.TrainAI + " " + CategorySearch + "=" + u.Search
}

// WithHeader returns u combined with a response's Content-Usage header
// field (draft-ietf-aipref-attach-05 section 2), given as its field
// lines: RFC 9651 section 4.2 joins them with ", " into one Dictionary,
// which is one more statement, combined with u per category as tied
// content-usage lines are (draft-ietf-aipref-vocab-08 section 5.1). A
// header that is not a Dictionary gives unknown, which changes nothing;
// a URL that may not be fetched stays so. The lines stay u's.
func (u UsageResult) WithHeader(lines ...string) UsageResult {
	if !u.Applicable || len(lines) == 0 {
		return u
	}
	statement := strings.Join(lines, ", ")
	u.TrainAI = moreRestrictive(u.TrainAI, StatementPreference(statement, CategoryTrainAI))
	u.Search = moreRestrictive(u.Search, StatementPreference(statement, CategorySearch))
	return u
}

// moreRestrictive returns the more restrictive of two preferences.
func moreRestrictive(a, b string) string {
	if restrictiveness(b) > restrictiveness(a) {
		return b
	}
	return a
}

// Usage parses body for sem and returns the usage preferences of rawURL
// for a crawler with the given product tokens. It is the reference: slow,
// naive, not for production.
func Usage(body []byte, agents []string, rawURL string, sem compile.Semantics) UsageResult {
	return UsageFile(Parse(body, sem), agents, rawURL)
}

// UsageFile is Usage on a file Parse read; rawURL is read as DecideFile
// reads it.
func UsageFile(f *File, agents []string, rawURL string) UsageResult {
	return UsageDecided(f, agents, rawURL, DecideFile(f, agents, rawURL))
}

// UsageDecided is UsageFile for a caller that has rawURL's decision d
// from DecideFile already (the differential tests): it does not decide
// again.
func UsageDecided(f *File, agents []string, rawURL string, d Result) UsageResult {
	if !d.Allowed {
		return UsageResult{}
	}
	tied := longestUsages(f, agents, ExtractPath(rawURL, f.Semantics))
	u := UsageResult{Applicable: true}
	u.TrainAI, u.TrainAILine = combine(tied, CategoryTrainAI)
	u.Search, u.SearchLine = combine(tied, CategorySearch)
	return u
}

// UsageOf returns the preference of rawURL for the category key, any
// Dictionary key, and the line that decided it (0 when none did):
// PrefNotApplicable when the URL may not be fetched, as
// engine.Matcher.UsageOf answers.
func UsageOf(f *File, agents []string, rawURL, key string) (string, int) {
	return UsageOfDecided(f, agents, rawURL, key, DecideFile(f, agents, rawURL))
}

// UsageOfDecided is UsageOf for a caller that has rawURL's decision d
// from DecideFile already.
func UsageOfDecided(f *File, agents []string, rawURL, key string, d Result) (string, int) {
	if !d.Allowed {
		return PrefNotApplicable, 0
	}
	return combine(longestUsages(f, agents, ExtractPath(rawURL, f.Semantics)), key)
}

// selectUsages returns the content-usage lines of the groups that apply to
// the crawler, the groups its rules come from, merged in file order.
func selectUsages(f *File, agents []string) []UsageLine {
	var lines []UsageLine
	for _, g := range selectGroups(f, agents) {
		lines = append(lines, g.Usages...)
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].Line < lines[j].Line })
	return lines
}

// hasUsages reports whether a group of f has a content-usage line.
func hasUsages(f *File) bool {
	for _, g := range f.Groups {
		if len(g.Usages) > 0 {
			return true
		}
	}
	return false
}

// longestUsages returns, of the selected lines whose pattern matches an
// extracted path, those of the longest pattern (in bytes, normalised, '*'
// and '$' counted; an absent path is the empty pattern), in file order.
func longestUsages(f *File, agents []string, path string) []UsageLine {
	if !hasUsages(f) {
		return nil // nothing to match (a shortcut: the same answer)
	}
	sem := f.Semantics
	path = NormalizedPath(path, sem)
	longest := -1
	var tied []UsageLine
	for _, u := range selectUsages(f, agents) {
		pattern := NormalizedPattern(UsagePathOf(u.Value), sem)
		if !usageMatch(pattern, path, sem) {
			continue
		}
		if len(pattern) > longest {
			longest, tied = len(pattern), nil
		}
		if len(pattern) == longest {
			tied = append(tied, u)
		}
	}
	return tied
}

// combine returns the preference that tied lines give the category key:
// any n gives n, else any y gives y, else unknown
// (draft-ietf-aipref-vocab-08 section 5.1); and the deciding line, the
// first of them in file order that gives the result (0 when there are
// none).
func combine(tied []UsageLine, key string) (string, int) {
	result, line := PrefUnknown, 0
	for _, u := range tied {
		p := StatementPreference(UsageStatementOf(u.Value), key)
		if line == 0 || restrictiveness(p) > restrictiveness(result) {
			result, line = p, u.Line
		}
	}
	return result, line
}

// restrictiveness orders preferences for combining: unknown, y, n.
func restrictiveness(p string) int {
	switch p {
	case PrefDisallowed:
		return 2
	case PrefAllowed:
		return 1
	}
	return 0
}

// usageMatch reports whether a normalised usage pattern matches a
// normalised path, as the semantics matches allow/disallow patterns:
// Koster1996's are literal prefixes (their '*' and '$' were escaped).
func usageMatch(pattern, path string, sem compile.Semantics) bool {
	if sem == compile.Koster1996 {
		return strings.HasPrefix(path, pattern)
	}
	return Match(pattern, path)
}

// UsagePathOf returns the path of a content-usage value
// (draft-ietf-aipref-attach-05 section 3.2): a value that starts with '/'
// has one, up to its first SP or HTAB; any other value has none ("").
func UsagePathOf(value string) string {
	if !strings.HasPrefix(value, "/") {
		return ""
	}
	if i := strings.IndexAny(value, " \t"); i >= 0 {
		return value[:i]
	}
	return value
}

// UsageStatementOf returns the statement of a content-usage value: the
// whole value when it has no path, else what follows the path and the
// SP and HTAB after it (the ABNF's "path-pattern 1*WS").
func UsageStatementOf(value string) string {
	return strings.TrimLeft(value[len(UsagePathOf(value)):], " \t")
}

// StatementPreference returns what a statement gives the category key
// (draft-ietf-aipref-vocab-08 section 6.5): PrefAllowed when the
// member's value is the Token y, PrefDisallowed for the Token n, and
// PrefUnknown otherwise: no such member (keys are compared byte for
// byte), another value or an inner list, or a statement that is not an
// RFC 9651 Dictionary. Parameters are ignored.
func StatementPreference(statement, key string) string {
	d, ok := parseDictionaryField(statement)
	if !ok {
		return PrefUnknown
	}
	m, ok := d.get(key)
	if !ok || m.inner || m.item.bare.kind != sfToken {
		return PrefUnknown
	}
	switch m.item.bare.text {
	case "y":
		return PrefAllowed
	case "n":
		return PrefDisallowed
	}
	return PrefUnknown
}
