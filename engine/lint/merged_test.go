package lint

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
)

// mergedBodies are files whose groups name crawlers in every way
// docs/SEMANTICS.md section 2 allows.
var mergedBodies = []string{
	"User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
	"User-agent: FooBot/2.1\nUser-agent: barbot\nDisallow: /1\n\nUser-agent: foobot\nUser-agent: FOOBOT\nAllow: /2\n\nUser-agent: *\nUser-agent: Foo Bar\nDisallow: /3\n",
	"User-agent: MJ12bot\nDisallow: /1\nUser-agent: mj\nDisallow: /2\nUser-agent: *foo\nUser-agent:\nUser-agent: /x\nDisallow: /3\n",
	"User-agent: a\n\nUser-agent: A\nCrawl-delay: 1\n\nUser-agent: *\nDisallow: /\n",
}

// TestMergedGroups_AreSelect checks that the groups Check merges for each
// crawler are those compile.File.Select selects for it, and that the "*"
// groups are those Select falls back to: lint and the engine's decisions
// read the same groups.
func TestMergedGroups_AreSelect(t *testing.T) {
	bodies := mergedBodies
	if dir := corpus.Dir(t); dir != "" {
		files, err := corpus.Files(dir)
		if err != nil {
			t.Fatal(err)
		}
		n := min(len(files), 500)
		if testing.Short() {
			n = min(n, 50)
		}
		for _, cf := range files[:n] {
			body, err := os.ReadFile(cf.Path)
			if err != nil {
				t.Fatal(err)
			}
			bodies = append(bodies, string(body))
		}
	}
	for _, body := range bodies {
		for _, sem := range []compile.Semantics{compile.RFC9309, compile.Google, compile.Koster1996} {
			f := compile.Parse([]byte(body), compile.Options{Semantics: sem, Diagnostics: true})
			byName := (&checker{f: f}).mergedGroups()
			for _, g := range f.Groups {
				for _, a := range g.Agents.Slice() {
					key, ok := crawler(a)
					if !ok {
						continue
					}
					if want, got := f.Select(a.Name).Groups, byName[key]; !cmp.Equal(want, got) {
						t.Errorf("%s: %.40q: lint merges groups %v for %s, Select gives %v", sem, body, got, a.Name, want)
					}
				}
			}
			if want, got := f.Select().Groups, byName["*"]; !cmp.Equal(want, got) {
				t.Errorf("%s: %.40q: lint's \"*\" groups %v, Select gives %v", sem, body, got, want)
			}
		}
	}
}
