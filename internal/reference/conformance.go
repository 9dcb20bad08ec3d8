package reference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// Expect is the decision a Case requires in one semantics. Line is the line
// of the deciding rule, 0 when no rule decides (no match, RFC9309's
// /robots.txt).
type Expect struct {
	Allowed bool `json:"allowed"`
	Line    int  `json:"line"`
	// Usage, when set, is the usage preferences required
	// (docs/SEMANTICS.md section 7), as engine.Usage.String prints them:
	// "-" for a URL that may not be fetched, else "train-ai=X search=Y"
	// with X and Y each y, n or unknown.
	Usage string `json:"usage,omitempty"`
}

// Case is one entry of the conformance table: a robots.txt body, a crawler's
// product tokens, a URL, and the decision each semantics named in Expect must
// give.
type Case struct {
	Name   string `json:"name"`
	Source string `json:"source"` // the document and section the case comes from
	Robots string `json:"robots"` // the body
	// RobotsQuoted is the body as a Go-quoted string ("...\xff..."), for
	// bodies with bytes JSON cannot carry; decoded with strconv.Unquote.
	// Exactly one of Robots and RobotsQuoted is set.
	RobotsQuoted string   `json:"robots_quoted,omitempty"`
	Agents       []string `json:"agents"`
	URL          string   `json:"url"`
	// Header, when set, is the field lines of the URL's Content-Usage
	// response header: the usage expected is the file's combined with it
	// (docs/SEMANTICS.md section 7, the HTTP header).
	Header []string `json:"content_usage_header,omitempty"`
	// Expect maps "rfc9309", "google", "koster1996" (compile.Semantics.String)
	// to the required decision.
	Expect map[string]Expect `json:"expect"`
}

// Body returns the robots.txt body of c. For a case that LoadConformance
// accepted it never fails; for an invalid RobotsQuoted it returns nil.
func (c Case) Body() []byte {
	if c.RobotsQuoted == "" {
		return []byte(c.Robots)
	}
	s, err := strconv.Unquote(c.RobotsQuoted)
	if err != nil {
		return nil
	}
	return []byte(s)
}

// Reproducer returns a one-line description of c that can be pasted into a
// Go test: the body quoted, the agents and the URL.
func (c Case) Reproducer() string {
	if len(c.Header) > 0 {
		return fmt.Sprintf("body=%q agents=%q url=%q content-usage header=%q", c.Body(), c.Agents, c.URL, c.Header)
	}
	return fmt.Sprintf("body=%q agents=%q url=%q", c.Body(), c.Agents, c.URL)
}

