package fetch

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

// usageSite serves a robots.txt with content-usage lines and pages whose
// Content-Usage header is the query's "cu" parameter.
func usageSite(t *testing.T) *server {
	return newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private\nContent-Usage: train-ai=y, search=y\nContent-Usage: /news/ train-ai=n\n")
			return
		}
		if cu := r.URL.Query().Get("cu"); cu != "" {
			w.Header().Set("Content-Usage", cu)
		}
		_, _ = io.WriteString(w, "ok")
	})
}

// draft-ietf-aipref-attach-05 section 2 (the Content-Usage header) with
// draft-ietf-aipref-vocab-08 section 5.1: a response's header and the
// robots.txt rule for its URL combine per category, the most restrictive
// winning, through the Transport and through the Client for crawlers with
// their own HTTP stack.
func TestAIPref_TransportAndClientUsage(t *testing.T) {
	s := usageSite(t)
	c := New(Options{})
	defer c.Close()
	tr := &Transport{Client: c, Agent: "FooBot"}
	hc := &http.Client{Transport: tr}
	for _, tc := range []struct{ path, want string }{
		{"/a", "train-ai=y search=y"},
		{"/a?cu=search%3Dn", "train-ai=y search=n"},
		{"/news/x", "train-ai=n search=unknown"},                      // the longest pattern decides, and says nothing of search
		{"/news/x?cu=train-ai%3Dy,search%3Dy", "train-ai=n search=y"}, // robots.txt's n wins
		{"/a?cu=Search%3Dn", "train-ai=y search=y"},                   // not a Dictionary: states nothing
	} {
		resp, err := hc.Get(s.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		u, err := tr.Usage(resp)
		if err != nil || u.String() != tc.want {
			t.Errorf("Transport.Usage(%s) = %q, %v; want %q", tc.path, u, err, tc.want)
		}
		cu, _, err := c.Usage(context.Background(), "FooBot", s.URL+tc.path, resp.Header)
		if err != nil || cu != u {
			t.Errorf("Client.Usage(%s) = %q, %v; want the Transport's %q", tc.path, cu, err, u)
		}
	}
	// A URL robots.txt disallows has no preferences, whatever a header says.
	u, _, err := c.Usage(context.Background(), "FooBot", s.URL+"/private/x", http.Header{"Content-Usage": {"train-ai=y"}})
	if err != nil || u.TrainAI != engine.UsageNotApplicable {
		t.Errorf("disallowed URL: %+v, %v", u, err)
	}
	if _, _, err := c.Usage(context.Background(), "FooBot/1.0", s.URL+"/a", nil); err == nil {
		t.Error("an agent that is no product token was accepted")
	}
	if _, err := tr.Usage(&http.Response{}); err == nil {
		t.Error("a response without a request was accepted")
	}
}
