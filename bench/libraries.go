package bench

import (
	"bytes"
	"fmt"
	"strings"

	estesrobots "github.com/benjaminestes/robots/v2"
	"github.com/jimsmart/grobotstxt"
	samrobots "github.com/samclarke/robotstxt"
	"github.com/seed-275a9bd5/robotstxt/engine"
	slyrzrobots "github.com/slyrz/robots"
	temotorobots "github.com/temoto/robotstxt"
)

// The libraries compared, with the versions pinned in go.mod (the Go module
// proxy answers 403 to @latest and @v/list for slyrz, benjaminestes and
// samclarke, so they resolve only at an exact version: go get MODULE@VERSION):
//
//	robotstxt      this module's engine (Google semantics)
//	temoto         github.com/temoto/robotstxt v1.1.2
//	grobotstxt     github.com/jimsmart/grobotstxt v1.0.3 (a port of google/robotstxt)
//	slyrz          github.com/slyrz/robots v0.0.0-20150806122829-7ebb2b6fc59f
//	benjaminestes  github.com/benjaminestes/robots/v2 v2.0.5
//	samclarke      github.com/samclarke/robotstxt v0.0.0-20171127213916-2817654b7988

// Library is one robots.txt library under test.
type Library struct {
	Name string
	// Module is the library's module path, whose version the run reports
	// (see libraryVersions); empty for ours.
	Module string
	// Parse parses (compiles) a robots.txt body. A library that rejects the
	// body, or panics on it, returns an error; the benchmarks skip that
	// input for it and the corpus benchmarks count the file as failed.
	Parse func(body []byte) (Robots, error)
	// PrepareFor, when set, is what Prepare does: the library's own way
	// of compiling a body for one crawler (ours: engine.CompileFor).
	PrepareFor func(body []byte, agent string) (func(url string) bool, Robots, error)
	// BoundOnly is set for a library that decides only for the agent it
	// was bound to (its Robots is a Binder, and its Allowed binds on every
	// call, a cost no caller of that library pays): the Decide benchmark
	// measures it bound only.
	BoundOnly bool
}

// Robots is a parsed robots.txt.
type Robots interface {
	// Allowed reports whether the crawler agent may fetch url, an absolute
	// URL (scheme://host/path?query).
	Allowed(agent, url string) bool
}

// Binder is implemented by a Robots that can select an agent's rules once
// and then decide many URLs for that agent (our Matcher, temoto's FindGroup,
// benjaminestes's Tester, slyrz's New). The benchmarks measure that form
// too, as "<name>-bound".
type Binder interface {
	// Bind returns the decision function for agent: it reports whether agent
	// may fetch url.
	Bind(agent string) func(url string) bool
}

// Libraries lists the libraries, ours first.
var Libraries = []Library{
	{Name: "robotstxt", Parse: parseOurs, PrepareFor: prepareOurs},
	{Name: "temoto", Module: "github.com/temoto/robotstxt", Parse: parseTemoto},
	{Name: "grobotstxt", Module: "github.com/jimsmart/grobotstxt", Parse: parseGrobotstxt},
	{Name: "slyrz", Module: "github.com/slyrz/robots", Parse: parseSlyrz, BoundOnly: true},
	{Name: "benjaminestes", Module: "github.com/benjaminestes/robots/v2", Parse: parseEstes},
	{Name: "samclarke", Module: "github.com/samclarke/robotstxt", Parse: parseSamclarke},
}

// LibraryNamed returns the library of Libraries called name.
func LibraryNamed(name string) (Library, error) {
	for _, lib := range Libraries {
		if lib.Name == name {
			return lib, nil
		}
	}
	return Library{}, fmt.Errorf("no library %q", name)
}

// Prepare parses body and readies it for agent in the library's best form:
// bound where the library can bind, else through Allowed. It is the work a
// crawler does once per robots.txt before its first decision.
func Prepare(lib Library, body []byte, agent string) (func(url string) bool, Robots, error) {
	if lib.PrepareFor != nil {
		return lib.PrepareFor(body, agent)
	}
	r, err := lib.Parse(body)
	if err != nil {
		return nil, nil, err
	}
	if b, ok := r.(Binder); ok {
		return b.Bind(agent), r, nil
	}
	return func(url string) bool { return r.Allowed(agent, url) }, r, nil
}

// Semantics is what our engine is compiled with here: Google's, the reading
// that the other libraries follow most closely.
const Semantics = engine.Google

// ours adapts this module's engine.
type ours struct{ r *engine.Robots }

func parseOurs(body []byte) (Robots, error) {
	return ours{engine.Compile(body, engine.Options{Semantics: Semantics})}, nil
}

// Allowed is Robots.Allowed: it looks the agent's cached Matcher up on
// every call.
func (o ours) Allowed(agent, url string) bool { return o.r.Allowed(agent, url) }

func (o ours) Bind(agent string) func(string) bool {
	m := o.r.Matcher(agent)
	return m.Allowed
}