// LoadConformance reads the conformance table at path and validates every
// case: a unique non-empty name, a source, at least one agent, a URL, exactly
// one of robots and robots_quoted (the latter a valid Go-quoted string), and
// at least one expectation, each keyed by a known semantics name. Unknown
// JSON fields are errors too, so that a misspelt key cannot silently drop an
// expectation.
func LoadConformance(path string) ([]Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("conformance table: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var cases []Case
	if err := dec.Decode(&cases); err != nil {
		return nil, fmt.Errorf("conformance table %s: %w", path, err)
	}
	seen := make(map[string]bool)
	for i, c := range cases {
		if err := c.validate(seen); err != nil {
			return nil, fmt.Errorf("conformance table %s: case %d (%q): %w", path, i, c.Name, err)
		}
	}
	return cases, nil
}

func (c Case) validate(seen map[string]bool) error {
	switch {
	case c.Name == "":
		return fmt.Errorf("no name")
	case seen[c.Name]:
		return fmt.Errorf("duplicate name")
	case c.Source == "":
		return fmt.Errorf("no source")
	case len(c.Agents) == 0:
		return fmt.Errorf("no agents")
	case c.URL == "":
		return fmt.Errorf("no url")
	case (c.Robots == "") == (c.RobotsQuoted == ""):
		return fmt.Errorf("want exactly one of robots and robots_quoted (an empty body is robots_quoted %q)", `""`)
	case len(c.Expect) == 0:
		return fmt.Errorf("no expectations")
	}
	seen[c.Name] = true
	if c.RobotsQuoted != "" {
		if _, err := strconv.Unquote(c.RobotsQuoted); err != nil {
			return fmt.Errorf("robots_quoted is not a Go-quoted string: %v", err)
		}
	}
	for key, e := range c.Expect {
		sem, err := compile.ParseSemantics(key)
		if err != nil || sem.String() != key {
			return fmt.Errorf("expect key %q: want rfc9309, google or koster1996", key)
		}
		if err := e.validateUsage(); err != nil {
			return fmt.Errorf("expect %s: %w", key, err)
		}
		if len(c.Header) > 0 && e.Usage == "" {
			return fmt.Errorf("expect %s: a case with a content_usage_header expects usage", key)
		}
	}
	return nil
}

// validUsages are the values Expect.Usage may have: "-", and every
// "train-ai=X search=Y".
var validUsages = func() map[string]bool {
	m := map[string]bool{PrefNotApplicable: true}
	prefs := []string{PrefAllowed, PrefDisallowed, PrefUnknown}
	for _, x := range prefs {
		for _, y := range prefs {
			m[CategoryTrainAI+"="+x+" "+CategorySearch+"="+y] = true
		}
	}
	return m
}()

// validateUsage checks an expected usage: absent, or one of validUsages,
// "-" exactly when the URL is disallowed.
func (e Expect) validateUsage() error {
	switch {
	case e.Usage == "":
		return nil
	case !validUsages[e.Usage]:
		return fmt.Errorf("usage %q: want - or train-ai=X search=Y, X and Y each y, n or unknown", e.Usage)
	case (e.Usage == PrefNotApplicable) == e.Allowed:
		return fmt.Errorf("usage %q with allowed=%v: a URL has usage - exactly when it is disallowed", e.Usage, e.Allowed)
	}
	return nil
}

// maxLine is the number of bytes of a line that are kept (docs/SEMANTICS.md
// section 1.3), written out here rather than taken from compile.
const maxLine = 16663

// maxFile is the number of bytes of a file that are read by default
// (docs/SEMANTICS.md section 1.3).
const maxFile = 512000

// BuiltCases are the cases too large for the JSON table: the line-length
// cap (of a rule and of a content-usage statement) and the 500 KiB file
// cap. Their expectations follow docs/SEMANTICS.md sections 1.3 and 7 and
// hold in all three semantics.
func BuiltCases() []Case {
	all := func(allowed bool, line int) map[string]Expect {
		e := Expect{Allowed: allowed, Line: line}
		return map[string]Expect{"rfc9309": e, "google": e, "koster1996": e}
	}
	const lineSrc = "docs/SEMANTICS.md 1.3 (at most 16663 bytes of a line are kept, the kept part still counts)"
	const fileSrc = "docs/SEMANTICS.md 1.3 (only the first 512,000 bytes are read; a last line without an end counts)"
	rule := "Disallow: /"
	kept := maxLine - len(rule) // bytes of the value after "/" that survive the cut
	a := func(n int) string { return strings.Repeat("a", n) }

	longBody := "User-agent: *\n" + rule + a(20000) + "\nAllow: /b\n"
	// A content-usage statement cut inside a string: it fails to parse.
	longUsage := "User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: /a train-ai=n, x=\"" + a(20000) + "\"\n"
	usage := func(u string) map[string]Expect {
		e := Expect{Allowed: true, Usage: u}
		return map[string]Expect{"rfc9309": e, "google": e, "koster1996": e}
	}
	const usageSrc = lineSrc + "; docs/SEMANTICS.md 7 (a statement that fails to parse gives unknown and hides less specific rules)"
	exactBody := "User-agent: *\n" + rule + a(kept-1) + "Z\n"            // a line of exactly maxLine bytes
	overBody := "User-agent: *\n" + rule + a(kept) + "Z\nDisallow: /c\n" // one byte over: Z is dropped
	commentBody := "User-agent: *\n#" + strings.Repeat("x", 30000) + "\nDisallow: /c\n"

	// A body whose byte maxFile falls inside "Disallow: /straddle-abcdef".
	head := "User-agent: *\nDisallow: /early\n"
	inside := "Disallow: /straddle-ab"
	var b strings.Builder
	b.WriteString(head)
	line := 2
	fill := maxFile - len(head) - len(inside)
	for fill > 0 {
		n := 100
		if fill < 200 {
			n = fill
		}
		b.WriteString("#" + strings.Repeat("x", n-2) + "\n")
		fill -= n
		line++
	}
	straddleLine := line + 1
	b.WriteString(inside)
	if b.Len() != maxFile {
		panic("BuiltCases: the 500 KiB body is mis-built")
	}
	b.WriteString("cdef\nDisallow: /late\n")
	bigBody := b.String()

	return []Case{
		{Name: "go-built/long-line/cut-pattern-matches", Source: lineSrc, Robots: longBody, Agents: []string{"bot"},
			URL: "/" + a(kept), Expect: all(false, 2)},
		{Name: "go-built/long-line/cut-pattern-not-shorter", Source: lineSrc, Robots: longBody, Agents: []string{"bot"},
			URL: "/" + a(kept-1), Expect: all(true, 0)},
		{Name: "go-built/long-line/next-line-counts", Source: lineSrc, Robots: longBody, Agents: []string{"bot"},
			URL: "/b", Expect: all(true, 3)},
		{Name: "go-built/long-line/exact-limit-kept", Source: lineSrc + " (a line of exactly 16663 bytes is whole)", Robots: exactBody, Agents: []string{"bot"},
			URL: "/" + a(kept-1), Expect: all(true, 0)},
		{Name: "go-built/long-line/exact-limit-last-byte", Source: lineSrc + " (a line of exactly 16663 bytes is whole)", Robots: exactBody, Agents: []string{"bot"},
			URL: "/" + a(kept-1) + "Z", Expect: all(false, 2)},
		{Name: "go-built/long-line/one-over-limit", Source: lineSrc + " (byte 16664 is dropped)", Robots: overBody, Agents: []string{"bot"},
			URL: "/" + a(kept), Expect: all(false, 2)},
		{Name: "go-built/long-line/one-over-limit-next-line", Source: lineSrc, Robots: overBody, Agents: []string{"bot"},
			URL: "/c", Expect: all(false, 3)},
		{Name: "go-built/long-line/comment", Source: lineSrc + " (a long comment line)", Robots: commentBody, Agents: []string{"bot"},
			URL: "/c", Expect: all(false, 3)},
		{Name: "go-built/long-line/usage-statement-cut", Source: usageSrc, Robots: longUsage, Agents: []string{"bot"},
			URL: "/a", Expect: usage("train-ai=unknown search=unknown")},
		{Name: "go-built/long-line/usage-other-path", Source: usageSrc, Robots: longUsage, Agents: []string{"bot"},
			URL: "/b", Expect: usage("train-ai=y search=unknown")},
		{Name: "go-built/500KiB/before-limit", Source: fileSrc, Robots: bigBody, Agents: []string{"bot"},
			URL: "/early", Expect: all(false, 2)},
		{Name: "go-built/500KiB/after-limit-ignored", Source: fileSrc, Robots: bigBody, Agents: []string{"bot"},
			URL: "/late", Expect: all(true, 0)},
		{Name: "go-built/500KiB/straddling-line-cut", Source: fileSrc + " (the line crossing the limit is cut there)", Robots: bigBody, Agents: []string{"bot"},
			URL: "/straddle-abX", Expect: all(false, straddleLine)},
		{Name: "go-built/500KiB/straddling-line-not-shorter", Source: fileSrc + " (the line crossing the limit is cut there)", Robots: bigBody, Agents: []string{"bot"},
			URL: "/straddle-a", Expect: all(true, 0)},
	}
}

// Tester is what RunConformance needs of a test: *testing.T is one. The
// package takes it so, rather than importing testing outside its tests.
type Tester[T any] interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
	Run(name string, f func(T)) bool
}

