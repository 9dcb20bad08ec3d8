package robotscolly_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/seed-275a9bd5/robotstxt/contrib/colly"
	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

// A collector obeys a site's robots.txt and its crawl-delay: the pages it
// allows come the crawl-delay apart, each within its own request timeout;
// the ones it disallows are never requested, and colly reports them to
// OnError.
func ExampleObey() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nDisallow: /private/\nCrawl-delay: 0.05\n")
			return
		}
		io.WriteString(w, "a page")
	}))
	defer site.Close()

	t := &fetch.Transport{Client: fetch.New(fetch.Options{}), Agent: "ExampleBot", CrawlDelay: true}
	c := colly.NewCollector(colly.UserAgent("ExampleBot/1.0 (+https://bot.example/about)"))
	c.SetRequestTimeout(time.Second)
	robotscolly.Obey(c, t)

	c.OnResponse(func(r *colly.Response) {
		fmt.Println("fetched   ", r.Request.URL.Path)
	})
	c.OnError(func(r *colly.Response, err error) {
		var d *fetch.DisallowedError
		if errors.As(err, &d) {
			fmt.Println("disallowed", r.Request.URL.Path)
			return
		}
		fmt.Println("error     ", r.Request.URL.Path, err)
	})
	for _, path := range []string{"/", "/private/report", "/blog/post"} {
		c.Visit(site.URL + path)
	}
	// Output:
	// fetched    /
	// disallowed /private/report
	// fetched    /blog/post
}
