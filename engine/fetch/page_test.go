package fetch

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/engine/page"
)

// pageSite serves a robots.txt with content-usage and content-signal lines,
// and pages with robots headers and meta tags.
func pageSite(t *testing.T) *server {
	return newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private\nContent-Usage: train-ai=y\nContent-Signal: search=yes, ai-train=no\n")
		case "/a":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Add("X-Robots-Tag", "foobot: nofollow")
			w.Header().Add("X-Robots-Tag", "unavailable_after: 25 Jun 2010 15:00:00 PST")
			_, _ = io.WriteString(w, "<html><body>\n<meta name=robots content=noindex></body></html>")
		case "/img":
			w.Header().Set("Content-Type", "image/png")
			w.Header().Set("tdm-reservation", "0")
			_, _ = io.WriteString(w, "<meta name=robots content=noindex>") // not HTML: not read
		default:
			http.NotFound(w, r)
		}
	})
}

// What a page says, in one call, through the Transport and through the
// Client: the response's header and HTML with robots.txt's Content-Usage
// and Content-Signal for the URL.
func TestPage_TransportAndClient(t *testing.T) {
	s := pageSite(t)
	c := New(Options{})
	defer c.Close()
	tr := &Transport{Client: c, Agent: "FooBot"}
	hc := &http.Client{Transport: tr}
	get := func(path string) (*http.Response, []byte) {
		resp, err := hc.Get(s.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, body := get("/a")
	a, err := tr.Page(resp, body)
	if err != nil {
		t.Fatal(err)
	}
	if !a.NoIndex || !a.NoFollow || a.Why.NoIndex.String() != "meta line 2" || a.Why.NoFollow.String() != "X-Robots-Tag line 1 (FooBot)" {
		t.Errorf("/a: NoIndex %v (%s), NoFollow %v (%s)", a.NoIndex, a.Why.NoIndex, a.NoFollow, a.Why.NoFollow)
	}
	if want := time.Date(2010, 6, 25, 23, 0, 0, 0, time.UTC); !a.UnavailableAfter.Equal(want) {
		t.Errorf("/a: UnavailableAfter %v, want %v", a.UnavailableAfter, want)
	}
	if a.AITrain.Answer != engine.UsageDisallowed || a.AITrain.ContentUsage.Preference != engine.UsageAllowed || a.Search.Answer != engine.UsageAllowed {
		t.Errorf("/a: AITrain %+v, Search %+v", a.AITrain, a.Search)
	}
	ca, _, err := c.Page(context.Background(), "FooBot", s.URL+"/a", resp.Header, body)
	if err != nil || ca != a {
		t.Errorf("Client.Page = %+v, %v; want the Transport's %+v", ca, err, a)
	}

	resp, body = get("/img")
	a, err = tr.Page(resp, body)
	if err != nil || a.NoIndex || a.TDM.Reservation != page.TDMNotReserved {
		t.Errorf("/img (image/png): NoIndex %v, TDM %+v, %v: want the body unread, the header read", a.NoIndex, a.TDM, err)
	}

	a, _, err = c.Page(context.Background(), "FooBot", s.URL+"/private/x", http.Header{"X-Robots-Tag": {"noindex"}}, nil)
	if err != nil || a != (page.Answer{Disallowed: true}) {
		t.Errorf("disallowed URL: %+v, %v", a, err)
	}
	if _, _, err := c.Page(context.Background(), "FooBot/1.0", s.URL+"/a", nil, nil); err == nil {
		t.Error("an agent that is no product token was accepted")
	}
	if _, err := tr.Page(&http.Response{}, nil); err == nil {
		t.Error("a response without a request was accepted")
	}
}