// Outcome is what an engine gives for a Case in one semantics: the
// decision, the deciding line (0 for none), the usage preferences as
// engine.Usage.String prints them (combined with the case's Header), and
// a description for failure messages.
type Outcome struct {
	Allowed bool
	Line    int
	Usage   string
	Why     string
}

// RunConformance runs every expectation for sem, of the table at path and of
// BuiltCases, against decide, one subtest per case; it fails the test when
// the table has no expectation for sem. The decision and its line are
// checked always, the usage preferences when the expectation has them.
// Every engine runs the same table through it.
func RunConformance[T Tester[T]](t T, path string, sem compile.Semantics, decide func(Case) Outcome) {
	t.Helper()
	table, err := LoadConformance(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range append(table, BuiltCases()...) {
		want, ok := c.Expect[sem.String()]
		if !ok {
			continue
		}
		n++
		t.Run(c.Name, func(t T) {
			got := decide(c)
			if got.Allowed != want.Allowed || got.Line != want.Line {
				t.Errorf("%s: %s\n  want allowed=%v line=%d\n  got  allowed=%v line=%d (%s)\n  reproducer: %s",
					sem, c.Source, want.Allowed, want.Line, got.Allowed, got.Line, got.Why, c.Reproducer())
			}
			if want.Usage != "" && got.Usage != want.Usage {
				t.Errorf("%s: %s\n  want usage %s\n  got  usage %s (%s)\n  reproducer: %s",
					sem, c.Source, want.Usage, got.Usage, got.Why, c.Reproducer())
			}
		})
	}
	if n == 0 {
		t.Fatalf("no expectations for %s", sem)
	}
}
