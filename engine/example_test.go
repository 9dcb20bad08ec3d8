package engine_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

func Example() {
	robots := engine.Compile([]byte(`
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$
`), engine.Options{})

	m := robots.Matcher("ExampleBot")
	for _, u := range []string{
		"https://example.com/",
		"https://example.com/private/plans",
		"https://example.com/private/press/2026",
		"https://example.com/docs/a.pdf",
		"https://example.com/docs/a.pdf?download=1",
	} {
		d := m.Decide(u)
		fmt.Println(d.Allowed, d.Rule.Line, u)
	}
	// Output:
	// true 0 https://example.com/
	// false 3 https://example.com/private/plans
	// true 4 https://example.com/private/press/2026
	// false 5 https://example.com/docs/a.pdf
	// true 0 https://example.com/docs/a.pdf?download=1
}

func ExampleRobots_Matcher() {
	robots := engine.Compile([]byte(`
User-agent: Googlebot
Disallow: /nogoogle/

User-agent: Googlebot-Image
Disallow: /photos/

User-agent: *
Disallow: /
`), engine.Options{Semantics: engine.Google})

	// A crawler with two product tokens: the groups of both apply, merged.
	m := robots.Matcher("Googlebot-Image", "Googlebot")
	fmt.Println(m.Decide("/nogoogle/a").Allowed, m.Decide("/photos/b").Allowed, m.Decide("/other").Allowed)
	// A crawler no group names gets the "*" group.
	fmt.Println(robots.Allowed("OtherBot", "/other"))
	// Output:
	// false false true
	// false
}

func ExampleMatcher_Decide() {
	robots := engine.Compile([]byte("User-agent: *\nDisallow: /a\nAllow: /a/b$\n"), engine.Options{})
	d := robots.Matcher("bot").Decide("http://example.com/a/b")
	fmt.Printf("allowed=%v line=%d %s %s (%s)\n", d.Allowed, d.Rule.Line, d.Rule.Kind, d.Rule.Pattern, d.Reason)
	// Output:
	// allowed=true line=3 allow /a/b$ (rule)
}

// Allowed is Decide without the deciding rule: the form for a crawler's hot
// loop, which needs only the answer.
func ExampleMatcher_Allowed() {
	m := engine.Compile([]byte("User-agent: *\nDisallow: /cart/\nAllow: /cart/help\n"), engine.Options{Semantics: engine.Google}).Matcher("ExampleBot")
	for _, u := range []string{"https://shop.example/cart/42", "https://shop.example/cart/help", "https://shop.example/"} {
		fmt.Println(m.Allowed(u), u)
	}
	// Output:
	// false https://shop.example/cart/42
	// true https://shop.example/cart/help
	// true https://shop.example/
}

// The examples below are the Go snippets of README.md and docs/GUIDE.md,
// shown there verbatim (TestREADME_SnippetsAreExamples checks that they
// are).

// Example_crawler is README's "The library in a page", first: a crawler
// that knows its product tokens compiles each site's file for them alone.
func Example_crawler() {
	body := []byte("User-agent: *\nDisallow: /private/\n\nUser-agent: OtherBot\nDisallow: /\n")
	m := engine.CompileFor(body, engine.Options{}, "FooBot") // keeps only FooBot's groups (here "*")
	fmt.Println(m.Allowed("https://example.com/private/plans"), m.Allowed("https://example.com/blog/"))
	// Output:
	// false true
}

// Example_library is README's "The library in a page": compile once, choose
// the crawler, decide URLs.
func Example_library() {
	body := []byte("User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot-Image\nDisallow: /photos/\n")
	robots := engine.Compile(body, engine.Options{Semantics: engine.RFC9309}) // never fails
	m := robots.Matcher("Googlebot-Image", "Googlebot")                       // cached, safe for concurrent use
	d := m.Decide("https://example.com/photos/a.jpg")                         // no allocation
	fmt.Println(d.Allowed, d.Rule.Line, d.Rule.Kind, d.Rule.Pattern)
	d = m.Decide("https://example.com/private/plans") // a group names Googlebot-Image, so "*" does not apply
	fmt.Println(d.Allowed, d.Rule.Line, d.Rule.Kind, d.Reason)
	ok := m.Allowed("https://example.com/photos/b.jpg") // the answer alone: the hot-loop form
	fmt.Println(ok, robots.Allowed("ExampleBot", "https://example.com/private/plans"))
	// Output:
	// false 5 disallow /photos/
	// true 0 none no-match
	// false false
}

