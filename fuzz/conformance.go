package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// Expect is the decision a Case requires in one semantics. Line is the line
// of the deciding rule, 0 when no rule decides (no match, RFC9309's
// /robots.txt).
type Expect struct {
	Allowed bool `json:"allowed"`
	Line    int  `json:"line"`
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
	for key := range c.Expect {
		sem, err := compile.ParseSemantics(key)
		if err != nil || sem.String() != key {
			return fmt.Errorf("expect key %q: want rfc9309, google or koster1996", key)
		}
	}
	return nil
}
