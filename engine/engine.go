// Package engine is the public API of robotstxt: compile a robots.txt once,
// then decide URLs for one or several crawlers in one pass over each URL.
package engine

import "github.com/seed-275a9bd5/robotstxt/compile"

// STUB: the API shape; bodies are being written.

// Semantics re-exports compile.Semantics.
type Semantics = compile.Semantics

const (
	RFC9309    = compile.RFC9309
	Google     = compile.Google
	Koster1996 = compile.Koster1996
)

// DefaultStateBudget bounds the states of one automaton.
const DefaultStateBudget = 1 << 14

// Options configure Compile. The zero value is valid.
type Options struct {
	Semantics   Semantics
	MaxFileSize int // see compile.DefaultMaxFileSize; 0 means the default
	StateBudget int // 0 means DefaultStateBudget
}

// Robots is a compiled robots.txt. It is immutable and safe for concurrent use.
type Robots struct{}

// Compile parses body and prepares it for decisions. It never fails.
func Compile(body []byte, opts Options) *Robots { panic("stub") }

// AllowAll returns a Robots that allows every URL (an unavailable robots.txt).
func AllowAll(opts Options) *Robots { panic("stub") }

// DisallowAll returns a Robots that disallows every URL (an unreachable robots.txt).
func DisallowAll(opts Options) *Robots { panic("stub") }

// File returns the parsed file (plain data). Callers must not modify it.
func (r *Robots) File() *compile.File { panic("stub") }

// Matcher returns the matcher for a crawler with the given product tokens,
// built on first use and cached. Safe for concurrent use.
func (r *Robots) Matcher(tokens ...string) *Matcher { panic("stub") }

// Allowed reports whether the crawler with product token agent may fetch url.
func (r *Robots) Allowed(agent, url string) bool { panic("stub") }

// Matcher decides URLs for one crawler. Immutable, safe for concurrent use.
type Matcher struct{}

// Rule identifies the rule that decided.
type Rule struct {
	Line    int // 0 when no rule decided
	Kind    compile.RuleKind
	Pattern string // normalised pattern
	Value   string // as written
}

// Decision is the answer for one URL.
type Decision struct {
	Allowed bool
	Rule    Rule // Rule.Line == 0: no rule matched (or a built-in rule decided, see Reason)
	Reason  Reason
}

// Reason says what decided.
type Reason uint8

const (
	ReasonNoMatch     Reason = iota // no rule matched: allowed
	ReasonRule                      // Rule decided
	ReasonRobotsTxt                 // RFC9309: /robots.txt is always allowed
	ReasonIndexHTM                  // Google: an allow rule ending in /index.htm* allowed its directory
	ReasonAllowAll                  // the Robots allows everything (unavailable file)
	ReasonDisallowAll               // the Robots disallows everything (unreachable file)
)

// Decide decides a URL (absolute, or a path starting with '/'). It allocates nothing.
func (m *Matcher) Decide(url string) Decision { panic("stub") }

// DecidePath decides an already-extracted path (path + params + query).
func (m *Matcher) DecidePath(path string) Decision { panic("stub") }

// Stats describes a matcher's automata.
type Stats struct {
	Rules, Automata, States, Classes, Bytes int
}

func (m *Matcher) Stats() Stats { panic("stub") }

// String dumps the merged rules in priority order and the automata.
func (m *Matcher) String() string { panic("stub") }
