package engine_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

const responseBody = "User-agent: *\nDisallow: /private\n"

// answers is what a Robots decides for the two probe URLs: rules apply,
// everything allowed, or everything disallowed.
func answers(r *engine.Robots) string {
	return fmt.Sprint(r.Allowed("ExampleBot", "https://example.com/private/x"), r.Allowed("ExampleBot", "https://example.com/public"))
}

const (
	rulesApply  = "false true"
	allowAll    = "true true"
	disallowAll = "false false"
)

// TestRFC9309_FromResponse checks docs/SEMANTICS.md section 5.2 (RFC 9309
// sections 2.3.1.1 to 2.3.1.4) for each class of status.
func TestRFC9309_FromResponse(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   string
		why    string
	}{
		{200, rulesApply, "2.3.1.1: success"},
		{206, rulesApply, ""},
		{299, rulesApply, ""},
		{301, allowAll, "2.3.1.2: a redirect the caller did not follow: unavailable"},
		{304, allowAll, ""},
		{399, allowAll, ""},
		{400, allowAll, "2.3.1.3: unavailable"},
		{401, allowAll, "not Koster1996"},
		{403, allowAll, "not Koster1996"},
		{404, allowAll, ""},
		{410, allowAll, ""},
		{429, disallowAll, "Google: 429 is a server error"},
		{499, allowAll, ""},
		{500, disallowAll, "2.3.1.4: unreachable"},
		{503, disallowAll, ""},
		{599, disallowAll, ""},
		{100, disallowAll, "2.3.1.4: other undefined status codes are unreachable"},
		{199, disallowAll, ""},
		{600, disallowAll, ""},
		{999, disallowAll, ""},
		{0, disallowAll, ""},
		{-1, disallowAll, ""},
	} {
		for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google} {
			r := engine.FromResponse(tc.status, []byte(responseBody), engine.Options{Semantics: sem})
			if got := answers(r); got != tc.want {
				t.Errorf("%v: FromResponse(%d) decides %q, want %q (%s)", sem, tc.status, got, tc.want, tc.why)
			}
			if r.Semantics() != sem {
				t.Errorf("%v: FromResponse(%d) has semantics %v", sem, tc.status, r.Semantics())
			}
		}
	}
}

// TestKoster1996_FromResponse checks docs/SEMANTICS.md section 5.2 for
// Koster1996: 401 and 403 disallow everything (1996 draft section 3.1), the
// other statuses are read as in RFC9309.
func TestKoster1996_FromResponse(t *testing.T) {
	opts := engine.Options{Semantics: engine.Koster1996}
	for status, want := range map[int]string{200: rulesApply, 401: disallowAll, 403: disallowAll, 404: allowAll, 429: disallowAll, 503: disallowAll} {
		if got := answers(engine.FromResponse(status, []byte(responseBody), opts)); got != want {
			t.Errorf("Koster1996: FromResponse(%d) decides %q, want %q", status, got, want)
		}
	}
}

// TestRFC9309_FromResponseBodyLimit checks that only the first
// Options.MaxFileSize bytes of a 2xx body are read (docs/SEMANTICS.md
// section 1.3, RFC 9309 section 2.5).
func TestRFC9309_FromResponseBodyLimit(t *testing.T) {
	pad := strings.Repeat("# padding\n", engine.DefaultMaxFileSize/10)
	body := []byte("User-agent: *\n" + pad + "Disallow: /private\n")
	if got := answers(engine.FromResponse(200, body, engine.Options{})); got != allowAll {
		t.Errorf("rule past the limit: decides %q, want %q", got, allowAll)
	}
	if got := answers(engine.FromResponse(200, body, engine.Options{MaxFileSize: 2 * len(body)})); got != rulesApply {
		t.Errorf("rule within a raised limit: decides %q, want %q", got, rulesApply)
	}
}

// statusTransport answers every request with its status and body, so that
// engine/fetch can be asked about any status without a network.
type statusTransport struct {
	status int
	body   string
}

func (s statusTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: s.status,
		Status:     strconv.Itoa(s.status) + " " + http.StatusText(s.status),
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {"text/plain"}},
		Body:    io.NopCloser(strings.NewReader(s.body)),
		Request: req,
	}, nil
}

// TestFromResponse_MatchesFetch checks that FromResponse and engine/fetch
// give the same rules for every status from 100 to 999, in every semantics
// (a final 1xx, and a status from 600 up, are unreachable, as RFC 9309
// section 2.3.1.4 says).
func TestFromResponse_MatchesFetch(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
		opts := engine.Options{Semantics: sem}
		for status := 100; status <= 999; status++ {
			c := fetch.New(fetch.Options{
				Engine:     opts,
				HTTPClient: &http.Client{Transport: statusTransport{status, responseBody}},
				Now:        func() time.Time { return now },
			})
			res, err := c.Lookup(context.Background(), "https://example.com/page")
			if err != nil {
				t.Fatalf("%v %d: Lookup: %v", sem, status, err)
			}
			want := answers(res.Robots)
			if got := answers(engine.FromResponse(status, []byte(responseBody), opts)); got != want {
				t.Errorf("%v: FromResponse(%d) decides %q, engine/fetch %q (%s)", sem, status, got, want, res.Source)
			}
		}
	}
}

// A crawler that fetches robots.txt with its own HTTP client turns the answer
// into rules with FromResponse; when no answer came, everything is
// disallowed.
func ExampleFromResponse() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer site.Close()

	opts := engine.Options{}
	robots := engine.DisallowAll(opts)              // unreachable until an answer comes
	resp, err := http.Get(site.URL + "/robots.txt") // http.Get follows redirects
	if err == nil {
		body, err := io.ReadAll(io.LimitReader(resp.Body, engine.DefaultMaxFileSize))
		resp.Body.Close()
		if err == nil {
			robots = engine.FromResponse(resp.StatusCode, body, opts)
		}
	}
	fmt.Println(robots.Allowed("ExampleBot", site.URL+"/private/plans"))
	fmt.Println(robots.Allowed("ExampleBot", site.URL+"/about"))

	// Without a body: a 404 allows everything, a 503 disallows everything.
	for _, status := range []int{404, 503} {
		fmt.Println(status, engine.FromResponse(status, nil, opts).Allowed("ExampleBot", "https://example.com/"))
	}
	// Output:
	// false
	// true
	// 404 true
	// 503 false
}