// Example_tokens is the guide's "Which groups apply": from a User-Agent header
// to product tokens, and the two ways several tokens combine.
func Example_tokens() {
	robots := engine.Compile([]byte("User-agent: Googlebot\nDisallow: /nogoogle/\n\nUser-agent: Googlebot-Image\nDisallow: /photos/\n"), engine.Options{})
	fmt.Println(engine.ProductTokens("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"))
	chain := engine.FallbackTokens("Googlebot-Image") // [Googlebot-Image Googlebot]
	m := robots.MatcherChain(chain...)                // the first token that some group names wins; the rest are ignored (Google's documented precedence)
	fmt.Println(chain, m.Allowed("https://example.com/photos/a.jpg"), m.Allowed("https://example.com/nogoogle/b"))
	m = robots.Matcher(chain...) // every group naming any token applies, merged (docs/SEMANTICS.md section 2.4; Google's library)
	fmt.Println(chain, m.Allowed("https://example.com/photos/a.jpg"), m.Allowed("https://example.com/nogoogle/b"))
	// Output:
	// [Googlebot]
	// [Googlebot-Image Googlebot] false true
	// [Googlebot-Image Googlebot] false false
}

// Example_extensions is the guide's "Pacing and canonical URLs".
func Example_extensions() {
	robots := engine.Compile([]byte(`User-agent: *
Crawl-delay: 2.5
Request-rate: 1/10s 0600-0845
Host: www.example.com
Clean-param: sid /shop
Content-Signal: search=yes, ai-train=no
`), engine.Options{})
	ext := robots.Matcher("ExampleBot").Extensions()
	delay, ok := ext.CrawlDelay() // largest crawl-delay of the merged groups, at most engine.MaxCrawlDelay (5 min)
	fmt.Println(delay, ok)
	for _, r := range ext.RequestRates { // Request-rate: 1/10s 0600-0845
		fmt.Println(r.Interval(), r.Window) // 10s, during r.Window (UTC) when one is given
	}
	host, _ := ext.Host()                                    // Host: (Yandex)
	u := ext.CleanURL("https://example.com/shop?id=7&sid=x") // drops the parameters that Clean-param lines name for that path
	train, _ := ext.ContentSignal("ai-train")                // Content-Signal: search=yes, ai-train=no
	fmt.Println(host, u, train)
	// Output:
	// 2.5s true
	// 10s 0600-0845
	// www.example.com https://example.com/shop?id=7 no
}

// readmeSections are the sections of README.md and docs/GUIDE.md whose Go
// snippets must be Example functions, shown verbatim, and the directory of
// the package whose test files hold them.
var readmeSections = []struct{ file, heading, dir string }{
	{"../README.md", "## The library in a page", "."},
	{"../README.md", "## AI crawlers: Content-Usage", "."},
	{"../docs/GUIDE.md", "## For crawlers", "."},
	{"../docs/GUIDE.md", "## Using it with net/http", "fetch"},
}