// CompiledBytes returns the size of the automata of agent's Matcher.
func (o ours) CompiledBytes(agent string) int { return o.r.Matcher(agent).Stats().Bytes }

// prepareOurs is our Prepare: engine.CompileFor, which keeps only the
// groups that apply to agent (a crawler knows its tokens before it meets
// a file); Parse, Compile, serves the benchmarks that ask for any agent.
func prepareOurs(body []byte, agent string) (func(string) bool, Robots, error) {
	m := engine.CompileFor(body, engine.Options{Semantics: Semantics}, agent)
	return m.Allowed, oursFor{m}, nil
}

// oursFor is the Robots of prepareOurs: one crawler's matcher.
type oursFor struct{ m *engine.Matcher }

// Allowed decides url with the matcher, whatever agent (Prepare binds it).
func (o oursFor) Allowed(_, url string) bool { return o.m.Allowed(url) }

// CompiledBytes returns the size of the matcher's automata.
func (o oursFor) CompiledBytes(string) int { return o.m.Stats().Bytes }

// temoto adapts github.com/temoto/robotstxt. It decides paths, not URLs:
// the adapter extracts the path (and query) first, as a caller must.
type temoto struct{ r *temotorobots.RobotsData }

func parseTemoto(body []byte) (Robots, error) {
	r, err := temotorobots.FromBytes(body)
	if err != nil {
		return nil, err
	}
	return temoto{r}, nil
}

// Allowed finds the agent's group on every call (TestAgent).
func (t temoto) Allowed(agent, url string) bool { return t.r.TestAgent(PathOf(url), agent) }

func (t temoto) Bind(agent string) func(string) bool {
	g := t.r.FindGroup(agent)
	return func(url string) bool { return g.Test(PathOf(url)) }
}

// grobot adapts github.com/jimsmart/grobotstxt. The library has no parsed
// form: every decision parses the whole body again (as google/robotstxt
// does). Parse runs its parser once, so that the Parse benchmark shows the
// cost it pays per decision; Allowed reuses one RobotsMatcher, which the
// library allows (it is not safe for concurrent use, nor is this adapter).
type grobot struct {
	body string
	m    *grobotstxt.RobotsMatcher
}

func parseGrobotstxt(body []byte) (Robots, error) {
	s := string(body)
	grobotstxt.Parse(s, nopHandler{})
	return &grobot{body: s, m: grobotstxt.NewRobotsMatcher()}, nil
}

func (g *grobot) Allowed(agent, url string) bool { return g.m.AgentAllowed(g.body, agent, url) }

// nopHandler receives grobotstxt's parse events and does nothing.
type nopHandler struct{}

func (nopHandler) HandleRobotsStart()                      {}
func (nopHandler) HandleRobotsEnd()                        {}
func (nopHandler) HandleUserAgent(int, string)             {}
func (nopHandler) HandleAllow(int, string)                 {}
func (nopHandler) HandleDisallow(int, string)              {}
func (nopHandler) HandleSitemap(int, string)               {}
func (nopHandler) HandleUnknownAction(int, string, string) {}

// slyrz adapts github.com/slyrz/robots. The library decides for one agent:
// robots.New(body, agent) parses the file (NewGroups), selects the agent's
// group (Groups.Find) and keeps that group's rules, and Robots.Allow(path)
// decides a path, not a URL: the adapter extracts the path and query first
// (PathOf), as a caller must. Parse runs NewGroups once; Bind does the rest
// of New (Find, then NewRule for each allow and disallow value), so that
// Parse plus Bind costs what New does.
//
// Agent matching: the agent is lower-cased and a group applies when one of
// its user-agent values (lower-cased, trailing '*' dropped) is a prefix of
// it; the longest such value wins (the first of equally long ones) and "*"
// is the weakest. Only the chosen group is kept (same-named groups are not
// merged). Rules: the longest matching value (raw length) wins, allow on
// ties (New adds the allow rules first). Lines are read with bufio.Scanner,
// which stops at the first line over 64 KiB and ignores the rest of the
// file. A rule with a prefix, a '*' in the middle and a '$' (such as
// "/ab*c*ab$") makes Rule.Match slice out of range, a panic, on a path
// shorter than its prefix and suffix together ("/ab"); the harness catches
// it as for any library.
type slyrz struct{ groups slyrzrobots.Groups }

func parseSlyrz(body []byte) (Robots, error) {
	return slyrz{slyrzrobots.NewGroups(bytes.NewReader(body))}, nil
}

// Allowed binds on every call: the library has no decision that takes the
// agent, so this form exists for the sanity tests, not the benchmarks.
func (s slyrz) Allowed(agent, url string) bool { return s.rules(agent).Allow(PathOf(url)) }

func (s slyrz) Bind(agent string) func(string) bool {
	r := s.rules(agent)
	return func(url string) bool { return r.Allow(PathOf(url)) }
}

