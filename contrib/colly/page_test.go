package robotscolly

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gocolly/colly/v2"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
	"github.com/seed-275a9bd5/robotstxt/engine/page"
)

// pageSite is a loopback site whose pages carry robots headers and tags,
// TDMRep and Content-Usage, linked from its index; robots.txt disallows
// /private and has Content-Signal and Content-Usage lines.
func pageSite(t *testing.T) *httptest.Server {
	pages := map[string]struct{ header, html string }{
		"/":          {"", `<a href="/a">a</a> <a href="/b">b</a> <a href="/c">c</a> <a href="/d">d</a> <a href="/private/e">e</a>`},
		"/a":         {"X-Robots-Tag: foobot: noindex", ""},
		"/b":         {"", "<body>\n<meta name=robots content=nofollow><meta name=tdm-reservation content=1></body>"},
		"/c":         {"X-Robots-Tag: noai, unavailable_after: Wed, 03 Dec 2025 13:09:53 GMT", ""},
		"/d":         {"Content-Usage: train-ai=n", `<meta name="FooBot" content="max-snippet:20">`},
		"/private/e": {"", ""},
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private\nContent-Signal: search=yes\nContent-Usage: /d train-ai=y\n")
			return
		}
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if name, value, ok := strings.Cut(p.header, ": "); ok {
			w.Header().Set(name, value)
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<html>"+p.html+"</html>")
	}))
	t.Cleanup(s.Close)
	return s
}

// TestPage_CollyCrawl: a real colly crawl of a loopback site reports each
// page's answer (what its header, its tags and robots.txt say).
func TestPage_CollyCrawl(t *testing.T) {
	s := pageSite(t)
	tr := &fetch.Transport{Client: fetch.New(fetch.Options{}), Agent: "FooBot"}
	defer tr.Client.Close()
	c := colly.NewCollector()
	Obey(c, tr)
	var mu sync.Mutex
	got := map[string]string{}
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { _ = e.Request.Visit(e.Attr("href")) })
	c.OnResponse(func(r *colly.Response) {
		a, err := Page(c.Context, tr, r)
		u, uerr := Usage(c.Context, tr, r)
		if err != nil || uerr != nil {
			t.Errorf("%s: %v %v", r.Request.URL.Path, err, uerr)
			return
		}
		var parts []string
		if a.NoIndex {
			parts = append(parts, "noindex ("+a.Why.NoIndex.String()+")")
		}
		if a.NoFollow {
			parts = append(parts, "nofollow ("+a.Why.NoFollow.String()+")")
		}
		if a.MaxSnippet != page.NoLimit {
			parts = append(parts, "snippet "+a.Why.MaxSnippet.String())
		}
		if !a.UnavailableAfter.IsZero() {
			parts = append(parts, "until "+a.UnavailableAfter.Format("2006-01-02T15:04:05Z07:00"))
		}
		parts = append(parts, "ai-train "+a.AITrain.Answer.String(), "search "+a.Search.Answer.String(), "usage "+u.String())
		mu.Lock()
		got[r.Request.URL.Path] = strings.Join(parts, ", ")
		mu.Unlock()
	})
	if err := c.Visit(s.URL + "/"); err != nil {
		t.Fatal(err)
	}
	c.Wait()
	want := map[string]string{
		"/":  "ai-train unknown, search y, usage train-ai=unknown search=unknown",
		"/a": "noindex (X-Robots-Tag line 1 (FooBot)), ai-train unknown, search y, usage train-ai=unknown search=unknown",
		"/b": "nofollow (meta line 2), ai-train n, search y, usage train-ai=unknown search=unknown",
		"/c": "until 2025-12-03T13:09:53Z, ai-train n, search y, usage train-ai=unknown search=unknown",
		"/d": "snippet meta line 1 (FooBot), ai-train n, search y, usage train-ai=n search=unknown",
	}
	var paths []string
	for p := range got {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if len(got) != len(want) {
		t.Errorf("pages answered: %q, want %d (the private one is never fetched)", paths, len(want))
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: %q\n  want %q", p, got[p], w)
		}
	}
	if _, err := Page(context.Background(), tr, &colly.Response{}); err == nil {
		t.Error("a response without a request was accepted")
	}
	if u, _ := Usage(context.Background(), tr, &colly.Response{}); u != (engine.Usage{}) {
		t.Error("a response without a request has usage")
	}
}
