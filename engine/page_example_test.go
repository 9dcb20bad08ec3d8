package engine_test

import (
	"fmt"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/engine/page"
)

func Example_page() {
	m := engine.Compile([]byte("User-agent: *\nContent-Signal: search=yes, ai-train=no\n"), engine.Options{}).Matcher("FooBot")
	header := map[string][]string{"X-Robots-Tag": {"foobot: nofollow, unavailable_after: 25 Jun 2010 15:00:00 PST"}} // resp.Header
	html := []byte(`<html><body><meta name="robots" content="noindex, max-snippet:50"></body></html>`)
	a := page.Read(page.Input{Header: header, HTML: html, Robots: page.RobotsFor(m, "https://example.com/a")}, "FooBot")
	fmt.Println(a.NoIndex, a.Why.NoIndex, "|", a.NoFollow, a.Why.NoFollow, "|", a.MaxSnippet, a.UnavailableAfter)
	fmt.Println(a.AITrain.Answer, a.AITrain.From, "|", a.Search.Answer, a.Search.From)
	// Output:
	// true meta line 1 | true X-Robots-Tag line 1 (FooBot) | 50 2010-06-25 23:00:00 +0000 UTC
	// n robots.txt Content-Signal line 2 | y robots.txt Content-Signal line 2
}
