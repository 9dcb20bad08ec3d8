package reference

import (
	"fmt"
	"strings"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// fillers replace a pattern's '*' when URLs are made from it: nothing, a
// byte, a path segment, and something with the bytes patterns care about.
var fillers = []string{"", "x", "/seg/", "a.b?c=d", "%2F*$"}

// suffixes are appended to a pattern (end anchor removed) to make URLs that
// the pattern matches as a prefix, or, for anchored ones, misses.
var suffixes = []string{"", "/", "x", "?q=1", ".html", "#frag", "/index.html"}

// URLsFromPatterns makes test URLs from the rules and the content-usage
// paths of every group of f: each pattern with its wildcards filled in
// several ways, cut short, and extended. perRule bounds the URLs made per
// rule or path. The result is deterministic.
func URLsFromPatterns(f *compile.File, perRule int) []string {
	var out []string
	seen := map[string]bool{}
	add := func(u string) {
		if !strings.HasPrefix(u, "/") {
			u = "/" + u
		}
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	k := 0
	fromPattern := func(value string) {
		for i := 0; i < perRule; i++ {
			k++
			p := strings.TrimSuffix(value, "$")
			fill := fillers[(k+i)%len(fillers)]
			u := strings.ReplaceAll(p, "*", fill)
			switch i % 3 {
			case 0:
				add(u + suffixes[k%len(suffixes)])
			case 1:
				add(u[:len(u)/2])
			default:
				add(u + suffixes[(k+3)%len(suffixes)] + fill)
			}
		}
	}
	for _, g := range f.Groups {
		for _, r := range g.Rules.Slice() {
			fromPattern(r.Value)
		}
	}
	for _, u := range f.Usages().Slice() {
		if u.Path != "" {
			fromPattern(u.Path)
		}
	}
	return out
}

// Reproducer returns Go source that reproduces one decision, for failure
// messages: paste it into a test.
func Reproducer(body []byte, agents []string, url string, sem compile.Semantics) string {
	return fmt.Sprintf("body := []byte(%q)\nagents := %#v\nurl := %q\nsem := compile.%s // engine.Compile(body, engine.Options{Semantics: sem}).Matcher(agents...).Decide(url) vs reference.Decide(body, agents, url, sem)",
		body, agents, url, semName(sem))
}

func semName(s compile.Semantics) string {
	switch s {
	case compile.Google:
		return "Google"
	case compile.Koster1996:
		return "Koster1996"
	}
	return "RFC9309"
}
