// Package gen makes robots.txt bodies and URLs for benchmarks and tests,
// deterministically from a seed, so that every run measures the same input.
package gen

import (
	"fmt"
	"math/rand"
	"strings"
)

var words = []string{
	"api", "search", "admin", "login", "cart", "checkout", "user", "account", "static",
	"images", "img", "css", "js", "products", "category", "tag", "blog", "news", "archive",
	"print", "share", "feed", "rss", "wp-admin", "wp-content", "includes", "cgi-bin", "tmp",
	"private", "public", "assets", "media", "video", "download", "files", "docs", "help",
	"support", "en", "de", "fr", "ja", "es", "profile", "settings", "compare", "wishlist",
}

var exts = []string{".pdf", ".php", ".html", ".jpg", ".png", ".xml", ".json", ".gif", ".zip", ".asp"}

var params = []string{"sid", "session", "sort", "order", "page", "q", "filter", "ref", "utm_source", "lang", "print", "replytocom"}

// Robots returns a robots.txt with about n rules: a "*" group, and a few
// named groups, with literal paths, query patterns and (when wildcards is
// true) patterns using '*' and '$' as real sites write them.
func Robots(n int, seed int64, wildcards bool) []byte {
	r := rand.New(rand.NewSource(seed))
	var b strings.Builder
	b.WriteString("# generated robots.txt\n")
	groups := []string{"*", "Googlebot", "bingbot", "ExampleBot"}
	per := max(1, n/len(groups))
	written := 0
	for gi, g := range groups {
		if gi > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "User-agent: %s\n", g)
		if g == "*" {
			b.WriteString("Crawl-delay: 1\n")
		}
		count := per
		if gi == len(groups)-1 {
			count = n - written
		}
		for i := 0; i < count; i++ {
			kind := "Disallow"
			if r.Intn(5) == 0 {
				kind = "Allow"
			}
			fmt.Fprintf(&b, "%s: %s\n", kind, pattern(r, wildcards))
			written++
		}
	}
	b.WriteString("\nSitemap: https://www.example.com/sitemap.xml\n")
	return []byte(b.String())
}

func pattern(r *rand.Rand, wildcards bool) string {
	var b strings.Builder
	depth := 1 + r.Intn(3)
	for d := 0; d < depth; d++ {
		b.WriteString("/")
		b.WriteString(words[r.Intn(len(words))])
		if r.Intn(6) == 0 {
			fmt.Fprintf(&b, "-%d", r.Intn(100))
		}
	}
	if !wildcards {
		switch r.Intn(5) {
		case 0:
			b.WriteString("/")
		case 1:
			fmt.Fprintf(&b, "?%s=", params[r.Intn(len(params))])
		}
		return b.String()
	}
	switch r.Intn(8) {
	case 0:
		return "/*" + exts[r.Intn(len(exts))] + "$"
	case 1:
		return "/*?" + params[r.Intn(len(params))] + "="
	case 2:
		return b.String() + "/*" + exts[r.Intn(len(exts))]
	case 3:
		return "/*/" + words[r.Intn(len(words))] + "/"
	case 4:
		return b.String() + "$"
	case 5:
		return b.String() + "*&" + params[r.Intn(len(params))] + "=*"
	}
	return b.String() + "/"
}

// URLs returns n absolute URLs of 30 to 80 bytes, about half of them made
// from the rules of body (so that they reach deep into the automata) and
// the rest realistic paths with queries.
func URLs(body []byte, n int, seed int64) []string {
	r := rand.New(rand.NewSource(seed))
	var pats []string
	for _, line := range strings.Split(string(body), "\n") {
		if i := strings.IndexByte(line, ':'); i > 0 {
			k := strings.ToLower(line[:i])
			if k == "allow" || k == "disallow" {
				pats = append(pats, strings.TrimSpace(line[i+1:]))
			}
		}
	}
	out := make([]string, 0, n)
	for len(out) < n {
		var path string
		if len(pats) > 0 && r.Intn(2) == 0 {
			p := strings.TrimSuffix(pats[r.Intn(len(pats))], "$")
			p = strings.ReplaceAll(p, "*", "/"+words[r.Intn(len(words))])
			path = p + randomTail(r)
		} else {
			path = pattern(r, false) + randomTail(r)
		}
		u := "https://www.example.com" + path
		for len(u) < 30 {
			u += "/" + words[r.Intn(len(words))]
		}
		if len(u) > 80 {
			u = u[:80]
		}
		out = append(out, u)
	}
	return out
}

func randomTail(r *rand.Rand) string {
	switch r.Intn(4) {
	case 0:
		return fmt.Sprintf("/%s-%d%s", words[r.Intn(len(words))], r.Intn(100000), exts[r.Intn(len(exts))])
	case 1:
		return fmt.Sprintf("?%s=%d&%s=%s", params[r.Intn(len(params))], r.Intn(1000), params[r.Intn(len(params))], words[r.Intn(len(words))])
	case 2:
		return "/" + words[r.Intn(len(words))] + "/"
	}
	return ""
}
