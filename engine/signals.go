package engine

import "strings"

// Content signals (docs/SEMANTICS.md section 8): Cloudflare's Content
// Signals Policy, "Content-Signal: search=yes, ai-train=no" lines in
// robots.txt groups, read from the groups the crawler's rules come from.
// They are extension lines: they change no crawl decision.

// The keys of a content-signal line that Signals reads.
const (
	SignalSearch  = "search"   // building a search index, links and short excerpts
	SignalAIInput = "ai-input" // real-time input to generative answers (RAG, grounding)
	SignalAITrain = "ai-train" // training or fine-tuning AI models
	SignalUse     = "use"      // how much may be reused: immediate, reference or full
)

// ContentUse is the level of a content-signal "use=" key (Cloudflare,
// 2026): how much of the content may be reused. The zero value is UseUnset;
// a larger value is more restrictive.
type ContentUse uint8

const (
	// UseUnset: no use= key, or none with a known value.
	UseUnset ContentUse = iota
	// UseFull: the content may be summarised and reproduced.
	UseFull
	// UseReference: it may be indexed, excerpted and linked back to
	// (Cloudflare's default).
	UseReference
	// UseImmediate: it may be used in the interaction only, not stored or
	// reused.
	UseImmediate
)

var contentUseNames = [...]string{"", "full", "reference", "immediate"}

// String returns "full", "reference", "immediate", or "" for UseUnset.
func (u ContentUse) String() string {
	if int(u) < len(contentUseNames) {
		return contentUseNames[u]
	}
	return "ContentUse(?)"
}

// Signals are the content signals of the groups a crawler's rules come
// from, read into types: for search, ai-input and ai-train, UsageAllowed
// for yes and UsageDisallowed for no (ASCII case ignored); UsageUnknown
// when no pair of the key has either value (an absent signal neither
// grants nor restricts). Pairs of one key in several lines or groups
// combine most restrictively: no over yes, and immediate over reference
// over full. Each Line is the content-signal line that decided its key
// (the first that gives the combined value), 0 when none did.
type Signals struct {
	Search, AIInput, AITrain                      Preference
	Use                                           ContentUse
	SearchLine, AIInputLine, AITrainLine, UseLine int
}

// Signals returns the content signals of the groups m applies (see
// Signals). It allocates nothing.
func (m *Matcher) Signals() Signals {
	var s Signals
	exts := m.sel.Extensions
	for i := range exts.Len() {
		x := exts.At(i)
		if x.Key != "content-signal" {
			continue
		}
		if validContentSignals(x.Value) {
			eachContentSignal(x.Value, func(k, v string) {
				s.add(ContentSignal{Key: k, Value: v, Line: x.Line})
			})
		}
	}
	return s
}

// Signals returns the content signals of e's content-signal lines (see
// Signals); Matcher.Signals reads the same without allocating.
func (e Extensions) Signals() Signals {
	var s Signals
	for _, p := range e.ContentSignals {
		s.add(p)
	}
	return s
}

// add combines one key=value pair into s; the key's case is ignored.
func (s *Signals) add(p ContentSignal) {
	switch {
	case equalFoldASCII(p.Key, SignalSearch):
		combineSignal(&s.Search, &s.SearchLine, yesNo(p.Value), p.Line)
	case equalFoldASCII(p.Key, SignalAIInput):
		combineSignal(&s.AIInput, &s.AIInputLine, yesNo(p.Value), p.Line)
	case equalFoldASCII(p.Key, SignalAITrain):
		combineSignal(&s.AITrain, &s.AITrainLine, yesNo(p.Value), p.Line)
	case equalFoldASCII(p.Key, SignalUse):
		u := UseUnset
		for i, name := range contentUseNames[1:] {
			if equalFoldASCII(p.Value, name) {
				u = ContentUse(i + 1)
			}
		}
		if u > s.Use {
			s.Use, s.UseLine = u, p.Line
		}
	}
}

// yesNo reads a signal's value: yes and no, ASCII case ignored; anything
// else (ai-train=disallow) states nothing.
func yesNo(v string) Preference {
	switch {
	case equalFoldASCII(v, "yes"):
		return UsageAllowed
	case equalFoldASCII(v, "no"):
		return UsageDisallowed
	}
	return UsageUnknown
}

// combineSignal sets *p to the more restrictive of *p and v, and *line to
// line when v is more restrictive than what *p was.
func combineSignal(p *Preference, line *int, v Preference, l int) {
	if v > *p {
		*p, *line = v, l
	}
}

// validContentSignals reports whether a content-signal value is a list of
// key=value pairs separated by commas, each key and value non-empty once
// trimmed and the key without blanks (a line that is not is Invalid in
// Extensions, and states nothing).
func validContentSignals(value string) bool {
	if strings.TrimSpace(value) == "" {
		return false
	}
	ok := true
	eachContentSignal(value, func(k, v string) {
		ok = ok && k != "" && v != "" && !strings.ContainsAny(k, " \t")
	})
	return ok
}

// eachContentSignal calls f with each comma-separated pair of value, as
// strings.Split would cut them, key and value trimmed (a pair without '='
// has an empty value), without allocating.
func eachContentSignal(value string, f func(k, v string)) {
	for {
		pair, rest, more := strings.Cut(value, ",")
		k, v, _ := strings.Cut(pair, "=")
		f(strings.TrimSpace(k), strings.TrimSpace(v))
		if !more {
			return
		}
		value = rest
	}
}

// equalFoldASCII reports whether a and b are equal ignoring ASCII case
// only (strings.EqualFold would also take the Kelvin sign for a k).
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

// lowerASCII returns c in lower case when it is an ASCII capital letter,
// else c.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
