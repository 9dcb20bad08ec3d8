package robotscolly

import (
	"context"
	"errors"
	"net/http"

	"github.com/gocolly/colly/v2"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
	"github.com/seed-275a9bd5/robotstxt/engine/page"
)

// Page returns what the page of a colly response says to t's crawler
// (fetch.Transport.Page, package engine/page): its X-Robots-Tag, TDMRep
// and Content-Usage header fields, its robots and agent meta tags when it
// is HTML, and robots.txt's Content-Usage and Content-Signal lines for its
// URL, in one answer. t is the Transport the collector obeys (Obey); ctx
// bounds a robots.txt fetch if the site's rules expired meanwhile (the
// collector's Context, say). In an OnResponse callback:
//
//	a, err := robotscolly.Page(c.Context, t, r)
//	if err == nil && !a.NoIndex { ... }
func Page(ctx context.Context, t *fetch.Transport, r *colly.Response) (page.Answer, error) {
	resp, err := response(ctx, r)
	if err != nil {
		return page.Answer{}, err
	}
	return t.Page(resp, r.Body)
}

// Usage returns the usage preferences (Content-Usage) of a colly
// response's content for t's crawler (fetch.Transport.Usage): robots.txt's
// for its URL combined with its Content-Usage header, without naming the
// agent again.
func Usage(ctx context.Context, t *fetch.Transport, r *colly.Response) (engine.Usage, error) {
	resp, err := response(ctx, r)
	if err != nil {
		return engine.Usage{}, err
	}
	return t.Usage(resp)
}

// errNoResponse is the error of a colly response without its request.
var errNoResponse = errors.New("robotscolly: the response has no request URL")

// response returns r as the http.Response the Transport's methods read.
func response(ctx context.Context, r *colly.Response) (*http.Response, error) {
	if r == nil || r.Request == nil || r.Request.URL == nil {
		return nil, errNoResponse
	}
	if ctx == nil {
		ctx = context.Background()
	}
	req := (&http.Request{Method: r.Request.Method, URL: r.Request.URL, Header: http.Header{}}).WithContext(ctx)
	resp := &http.Response{StatusCode: r.StatusCode, Request: req, Header: http.Header{}}
	if r.Headers != nil {
		resp.Header = *r.Headers
	}
	return resp, nil
}
