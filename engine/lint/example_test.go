package lint_test

import (
	"fmt"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine/lint"
)

func ExampleCheck() {
	f := compile.Parse([]byte(`User-agent: *
Disallow: /admin/
Disallow: private/
Allow: /shop
Disallow: /shop

User-agent: OldBot
Sitemap: https://example.com/sitemap.xml
User-agent: NewBot
Disallow: /

User-agent: Bingbot
Crawl-delay: 10
`), compile.Options{Diagnostics: true})

	for _, x := range lint.Check(f) {
		fmt.Printf("%d %s\n", x.Line, x.Kind)
	}
	// Output:
	// 3 missing-slash
	// 5 shadowed-rule
	// 9 joined-group
	// 12 replaces-global
}

func ExampleReport() {
	f := compile.Parse([]byte("User-agent: *\nDisallow /tmp\nDisallow: /tmp\nCrawl-delay: soon\n"), compile.Options{Diagnostics: true})
	for _, x := range lint.Report(f) {
		fmt.Println(x)
	}
	// Output:
	// line 2: missing-colon: no colon: read as "key value"
	// line 3: duplicate-rule: same rule as line 2, which decides instead: this line never does; delete it
	// line 4: invalid-value: crawl-delay is not a number of seconds
}
