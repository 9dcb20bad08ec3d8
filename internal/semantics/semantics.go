// Package semantics holds the rules of docs/SEMANTICS.md that more than one
// package of robotstxt applies, each written once: the priority of a rule
// (section 4), Google's index.htm rule (4.3) and what an HTTP status means
// for a robots.txt (5.2). engine decides with them, engine/lint reports with
// them and engine/fetch fetches with them; users see their effects through
// those packages (Matcher.Rules, Decision.Reason, FromResponse).
package semantics

import (
	"strings"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// Priority returns the priority of a rule in semantics sem: the one place
// where precedence is decided. Of rules of equal priority the earlier in
// file order wins (a synthetic rule comes right after its line's).
//
// RFC9309 and Google: the longest pattern (in bytes, after normalisation,
// counting '*' and '$') wins; on equal length allow wins. Koster1996: every
// rule has the same priority, so the first rule in file order wins.
func Priority(sem compile.Semantics, kind compile.RuleKind, patternLen int) uint32 {
	if sem == compile.Koster1996 {
		return 0
	}
	allow := uint32(0)
	if kind == compile.Allow {
		allow = 1
	}
	return uint32(min(patternLen, 1<<30))<<1 | allow
}

// IndexHTM is Google's index.htm rule, the one place it is decided: in
// Google semantics an allow rule whose pattern's last '/'-segment starts
// with "/index.htm" also allows its directory exactly (docs/SEMANTICS.md
// section 4.3). IndexHTM returns that directory (up to and including the
// last '/', a substring of pattern), or false when the rule of kind k and
// pattern makes none in semantics sem. The directory rule's pattern is the
// directory and '$'; it has its rule's line and file order, and the
// priority of its own pattern.
func IndexHTM(sem compile.Semantics, k compile.RuleKind, pattern string) (string, bool) {
	if sem != compile.Google || k != compile.Allow {
		return "", false
	}
	i := strings.LastIndexByte(pattern, '/')
	if i < 0 || !strings.HasPrefix(pattern[i:], "/index.htm") {
		return "", false
	}
	return pattern[:i+1], true
}

// StatusClass is what the HTTP status of an answer to a robots.txt request
// means (docs/SEMANTICS.md section 5.2).
type StatusClass uint8

// The classes of ClassifyStatus.
const (
	StatusUnreachable StatusClass = iota // 429, 5xx, 1xx as a final answer, undefined statuses: disallow everything
	StatusFile                           // 2xx: the body is the file
	StatusRedirect                       // 301, 302, 303, 307, 308: follow Location; one that cannot be followed is StatusUnavailable
	StatusUnavailable                    // other 3xx, 4xx but 429: allow everything
	StatusForbidden                      // Koster1996's 401 and 403: disallow everything
)

// ClassifyStatus says what status means for a robots.txt in semantics sem:
// the one place where a status is classified, for engine.FromResponse and
// engine/fetch. A 304 is StatusUnavailable here: only the cache that sent a
// conditional request knows it means "use your copy".
func ClassifyStatus(sem compile.Semantics, status int) StatusClass {
	switch {
	case 200 <= status && status <= 299:
		return StatusFile
	case status == 301 || status == 302 || status == 303 || status == 307 || status == 308:
		return StatusRedirect
	case (status == 401 || status == 403) && sem == compile.Koster1996:
		return StatusForbidden
	case status == 429 || 500 <= status && status <= 599:
		return StatusUnreachable
	case 300 <= status && status <= 499:
		return StatusUnavailable
	}
	return StatusUnreachable
}
