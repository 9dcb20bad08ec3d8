// Package netfetch is the fetch command's HTTP access method (a
// cli.Fetcher), with engine/fetch and net/http. Only the robotstxt-fetch
// program, and tests, link it: see cli.Fetcher.
package netfetch

import (
	"context"
	"io"
	"net/http"
	"sync"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
	"github.com/seed-275a9bd5/robotstxt/internal/cli"
)

// Fetcher gets robots.txt files with engine/fetch's client over its own
// transport (fetch.NewHTTPTransport: response headers bounded).
type Fetcher struct{}

// RobotsURL is fetch.RobotsURL.
func (Fetcher) RobotsURL(url string) (string, error) { return fetch.RobotsURL(url) }

// Lookup gets the robots.txt of site with a new client (and so an empty
// cache), keeping the start of the body it reads.
func (Fetcher) Lookup(ctx context.Context, site string, o cli.FetchOptions) (cli.FetchResult, error) {
	body := &bodyCopy{}
	tr := fetch.NewHTTPTransport()
	defer tr.CloseIdleConnections()
	client := fetch.New(fetch.Options{
		Engine:     o.Engine,
		UserAgent:  o.UserAgent,
		Timeout:    o.Timeout,
		HTTPClient: &http.Client{Transport: body.transport(tr)},
	})
	defer client.Close()
	res, err := client.Lookup(ctx, site)
	if err != nil {
		return cli.FetchResult{}, err
	}
	return cli.FetchResult{
		RobotsURL:   res.RobotsURL,
		FinalURL:    res.FinalURL,
		Redirects:   res.Redirects,
		Status:      res.Status,
		Source:      res.Source.String(),
		Fetched:     res.Source == fetch.Fetched,
		Unreachable: res.Source == fetch.UnreachableDefault || res.Source == fetch.Stale,
		FetchedAt:   res.Fetched,
		Expires:     res.Expires,
		Size:        res.Size,
		Truncated:   res.Truncated,
		Err:         res.Err,
		Robots:      res.Robots,
		Body:        body.Bytes(),
	}, nil
}

// bodyCopy keeps the start of the last response body that the fetch client
// read (as many bytes as a robots.txt is read, and one more), so that the
// command's warnings can look at the bytes, as for a local file.
type bodyCopy struct {
	mu  sync.Mutex
	buf []byte
}

// transport returns rt with every response body copied into c.
func (c *bodyCopy) transport(rt http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		if err == nil && resp.Body != nil {
			c.mu.Lock()
			c.buf = c.buf[:0]
			c.mu.Unlock()
			resp.Body = copyingBody{resp.Body, c}
		}
		return resp, err
	})
}

// Bytes returns the copy of the last body.
func (c *bodyCopy) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// copyingBody is a response body whose bytes are also copied into c.
type copyingBody struct {
	io.ReadCloser
	c *bodyCopy
}

func (b copyingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.c.mu.Lock()
	if room := compile.DefaultMaxFileSize + 1 - len(b.c.buf); room > 0 {
		b.c.buf = append(b.c.buf, p[:min(n, room)]...)
	}
	b.c.mu.Unlock()
	return n, err
}
