package fetch_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

// A crawler that fetched a page asks what it may do with it: the page's
// X-Robots-Tag and meta tags, with robots.txt's Content-Usage and
// Content-Signal for its URL, in one answer.
func ExampleTransport_Page() {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nContent-Signal: search=yes, ai-train=no\n")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("X-Robots-Tag", "examplebot: nofollow")
		io.WriteString(w, `<html><head><meta name="robots" content="max-snippet:50"></head></html>`)
	})
	site := httptest.NewServer(mux)
	defer site.Close()

	t := &fetch.Transport{Client: fetch.New(fetch.Options{}), Agent: "ExampleBot"}
	resp, err := (&http.Client{Transport: t}).Get(site.URL + "/a")
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	a, err := t.Page(resp, body)
	fmt.Println("index:", !a.NoIndex, "follow:", !a.NoFollow, "("+a.Why.NoFollow.String()+")", "snippet:", a.MaxSnippet, err)
	fmt.Println("AI training:", a.AITrain.Answer, "("+a.AITrain.From.String()+")", "search:", a.Search.Answer)
	// Output:
	// index: true follow: false (X-Robots-Tag line 1 (ExampleBot)) snippet: 50 <nil>
	// AI training: n (robots.txt Content-Signal line 2) search: y
}
