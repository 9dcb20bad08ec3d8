package main

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
	"github.com/seed-275a9bd5/robotstxt/internal/reference"
)

// The tests call the library through C (boundary.go) and compare every
// answer with the Go API's for the same input: the boundary must change
// nothing but the spelling.

// usageKeys are the categories compared through robotstxt_usage_of: the
// vocabulary's two, one of a later vocabulary, and bytes no key has.
var usageKeys = []string{"train-ai", "search", "train-genai", "\xff\x00"}

// compare checks every call of one handle against the Go API, for one
// body, tokens, semantics and URLs.
func compare(t *testing.T, body []byte, tokens []string, sem int, urls [][]byte) {
	t.Helper()
	opts := engine.Options{Semantics: engine.Semantics(sem)}
	want := engine.Compile(body, opts).Matcher(tokens...)
	h, rc := abiCompile(body, tokens, sem, 0, 0)
	if rc != 0 {
		t.Fatalf("robotstxt_compile = %d (%s), want 0\n%s", rc, abiStrerror(rc), reproducer(body, tokens, sem, nil))
	}
	defer func() {
		if rc := abiFree(h); rc != 0 {
			t.Errorf("robotstxt_free = %d", rc)
		}
	}()
	d, ok := want.Extensions().CrawlDelay()
	if ns, present, rc := abiCrawlDelay(h); rc != 0 || ns != int64(d) || present != ok {
		t.Errorf("robotstxt_crawl_delay = %d %v %d, want %d %v\n%s", ns, present, rc, d, ok, reproducer(body, tokens, sem, nil))
	}
	for _, u := range urls {
		got, rc := abiDecide(h, u)
		if exp := asABI(want.Decide(string(u))); rc != 0 || got != exp {
			t.Errorf("robotstxt_decide = %+v (rc %d), want %+v\n%s", got, rc, exp, reproducer(body, tokens, sem, u))
		}
		us, rc := abiUsage(h, u)
		w := want.Usage(string(u))
		if exp := [4]int32{int32(w.TrainAI), int32(w.Search), int32(w.TrainAILine), int32(w.SearchLine)}; rc != 0 || us != exp {
			t.Errorf("robotstxt_usage = %v (rc %d), want %v\n%s", us, rc, exp, reproducer(body, tokens, sem, u))
		}
		for _, k := range usageKeys {
			p, l, rc := abiUsageOf(h, u, []byte(k))
			wp, wl := want.UsageOf(string(u), k)
			if rc != 0 || p != int32(wp) || l != int32(wl) {
				t.Errorf("robotstxt_usage_of(%q) = %d %d (rc %d), want %d %d\n%s", k, p, l, rc, wp, wl, reproducer(body, tokens, sem, u))
			}
		}
		if len(tokens) == 1 {
			got, rc := abiDecideOnce(body, []byte(tokens[0]), u, sem)
			if exp := asABI(want.Decide(string(u))); rc != 0 || got != exp {
				t.Errorf("robotstxt_decide_once = %+v (rc %d), want %+v\n%s", got, rc, exp, reproducer(body, tokens, sem, u))
			}
		}
	}
}

func asABI(d engine.Decision) abiDecision {
	b := func(v bool) int32 {
		if v {
			return 1
		}
		return 0
	}
	return abiDecision{b(d.Allowed), int32(d.Rule.Line), int32(d.Rule.Kind), int32(d.Reason), b(d.NotURL)}
}

// reproducer is a failure's input, pasteable into a test.
func reproducer(body []byte, tokens []string, sem int, url []byte) string {
	if len(body) > 2000 {
		return fmt.Sprintf("body (%d bytes) %q..., tokens %q, semantics %d, url %q", len(body), body[:200], tokens, sem, url)
	}
	return fmt.Sprintf("body %q, tokens %q, semantics %d, url %q", body, tokens, sem, url)
}

func TestConformanceThroughABI(t *testing.T) {
	cases, err := reference.LoadConformance("../testdata/conformance.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		for sem := range 3 {
			compare(t, c.Body(), c.Agents, sem, [][]byte{[]byte(c.URL)})
		}
	}
	if n := handles.len(); n != 0 {
		t.Errorf("%d handles live after every one was freed", n)
	}
}

