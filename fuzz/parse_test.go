package fuzz

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
	"github.com/seed-275a9bd5/robotstxt/internal/reference"
)

// The reference reads a file into groups with a parser of its own
// (internal/reference/parse.go); these tests compare its groups (user-agent,
// rule and content-usage lines) with compile.Parse's, line by line, so that a bug in the engine's scanner or
// grouping shows here by name rather than being shared by both sides.

// groupsDiff returns where the groups compile and the reference read from
// body in sem differ, or "".
func groupsDiff(body []byte, sem compile.Semantics) string {
	var a, b strings.Builder
	f := compile.Parse(body, compile.Options{Semantics: sem})
	for i, g := range f.Groups {
		fmt.Fprintf(&a, "group %d\n", i)
		for _, ag := range g.Agents.Slice() {
			fmt.Fprintf(&a, "  agent %d %q\n", ag.Line, ag.Value)
		}
		for _, r := range g.Rules.Slice() {
			fmt.Fprintf(&a, "  %s %d %q\n", r.Kind, r.Line, r.Value)
		}
		for _, u := range f.GroupUsages(i).Slice() {
			fmt.Fprintf(&a, "  content-usage %d %q\n", u.Line, u.Value)
		}
	}
	for i, g := range reference.Parse(body, sem).Groups {
		fmt.Fprintf(&b, "group %d\n", i)
		for _, ag := range g.Agents {
			fmt.Fprintf(&b, "  agent %d %q\n", ag.Line, ag.Value)
		}
		for _, r := range g.Rules {
			fmt.Fprintf(&b, "  %s %d %q\n", r.Kind, r.Line, r.Value)
		}
		for _, u := range g.Usages {
			fmt.Fprintf(&b, "  content-usage %d %q\n", u.Line, u.Value)
		}
	}
	if a.String() == b.String() {
		return ""
	}
	al, bl := strings.Split(a.String(), "\n"), strings.Split(b.String(), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("%s: first difference at output line %d: compile %q, reference %q", sem, i+1, x, y)
		}
	}
	return ""
}

var sems = []compile.Semantics{compile.RFC9309, compile.Google, compile.Koster1996}

// TestParse_AgreesWithCompile compares the two parsers on the conformance
// table's bodies, the adversarial inputs' files and the corpus.
func TestParse_AgreesWithCompile(t *testing.T) {
	var bodies [][]byte
	var names []string
	cases, err := reference.LoadConformance("../testdata/conformance.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range append(cases, reference.BuiltCases()...) {
		bodies, names = append(bodies, c.Body()), append(names, c.Name)
	}
	for _, c := range gen.Adversarial(1) {
		bodies, names = append(bodies, c.Body), append(names, "adversarial "+c.Name)
	}
	if dir := corpus.Dir(t); dir != "" {
		for _, cf := range corpus.TestFiles(t, 300) {
			body, err := os.ReadFile(cf.Path)
			if err != nil {
				t.Fatal(err)
			}
			bodies, names = append(bodies, body), append(names, cf.Name)
		}
	}
	failed := 0
	for i, body := range bodies {
		for _, sem := range sems {
			if d := groupsDiff(body, sem); d != "" && failed < 20 {
				failed++
				t.Errorf("%s: %s", names[i], d)
			}
		}
	}
	t.Logf("%d bodies, 3 semantics each", len(bodies))
}

// FuzzReferenceParse compares the two parsers on arbitrary bodies.
func FuzzReferenceParse(f *testing.F) {
	for _, s := range []string{
		"User-agent: a\nDisallow: /x\n\nUser-agent: b\nAllow: /y\r\nuser agent c\rdisallow /z # c\n",
		"\xEF\xBBUser-agent: *\nDisallowed: /a\x00b\n<html>\nSitemap: /s\nUser-agent: b\n\n\nCrawl-delay: 1\nDisallow:\n",
		"User-Agent: *\n\nDisallow: /a\n#\nUser-agent: x\nHost: h\n\nUser-agent: y\n\nUser-agent: z\nAllow /\n",
		"Content-Usage: train-ai=n\nUser-agent: a\ncontent-usage /p\nUser-agent: b\n\nUser-agent: c\nCONTENT-USAGE : /q search=y # x\n\nContent-Usage-X: y\n",
	} {
		for sem := range uint8(3) {
			f.Add([]byte(s), sem)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, sem uint8) {
		if len(body) > 4096 {
			return
		}
		if d := groupsDiff(body, compile.Semantics(sem%3)); d != "" {
			t.Errorf("body %q: %s", body, d)
		}
	})
}
