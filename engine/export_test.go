package engine

// The extension value readers, for the tests of package engine_test: a
// user reads extensions through Matcher.Extensions (ParseExtensions).
var (
	ParseRequestRate = parseRequestRate
	ParseTimeWindow  = parseTimeWindow
	ParseCleanParam  = parseCleanParam
)

// FirstTries reports whether a matcher's first decision of path (in
// canonical form) is made by trying its rules in turn, within their
// budget: false when the tries passed it and the automaton decides.
func FirstTries(m *Matcher, path string) bool {
	_, ok := m.firstMatch(path)
	return ok
}

// The header readers' case folding, for TestFold_ASCIIOnly.
var (
	IndexFold     = indexFold
	HasPrefixFold = hasPrefixFold
)
