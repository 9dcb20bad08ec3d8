package fetch

import (
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine/page"
)

// TDMRep 3.3 and 4: an origin's tdmrep.json is fetched once and cached,
// its first matching rule governs a URL, and a page's header and meta
// override it.
func TestTDMRep_FetchedAndCachedPerOrigin(t *testing.T) {
	var fetches atomic.Int32
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private\n")
		case "/.well-known/tdmrep.json":
			fetches.Add(1)
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `[{"location": "/news/*", "tdm-reservation": 1, "tdm-policy": "https://example.com/policy.json"}, {"location": "/", "tdm-reservation": 0}]`)
		default:
			w.Header().Set("Content-Type", "text/html")
			if r.URL.Path == "/news/open" {
				w.Header().Set("tdm-reservation", "0")
			}
			_, _ = io.WriteString(w, "<p>")
		}
	})
	c := New(Options{})
	defer c.Close()
	reps := NewTDMReps(c)
	tr := &Transport{Client: c, Agent: "FooBot"}
	hc := &http.Client{Transport: tr}
	for _, tc := range []struct {
		path string
		want page.TDM
	}{
		{"/news/a", page.TDM{Reservation: page.TDMReserved, Policy: "https://example.com/policy.json", From: page.Origin{Source: page.SourceTDMFile, Line: 1}}},
		{"/about", page.TDM{Reservation: page.TDMNotReserved, From: page.Origin{Source: page.SourceTDMFile, Line: 2}}},
		{"/news/open", page.TDM{Reservation: page.TDMNotReserved, From: page.Origin{Source: page.SourceTDMHeader, Line: 1}}}, // the header overrides the file
	} {
		resp, err := hc.Get(s.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		a, err := tr.PageTDM(resp, body, reps)
		if err != nil || a.TDM != tc.want {
			t.Errorf("Transport.PageTDM(%s): TDM %+v, %v; want %+v", tc.path, a.TDM, err, tc.want)
		}
		ca, _, err := c.PageTDM(context.Background(), "FooBot", s.URL+tc.path, resp.Header, body, reps)
		if err != nil || ca != a {
			t.Errorf("Client.PageTDM(%s) = %+v, %v; want the Transport's", tc.path, ca, err)
		}
	}
	// Many at once: still one fetch.
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := reps.Rule(context.Background(), s.URL+"/x", "FooBot"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := fetches.Load(); n != 1 {
		t.Errorf("tdmrep.json fetched %d times, want once", n)
	}
	// A disallowed URL: no answer, and nothing fetched for it.
	a, _, err := c.PageTDM(context.Background(), "FooBot", s.URL+"/private/x", nil, nil, reps)
	if err != nil || !a.Disallowed {
		t.Errorf("disallowed: %+v, %v", a, err)
	}
}

// An origin without a tdmrep.json (404), or with one that is no JSON
// array, has no rule.
func TestTDMRep_NoFile(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/tdmrep.json":
			if r.URL.Query().Get("x") == "" {
				_, _ = io.WriteString(w, `{"location": "/", "tdm-reservation": 1}`)
				return
			}
			http.NotFound(w, r)
		default:
			http.NotFound(w, r)
		}
	})
	c := New(Options{})
	defer c.Close()
	reps := NewTDMReps(c)
	if got, err := reps.Rule(context.Background(), s.URL+"/a", ""); err != nil || got != (page.TDM{}) {
		t.Errorf("an object, not an array: %+v, %v", got, err)
	}
	if _, err := reps.Rule(context.Background(), "ftp://example.com/a", ""); err == nil {
		t.Error("an ftp URL was accepted")
	}
	var nilReps *TDMReps
	if _, err := nilReps.Rule(context.Background(), s.URL, ""); err == nil {
		t.Error("a nil TDMReps was accepted")
	}
}
