package compile_test

import (
	"fmt"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

func ExampleParse() {
	body := []byte(`User-agent: *
Disallow: /private/   # not for anyone
Crawl-delay: 2

User-agent: Googlebot
User-agent: Bingbot
Allow: /private/press/
Disallow: /private/

Sitemap: https://example.com/sitemap.xml
`)
	f := compile.Parse(body, compile.Options{})
	for _, tokens := range [][]string{{"Googlebot-Image", "Googlebot"}, {"OtherBot"}} {
		sel := f.Select(tokens...)
		fmt.Printf("%v: %v groups %v\n", tokens, sel.Match, sel.Groups)
		for _, r := range sel.Rules.Slice() {
			fmt.Printf("  line %d: %v %s\n", r.Line, r.Kind, r.Pattern)
		}
		for _, e := range sel.Extensions.Slice() {
			fmt.Printf("  line %d: %s %s\n", e.Line, e.Key, e.Value)
		}
	}
	fmt.Println("sitemaps:", f.Sitemaps)
	// Output:
	// [Googlebot-Image Googlebot]: specific groups [1]
	//   line 7: allow /private/press/
	//   line 8: disallow /private/
	// [OtherBot]: global groups [0]
	//   line 2: disallow /private/
	//   line 3: crawl-delay 2
	// sitemaps: [{https://example.com/sitemap.xml 10}]
}

func Example_diagnostics() {
	body := []byte("User-agent: *\nDisalow: /tmp\nHello world\n<html>\n")
	f := compile.Parse(body, compile.Options{Diagnostics: true})
	for _, d := range f.Diagnostics {
		fmt.Printf("%v (%q)\n", d, d.Text)
	}
	// Output:
	// line 2: typo: key read as disallow ("Disalow: /tmp")
	// line 3: missing-colon: no colon: read as "key value" ("Hello world")
	// line 3: unknown-key: unknown key: kept as an extension, never a rule ("Hello world")
	// line 4: html: line looks like HTML: the server probably sent a web page, not a robots.txt ("<html>")
}

// A group's rules are compact records; At reads one, without allocating,
// as a Rule whose strings are parts of the File's text. The pattern is
// what is matched: the value normalised for the semantics.
func ExampleRules() {
	f := compile.Parse([]byte("User-agent: *\nDisallow: /caf\xc3\xa9/\nAllow: /%7ejoe/\n"), compile.Options{})
	rules := f.Groups[0].Rules
	for i := range rules.Len() {
		r := rules.At(i)
		fmt.Printf("line %d: %v %q (written %q)\n", r.Line, r.Kind, r.Pattern, r.Value)
	}
	// Output:
	// line 2: disallow "/caf%C3%A9/" (written "/café/")
	// line 3: allow "/~joe/" (written "/%7ejoe/")
}
