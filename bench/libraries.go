package bench

import (
	"strings"

	"github.com/jimsmart/grobotstxt"
	"github.com/seed-275a9bd5/robotstxt/engine"
	temotorobots "github.com/temoto/robotstxt"
)

// The libraries compared, with the versions pinned in go.mod:
//
//	robotstxt   this module's engine (Google semantics)
//	temoto      github.com/temoto/robotstxt v1.1.2
//	grobotstxt  github.com/jimsmart/grobotstxt v1.0.3 (a port of google/robotstxt)
//
// github.com/slyrz/robots, github.com/benjaminestes/robots/v2 and
// github.com/samclarke/robotstxt were asked for too; the Go module proxy
// answers "403 Forbidden: This module version is not available" for every
// version of them, so they are not here.

// Library is one robots.txt library under test.
type Library struct {
	Name string
	// Parse parses (compiles) a robots.txt body. A library that rejects the
	// body returns an error; the benchmarks skip that input for it.
	Parse func(body []byte) (Robots, error)
}

// Robots is a parsed robots.txt.
type Robots interface {
	// Allowed reports whether the crawler agent may fetch url, an absolute
	// URL (scheme://host/path?query).
	Allowed(agent, url string) bool
}

// Binder is implemented by a Robots that can select an agent's rules once
// and then decide many URLs for that agent (temoto's FindGroup, our
// Matcher). The benchmarks measure that form too, as "<name>-bound".
type Binder interface {
	// Bind returns the decision function for agent: it reports whether agent
	// may fetch url.
	Bind(agent string) func(url string) bool
}

// Libraries lists the libraries, ours first.
var Libraries = []Library{
	{Name: "robotstxt", Parse: parseOurs},
	{Name: "temoto", Parse: parseTemoto},
	{Name: "grobotstxt", Parse: parseGrobotstxt},
}

// Prepare parses body and readies it for agent in the library's best form:
// bound where the library can bind, else through Allowed. It is the work a
// crawler does once per robots.txt before its first decision.
func Prepare(lib Library, body []byte, agent string) (func(url string) bool, Robots, error) {
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
