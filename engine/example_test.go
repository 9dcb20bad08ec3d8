package engine_test

import (
	"fmt"

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
