package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

// A crawler asks the client before every page. The first page of a site
// fetches its robots.txt; the others are answered from the cache.
func Example() {
	// The site to crawl (in a real crawler: the web).
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	})
	site := httptest.NewServer(mux)
	defer site.Close()

	// One client for the whole crawler; the User-Agent header names it.
	client := fetch.New(fetch.Options{UserAgent: "ExampleBot/1.0 (+https://bot.example/about)"})
	ctx := context.Background()

	for _, path := range []string{"/", "/private/report", "/blog/post"} {
		ok, res, err := client.Allowed(ctx, "ExampleBot", site.URL+path)
		if err != nil {
			fmt.Println("skip:", err) // not an http(s) URL
			continue
		}
		if !ok {
			fmt.Printf("%-16s skipped (robots.txt %s, HTTP %d)\n", path, res.Source, res.Status)
			continue
		}
		fmt.Printf("%-16s crawled (robots.txt %s, HTTP %d)\n", path, res.Source, res.Status)
	}
	// Output:
	// /                crawled (robots.txt fetched, HTTP 200)
	// /private/report  skipped (robots.txt cached, HTTP 200)
	// /blog/post       crawled (robots.txt cached, HTTP 200)
}

func ExampleRobotsURL() {
	for _, u := range []string{
		"HTTPS://User@WWW.Example.COM:443/a/b?c#d",
		"http://Bücher.example:8080/",
		"http://[2001:DB8::1]/x",
	} {
		r, err := fetch.RobotsURL(u)
		fmt.Println(r, err)
	}
	// Output:
	// https://www.example.com/robots.txt <nil>
	// http://xn--bcher-kva.example:8080/robots.txt <nil>
	// http://[2001:db8::1]/robots.txt <nil>
}

// Any http.Client obeys robots.txt once its transport is a fetch.Transport:
// a disallowed request, also one reached by a redirect, is never sent and
// fails with a *fetch.DisallowedError that says which rule decided.
func ExampleTransport() {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") })
	mux.Handle("/old", http.RedirectHandler("/private/new", http.StatusMovedPermanently))
	site := httptest.NewServer(mux)
	defer site.Close()

	hc := &http.Client{Transport: &fetch.Transport{
		Client:     fetch.New(fetch.Options{}), // the shared cache: one per crawler
		Agent:      "ExampleBot",               // the product token to obey
		CrawlDelay: true,                       // pace each host by its crawl-delay
	}}
	for _, path := range []string{"/", "/private/report", "/old"} {
		resp, err := hc.Get(site.URL + path)
		var d *fetch.DisallowedError
		if errors.As(err, &d) {
			fmt.Printf("%-16s not sent: %s, line %d: %s %s (robots.txt %s)\n", path,
				strings.TrimPrefix(d.URL, site.URL), d.Decision.Rule.Line, d.Decision.Rule.Kind, d.Decision.Rule.Value, d.Result.Source)
			continue
		}
		if err != nil {
			fmt.Println(path, err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%-16s %d %s\n", path, resp.StatusCode, body)
	}
	// Output:
	// /                200 hello
	// /private/report  not sent: /private/report, line 2: disallow /private/ (robots.txt cached)
	// /old             not sent: /private/new, line 2: disallow /private/ (robots.txt cached)
}