// TestCorpusThroughABI decides every corpus file's real URLs (the first
// files in -short mode) for Googlebot through the ABI and the Go API.
func TestCorpusThroughABI(t *testing.T) {
	files := corpus.TestFiles(t, 300)
	n := 0
	for _, f := range files {
		body, urls, err := f.Read()
		if err != nil {
			t.Fatal(err)
		}
		us := [][]byte{[]byte("https://example.com/")}
		for _, u := range urls {
			us = append(us, []byte(u))
		}
		compare(t, body, []string{"Googlebot"}, int(n%3), us)
		n++
	}
	t.Logf("%d files", n)
}

func TestErrors(t *testing.T) {
	h, rc := abiCompile([]byte("User-agent: *\nDisallow: /"), nil, 0, 0, 0)
	if rc != 0 || h == 0 {
		t.Fatalf("compile = %d, %d", h, rc)
	}
	want := []int{
		1, 1, 1, 1, 1, 3, // compile
		1, 1, 1, 1, 1, 1, // decide, usage, usage_of
		1, 1, // crawl_delay
		1, 1, 1, 1, 1, // decide_once
		1, 1, // product_tokens
		1, // a length over PTRDIFF_MAX with NULL
	}
	got := abiRaw(h)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("codes\n got %v\nwant %v", got, want)
	}
	if rc := abiFree(h); rc != 0 {
		t.Fatalf("free = %d", rc)
	}
	for _, bad := range []uint64{h, 0, h + 1000} { // freed, never a handle, never made
		if rc := abiFree(bad); rc != 2 {
			t.Errorf("free(%d) = %d, want ROBOTSTXT_EHANDLE", bad, rc)
		}
		if _, rc := abiDecide(bad, []byte("/")); rc != 2 {
			t.Errorf("decide(%d) = %d, want ROBOTSTXT_EHANDLE", bad, rc)
		}
		if _, rc := abiUsage(bad, []byte("/")); rc != 2 {
			t.Errorf("usage(%d) = %d, want ROBOTSTXT_EHANDLE", bad, rc)
		}
		if _, _, rc := abiUsageOf(bad, []byte("/"), []byte("search")); rc != 2 {
			t.Errorf("usage_of(%d) = %d, want ROBOTSTXT_EHANDLE", bad, rc)
		}
		if _, _, rc := abiCrawlDelay(bad); rc != 2 {
			t.Errorf("crawl_delay(%d) = %d, want ROBOTSTXT_EHANDLE", bad, rc)
		}
	}
	for code := range 7 {
		if s := abiStrerror(code); s == "" || (code <= 5) == strings.HasPrefix(s, "unknown error") {
			t.Errorf("strerror(%d) = %q", code, s)
		}
	}
	// 64 tokens are taken, 65 are not (abiRaw).
	toks := make([]string, 64)
	for i := range toks {
		toks[i] = fmt.Sprintf("bot%c", 'a'+i%26)
	}
	if h, rc := abiCompile(nil, toks, 0, 0, 0); rc != 0 {
		t.Errorf("64 tokens: %d", rc)
	} else {
		abiFree(h)
	}
}

