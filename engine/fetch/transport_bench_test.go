package fetch

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkTransport_RoundTrip measures what Transport adds to a request on a
// cache hit: Base is an in-memory RoundTripper that returns a fixed response,
// so the numbers are the Transport's overhead alone.
//
//   - allowed: the check (URL to string, cache hit, decision).
//   - allowed-pacing-on: allowed with CrawlDelay set, on a file without a
//     crawl-delay (the scan for one).
//   - disallowed: a refused request (the *DisallowedError).
//   - tokens, chain: allowed, for a crawler with several tokens (Tokens),
//     merged or chained.
//   - parallel: allowed, from every CPU at once.
func BenchmarkTransport_RoundTrip(b *testing.B) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private\nAllow: /private/public\n\nUser-agent: ExampleBot\nDisallow: /search\nDisallow: /*.pdf$\n")
	}))
	defer s.Close()
	c := New(Options{})
	resp := &http.Response{StatusCode: http.StatusOK, Body: http.NoBody}
	base := roundTripFunc(func(*http.Request) (*http.Response, error) { return resp, nil })

	inputs := []struct {
		name, path string
		crawlDelay bool
		allowed    bool
		tokens     []string
		chain      bool
	}{
		{"allowed", "/docs/2024/report.html?page=2", false, true, nil, false},
		{"allowed-pacing-on", "/docs/2024/report.html?page=2", true, true, nil, false},
		{"disallowed", "/search/report.html", false, false, nil, false},
		{"tokens", "/docs/2024/report.html?page=2", false, true, []string{"ExampleBot-News", "ExampleBot"}, false},
		{"chain", "/docs/2024/report.html?page=2", false, true, []string{"ExampleBot-News", "ExampleBot"}, true},
	}
	for _, in := range inputs {
		tr := &Transport{Client: c, Agent: "ExampleBot", Base: base, CrawlDelay: in.crawlDelay}
		if in.tokens != nil {
			tr = &Transport{Client: c, Tokens: in.tokens, Chain: in.chain, Base: base}
		}
		req, err := http.NewRequest(http.MethodGet, s.URL+in.path, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tr.RoundTrip(req); (err == nil) != in.allowed { // fills the cache
			b.Fatalf("%s: %v", in.name, err)
		}
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := tr.RoundTrip(req); (err == nil) != in.allowed {
					b.Fatal(err)
				}
			}
		})
	}
	tr := &Transport{Client: c, Agent: "ExampleBot", Base: base}
	req, _ := http.NewRequest(http.MethodGet, s.URL+inputs[0].path, nil)
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := tr.RoundTrip(req); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}
