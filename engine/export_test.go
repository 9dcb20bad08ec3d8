package engine

// The extension value readers, for the tests of package engine_test: a
// user reads extensions through Matcher.Extensions (ParseExtensions).
var (
	ParseRequestRate = parseRequestRate
	ParseTimeWindow  = parseTimeWindow
	ParseCleanParam  = parseCleanParam
)