func TestProductTokens(t *testing.T) {
	for _, header := range []string{
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Scrapy/2.8.0 (+https://scrapy.org)",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0 Safari/537.36",
		"", "\x00bot\xff", strings.Repeat("xbot ", 1000),
	} {
		want := ""
		for _, tok := range engine.ProductTokens(header) {
			want += tok + "\n"
		}
		got, n, rc := abiProductTokens([]byte(header), len(header)+8)
		if rc != 0 || got != want || n != len(want) {
			t.Errorf("product_tokens(%q) = %q, %d, %d; want %q", header, got, n, rc, want)
		}
		if len(want) > 0 {
			if got, n, rc := abiProductTokens([]byte(header), len(want)-1); rc != 4 || n != len(want) || got != "" {
				t.Errorf("product_tokens(%q) into %d bytes = %q, %d, %d; want ROBOTSTXT_ESPACE and %d", header, len(want)-1, got, n, rc, len(want))
			}
		}
	}
}

// TestHugeInputs: a body of 40 MB (past the default size limit and the
// largest a caller may ask), a URL of 4 MB, NULs and invalid UTF-8
// everywhere, the same answers as the Go API.
func TestHugeInputs(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("User-agent: *\x00junk\nDisallow: /a\xff\n")
	for b.Len() < 40<<20 {
		b.WriteString("Disallow: /x*y*z*\xc3\n")
	}
	b.WriteString("Allow: /a\n") // past the size limit: ignored
	body := b.Bytes()
	url := append([]byte("https://example.com/a\xff"), bytes.Repeat([]byte("x*y\x00"), 1<<20)...)
	compare(t, body, []string{"\x00", "Googlebot"}, 0, [][]byte{url, []byte("/a\xff"), []byte("/a")})
	compare(t, body, []string{"Googlebot"}, 1, [][]byte{url, []byte("/a\xff")})
	// A larger max_file_size reads the last line.
	opts := engine.Options{MaxFileSize: 64 << 20}
	want := asABI(engine.Compile(body, opts).Matcher("bot").Decide("/a"))
	h, rc := abiCompile(body, []string{"bot"}, 0, 64<<20, 0)
	if rc != 0 {
		t.Fatal(rc)
	}
	defer abiFree(h)
	if got, _ := abiDecide(h, []byte("/a")); got != want || got.Allowed != 1 {
		t.Errorf("max_file_size 64 MiB: %+v, want %+v (allowed by the last line)", got, want)
	}
}

// TestConcurrent decides on one handle from many goroutines (threads, in
// C's terms) while others compile and free their own: go test -race
// checks the registry.
func TestConcurrent(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /*.pdf$\nAllow: /p\nCrawl-delay: 2.5\n")
	h, rc := abiCompile(body, []string{"bot"}, 0, 0, 0)
	if rc != 0 {
		t.Fatal(rc)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				u := []byte(fmt.Sprintf("/public/%d/%d.pdf", g, i))
				if d, rc := abiDecide(h, u); rc != 0 || d.Allowed != 0 || d.Line != 2 {
					t.Errorf("%s: %+v %d", u, d, rc)
					return
				}
				if g%2 == 0 {
					h2, _ := abiCompile(body, []string{"bot"}, g%3, 0, 0)
					if ns, ok, rc := abiCrawlDelay(h2); rc != 0 || !ok || ns != 2500e6 {
						t.Errorf("crawl-delay %d %v %d", ns, ok, rc)
					}
					if rc := abiFree(h2); rc != 0 {
						t.Errorf("free %d", rc)
					}
				}
			}
		}()
	}
	wg.Wait()
	if rc := abiFree(h); rc != 0 {
		t.Fatal(rc)
	}
}

// FuzzBoundary sends arbitrary bytes through every call and compares the
// answers with the Go API's: the fuzzed body, URL and agent (alone, as a
// token list with "Googlebot", and through decide_once) in the fuzzed
// semantics, and the agent as a User-Agent header for product_tokens.
func FuzzBoundary(f *testing.F) {
	cases, err := reference.LoadConformance("../testdata/conformance.json")
	if err != nil {
		f.Fatal(err)
	}
	for i, c := range cases {
		if i%4 == 0 {
			f.Add(c.Body(), []byte(c.URL), []byte(c.Agents[0]), uint8(i))
		}
	}
	f.Add([]byte("User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*b\nContent-Usage: train-ai=n\nCrawl-delay: 10"), []byte("/aaaaaaaaaaaaaaaaaaaaaaaaaaaa"), []byte("Mozilla/5.0 (compatible; FooBot/1.0)"), uint8(0))
	f.Add([]byte("\xef\xbb\xbfUser-agent: foo\x00bar\nDisallow: /\xff%7e\n"), []byte("/\xff~\x00"), []byte("foo\x00"), uint8(1))
	f.Fuzz(func(t *testing.T, body, url, agent []byte, sem uint8) {
		if len(body) > 8192 || len(url) > 1024 || len(agent) > 256 {
			return
		}
		s := int(sem % 3)
		compare(t, body, []string{string(agent)}, s, [][]byte{url, []byte("/robots.txt"), []byte("https://example.com/index.html")})
		compare(t, body, []string{string(agent), "Googlebot"}, s, [][]byte{url})
		compare(t, body, nil, s, [][]byte{url})
		want := ""
		for _, tok := range engine.ProductTokens(string(agent)) {
			want += tok + "\n"
		}
		if got, _, rc := abiProductTokens(agent, len(agent)+8); rc != 0 || got != want {
			t.Errorf("product_tokens(%q) = %q %d, want %q", agent, got, rc, want)
		}
	})
}