// rules is robots.New after its parse: agent's group, its allow rules then
// its disallow rules, empty values dropped (New's add does the same).
func (s slyrz) rules(agent string) *slyrzrobots.Robots {
	r := &slyrzrobots.Robots{}
	g := s.groups.Find(agent)
	if g == nil {
		return r
	}
	add := func(t slyrzrobots.RuleType, values []string) {
		for _, v := range values {
			if v != "" {
				r.Rules = append(r.Rules, slyrzrobots.NewRule(t, v))
			}
		}
	}
	add(slyrzrobots.TypeAllow, g.Allow)
	add(slyrzrobots.TypeDisallow, g.Disallow)
	return r
}

// estes adapts github.com/benjaminestes/robots/v2 (the library named
// "benjaminestes"). From(200, body) parses; Robots.Tester(agent) selects the
// agent's group once and returns the decision function (the bound form),
// Robots.Test(agent, url) does both on every call. It takes URLs, absolute
// or relative: it decides the decoded url.URL.Path plus "?" and the raw
// query, and allows a URL that url.Parse rejects.
//
// Agent matching: a group applies when its user-agent value, lower-cased,
// is a prefix of the lower-cased agent ("*" matches any); the longest value
// wins, and of same-named groups the last one (they are not merged). Every
// rule is a regular expression (regexp.Compile per rule and per agent of its
// group); rules are tried longest first, the first match decides, and of
// equally long rules the later one in the file wins (not allow). A field
// with an empty value takes the next line as its value (its lexer skips the
// line break after the ':'), so in "Disallow:", a blank line, then
// "User-agent: *", the "*" line is lost and its rules join the group before.
//
// From panics (index out of range) on a file with no field at all, such as
// an empty file or one of comments only; Parse recovers and returns the
// panic as an error, so the file counts as failed. A rule that is not valid
// UTF-8 cannot be compiled: the library prints "oh no! ..." to stdout and
// keeps a nil pattern, on which a later decision panics.
type estes struct{ r *estesrobots.Robots }

func parseEstes(body []byte) (r Robots, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("benjaminestes/robots panicked: %v", p)
		}
	}()
	rb, err := estesrobots.From(200, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	return estes{rb}, nil
}

func (e estes) Allowed(agent, url string) bool { return e.r.Test(agent, url) }

func (e estes) Bind(agent string) func(string) bool { return e.r.Tester(agent) }

// samclarke adapts github.com/samclarke/robotstxt. Parse(body, robotsURL)
// parses, and RobotsTxt.IsAllowed(agent, url) decides an absolute URL,
// refusing (false and InvalidHostError) one whose scheme or host differ
// from robotsURL's. A Library is not told the site, so the adapter parses
// with samOrigin and rewrites each URL onto it (samOrigin + PathOf(url),
// one allocation), which leaves the path and query as they were. The
// library has no bound form: IsAllowed looks the agent's group up in a map
// on every call.
//
// Agent matching: the agent is cut at its first '/', trimmed and
// lower-cased, and must equal a group's user-agent value exactly, else the
// "*" group applies; same-named groups are merged. It decides the decoded
// path only (url.URL.Path: no query). A rule with '*' or '$' is a regular
// expression, and the first of those in file order that matches decides;
// else the longest matching prefix among the other rules decides (the later
// one on ties). An empty "Disallow:" is kept as the prefix "", which
// disallows every path. IsAllowed answers false, with an error, for a URL that url.Parse
// rejects; the adapter passes that false on.
type samclarke struct{ r *samrobots.RobotsTxt }

// samOrigin is the scheme and host the samclarke adapter parses every file
// for and moves every URL onto.
const samOrigin = "http://robots.invalid"

func parseSamclarke(body []byte) (Robots, error) {
	r, err := samrobots.Parse(string(body), samOrigin+"/robots.txt")
	if err != nil {
		return nil, err
	}
	return samclarke{r}, nil
}

func (s samclarke) Allowed(agent, url string) bool {
	ok, _ := s.r.IsAllowed(agent, samOrigin+PathOf(url))
	return ok
}

// PathOf returns the path, params and query of url (scheme and authority
// removed, fragment dropped), always starting with '/': what robots.txt
// rules are matched against. It follows google/robotstxt's
// GetPathParamsQuery and allocates only when the URL has a query or params
// but no path.
func PathOf(url string) string {
	start := 0
	if strings.HasPrefix(url, "//") {
		start = 2
	}
	early := indexAnyFrom(url, "/?;", start)
	proto := strings.Index(url[start:], "://")
	if proto >= 0 {
		proto += start
	}
	if early >= 0 && early < proto {
		proto = -1
	}
	if proto < 0 {
		proto = start
	} else {
		proto += 3
	}
	p := indexAnyFrom(url, "/?;", proto)
	if p < 0 {
		return "/"
	}
	end := len(url)
	if h := strings.IndexByte(url[start:], '#'); h >= 0 {
		if h+start < p {
			return "/"
		}
		end = h + start
	}
	if url[p] != '/' {
		return "/" + url[p:end]
	}
	return url[p:end]
}

func indexAnyFrom(s, chars string, from int) int {
	if i := strings.IndexAny(s[from:], chars); i >= 0 {
		return i + from
	}
	return -1
}
