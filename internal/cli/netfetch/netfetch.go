// Package netfetch is the fetch command's HTTP access method (a
// cli.Fetcher), with engine/fetch and net/http: cmd/robotstxt sets it.
package netfetch

import (
	"context"
	"net/http"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
	"github.com/seed-275a9bd5/robotstxt/internal/cli"
)

// Fetcher gets robots.txt files with engine/fetch's client over its own
// transport (fetch.NewHTTPTransport: response headers bounded).
type Fetcher struct{}

// RobotsURL is fetch.RobotsURL.
func (Fetcher) RobotsURL(url string) (string, error) { return fetch.RobotsURL(url) }

// Lookup gets the robots.txt of site with a new client (and so an empty
// cache).
func (Fetcher) Lookup(ctx context.Context, site string, o cli.FetchOptions) (cli.FetchResult, error) {
	tr := fetch.NewHTTPTransport()
	defer tr.CloseIdleConnections()
	client := fetch.New(fetch.Options{
		Engine:     o.Engine,
		UserAgent:  o.UserAgent,
		Timeout:    o.Timeout,
		HTTPClient: &http.Client{Transport: tr},
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
	}, nil
}