// TestREADME_SnippetsAreExamples checks that every Go snippet in the
// library sections of README and the guide is an Example function of this
// package (or engine/fetch), written exactly as in its _test.go file (so
// that it compiles and its output is checked), optionally after an import
// block that imports only what that file imports.
func TestREADME_SnippetsAreExamples(t *testing.T) {
	block := regexp.MustCompile("(?s)```go\n(.*?)```")
	funcName := regexp.MustCompile(`(?m)^func (Example\w*)\(\)`)
	for _, sec := range readmeSections {
		heading := sec.heading
		readme, err := os.ReadFile(sec.file)
		if err != nil {
			t.Fatal(err)
		}
		examples, imports := exampleSources(t, sec.dir)
		start := bytes.Index(readme, []byte("\n"+heading+"\n"))
		if start < 0 {
			t.Errorf("%s has no section %q", sec.file, heading)
			continue
		}
		section := readme[start+1:]
		if end := bytes.Index(section[len(heading):], []byte("\n## ")); end >= 0 {
			section = section[:len(heading)+end]
		}
		blocks := block.FindAllSubmatch(section, -1)
		if len(blocks) == 0 {
			t.Errorf("%s: no Go snippet", heading)
		}
		for _, b := range blocks {
			snippet := string(b[1])
			m := funcName.FindStringSubmatch(snippet)
			if m == nil {
				t.Errorf("%s: a Go snippet is no Example function:\n%s", heading, snippet)
				continue
			}
			src, ok := examples[m[1]]
			if !ok {
				t.Errorf("%s: %s is not an Example of the package in %s", heading, m[1], sec.dir)
				continue
			}
			i := strings.Index(snippet, "func "+m[1]+"()")
			if got := strings.TrimSuffix(snippet[i:], "\n"); got != src.text {
				t.Errorf("%s %s: %s differs from %s:\n--- %s\n%s\n--- %s\n%s", sec.file, heading, m[1], src.file, sec.file, got, src.file, src.text)
			}
			for _, path := range regexp.MustCompile(`"([^"]+)"`).FindAllStringSubmatch(snippet[:i], -1) {
				if !imports[src.file][path[1]] {
					t.Errorf("%s %s: %s imports %q, which %s does not", sec.file, heading, m[1], path[1], src.file)
				}
			}
		}
	}
}

type exampleSource struct{ file, text string }

// exampleSources returns the source of every Example function in the test
// files of the package in dir, from "func" to the closing brace, and the imports of
// each file.
func exampleSources(t *testing.T, dir string) (map[string]exampleSource, map[string]map[string]bool) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	examples := make(map[string]exampleSource)
	imports := make(map[string]map[string]bool)
	fset := token.NewFileSet()
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		imports[name] = make(map[string]bool)
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			imports[name][p] = true
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Example") {
				text := string(src[fset.Position(fd.Pos()).Offset:fset.Position(fd.End()).Offset])
				examples[fd.Name.Name] = exampleSource{file: name, text: text}
			}
		}
	}
	return examples, imports
}

// ExampleMatcher_Rules lists what a crawler obeys, best first: the first
// rule in the list that matches a URL decides it. In Google semantics an
// allow of a directory's index.html also allows the directory itself; its
// pattern, as long as "/*.pdf$", wins the tie as an allow.
func ExampleMatcher_Rules() {
	body := []byte("User-agent: *\nDisallow: /shop/\nAllow: /shop/index.html\nDisallow: /*.pdf$\n")
	m := engine.Compile(body, engine.Options{Semantics: engine.Google}).Matcher("ExampleBot")
	for _, r := range m.Rules() {
		fmt.Println(r.Line, r.Kind, r.Pattern, r.IndexHTM)
	}
	// Output:
	// 3 allow /shop/index.html false
	// 3 allow /shop/$ true
	// 4 disallow /*.pdf$ false
	// 2 disallow /shop/ false
}

func Example_usage() {
	body := []byte("User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y\n")
	m := engine.Compile(body, engine.Options{}).Matcher("FooBot")
	u := m.Usage("https://example.com/blog/post") // the longest matching content-usage path decides
	fmt.Println(u.TrainAI, u.TrainAILine, u)
	fmt.Println(m.Usage("https://example.com/about"), "|", m.Usage("https://example.com/private/x"))
	fmt.Println(u.WithHeader("train-ai=n")) // a page's Content-Usage header: the most restrictive wins
	// Output:
	// y 4 train-ai=y search=unknown
	// train-ai=n search=y | -
	// train-ai=n search=unknown
}
