package fetch_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

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

	// One client for the whole crawler; the User-Agent header names it,
	// and Agents its product token: the client keeps only its groups.
	client := fetch.New(fetch.Options{UserAgent: "ExampleBot/1.0 (+https://bot.example/about)", Agents: []string{"ExampleBot"}})
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

// sharedMap is a Store in memory, shared by the Clients of one process: a
// sketch of the interface (store/redisstore and store/boltstore are the
// real ones). It ignores TTLs and holds no leases.
type sharedMap struct {
	mu      sync.Mutex
	records map[string][]byte
}

func (m *sharedMap) Load(ctx context.Context, key string, max int) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.records[key]; len(r) > max {
		return nil, fmt.Errorf("%w: %s", fetch.ErrRecordTooLarge, key)
	}
	return bytes.Clone(m.records[key]), nil
}

func (m *sharedMap) Save(ctx context.Context, key string, record []byte, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.records[key] = bytes.Clone(record)
	return nil
}

func (m *sharedMap) Lease(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	return true, nil
}

func (m *sharedMap) Release(ctx context.Context, key, token string) error { return nil }

// Two Clients (two crawler nodes, or one node before and after a restart)
// share a Store: the robots.txt that one fetched, the other takes from the
// Store.
func ExampleStore() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer site.Close()
	store := &sharedMap{records: map[string][]byte{}}

	for _, node := range []string{"node-1", "node-2"} {
		client := fetch.New(fetch.Options{Store: store})
		ok, res, _ := client.Allowed(context.Background(), "FooBot", site.URL+"/private/report")
		st := client.Stats()
		fmt.Printf("%s: allowed %v, robots.txt %s, %d fetched, %d from the store\n", node, ok, res.Source, st.Fetches, st.StoreHits)
	}
	// Output:
	// node-1: allowed false, robots.txt fetched, 1 fetched, 0 from the store
	// node-2: allowed false, robots.txt cached, 0 fetched, 1 from the store
}

// A crawler's Transport: its product token decides which groups apply, its
// User-Agent header goes with every request, the robots.txt fetch
// included, and a disallowed request is never sent.
func ExampleTransport_crawler() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println("the server sees", r.URL.Path, "from", r.UserAgent())
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: FooBot\nDisallow: /private/\n")
		}
	}))
	defer site.Close()

	t := &fetch.Transport{
		Client:     fetch.New(fetch.Options{Agents: []string{"FooBot"}}), // the shared cache, of FooBot's groups only
		Agent:      "FooBot",                                             // the product token that robots.txt files name
		UserAgent:  "FooBot/1.0 (+https://foo.example/bot)",              // the header sent, for robots.txt and pages
		CrawlDelay: true,                                                 // pace each host by its crawl-delay
	}
	hc := &http.Client{Transport: t}
	for _, path := range []string{"/", "/private/x"} {
		resp, err := hc.Get(site.URL + path)
		var d *fetch.DisallowedError
		if errors.As(err, &d) { // d.Decision: which rule; d.Result: where the rules came from
			fmt.Println(path, "not sent:", d.Decision.Rule.Kind, d.Decision.Rule.Value, "(line", d.Decision.Rule.Line, "of", d.Result.Source, "robots.txt)")
			continue
		}
		if err != nil {
			fmt.Println(path, err)
			continue
		}
		resp.Body.Close()
	}
	// Output:
	// the server sees /robots.txt from FooBot/1.0 (+https://foo.example/bot)
	// the server sees / from FooBot/1.0 (+https://foo.example/bot)
	// /private/x not sent: disallow /private/ (line 2 of cached robots.txt)
}

// A crawler that bounds each request by a time-out waits for the request's
// crawl-delay turn first, with Wait, and starts the clock after it: every
// page arrives, however many wait at once. (Sent with the time-out alone,
// the pages whose turn came after it would fail with a
// *fetch.CrawlDelayError.)
func ExampleTransport_Wait() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nDisallow: /private/\nCrawl-delay: 0.1\n")
			return
		}
		io.WriteString(w, "a page")
	}))
	defer site.Close()

	t := &fetch.Transport{Client: fetch.New(fetch.Options{}), Agent: "ExampleBot", CrawlDelay: true}
	hc := &http.Client{Transport: t, Timeout: 150 * time.Millisecond} // one turn and a half
	crawl := context.Background()                                     // the crawl's: no deadline

	var wg sync.WaitGroup
	got := make([]string, 5)
	for i, path := range []string{"/a", "/b", "/c", "/d", "/private/e"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(crawl, http.MethodGet, site.URL+path, nil)
			turn, err := t.Wait(req) // the robots.txt decision and the turn, before the clock
			if err != nil {
				got[i] = path + ": " + err.Error()[:23]
				return
			}
			resp, err := hc.Do(req.WithContext(turn.Context(req.Context()))) // the clock starts: it goes at once
			if err != nil {
				got[i] = path + ": " + err.Error()
				return
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			got[i] = path + ": " + string(body)
		}()
	}
	wg.Wait()
	fmt.Println(strings.Join(got, "\n"))
	// Output:
	// /a: a page
	// /b: a page
	// /c: a page
	// /d: a page
	// /private/e: robots.txt disallows it
}

// A crawler that gathers content for AI fetches through a Transport, then
// asks for each response's usage preferences: robots.txt's content-usage
// lines for its URL combined with its Content-Usage header, the most
// restrictive per category. The longest content-usage path that matches
// decides every category, also one its statement does not name: search is
// unknown under /drafts/.
func ExampleTransport_Usage() {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=y, search=y\nContent-Usage: /drafts/ train-ai=n\n")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/photos/1" {
			w.Header().Set("Content-Usage", "train-ai=n") // this page says more than robots.txt
		}
		io.WriteString(w, "hello")
	})
	site := httptest.NewServer(mux)
	defer site.Close()

	t := &fetch.Transport{Client: fetch.New(fetch.Options{}), Agent: "ExampleBot"}
	hc := &http.Client{Transport: t}
	for _, path := range []string{"/", "/drafts/a", "/photos/1"} {
		resp, err := hc.Get(site.URL + path)
		if err != nil {
			fmt.Println(path, err)
			continue
		}
		resp.Body.Close()
		u, err := t.Usage(resp)
		fmt.Printf("%-10s %v %v\n", path, u, err)
	}
	// Output:
	// /          train-ai=y search=y <nil>
	// /drafts/a  train-ai=n search=unknown <nil>
	// /photos/1  train-ai=n search=y <nil>
}

// A crawler with an HTTP stack of its own asks the Client: before
// fetching a page (header nil: robots.txt's preferences alone), and after,
// with the page's response header.
func ExampleClient_Usage() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\nContent-Usage: /blog/ train-ai=y\n")
	}))
	defer site.Close()

	c := fetch.New(fetch.Options{})
	ctx := context.Background()
	before, _, err := c.Usage(ctx, "ExampleBot", site.URL+"/blog/post", nil)
	fmt.Println(before, err)
	after, _, err := c.Usage(ctx, "ExampleBot", site.URL+"/blog/post", http.Header{"Content-Usage": {"train-ai=n, search=y"}})
	fmt.Println(after, err)
	private, _, err := c.Usage(ctx, "ExampleBot", site.URL+"/private/x", nil)
	fmt.Println(private, err)
	// Output:
	// train-ai=y search=unknown <nil>
	// train-ai=n search=y <nil>
	// - <nil>
}
