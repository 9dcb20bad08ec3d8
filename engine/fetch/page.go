package fetch

import (
	"context"
	"errors"
	"mime"
	"net/http"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/engine/page"
)

// Page returns what a response says to the Transport's crawler
// (package engine/page): its X-Robots-Tag, TDMRep and Content-Usage
// header fields, the robots and agent meta tags of body when the response
// is HTML, and robots.txt's Content-Usage and Content-Signal lines for
// resp.Request.URL, in one answer. body is the response's body, as much
// as the crawler read of it (page.DefaultMaxHTMLBytes of it are read); it
// is read as HTML unless the response's Content-Type names another type.
// resp is a response that came through t, as for Usage: the site's rules
// are in the Client's cache, and nothing is fetched unless they expired.
// A request that robots.txt now disallows has an answer with Disallowed
// set, and no error.
func (t *Transport) Page(resp *http.Response, body []byte) (page.Answer, error) {
	return t.PageTDM(resp, body, nil)
}

// errNoPageRequest is Transport.Page's error for a response without its
// request.
var errNoPageRequest = errors.New("fetch: Transport.Page: the response has no request")

// Page returns what a page says to agent (package engine/page): the
// page's response header and body (read as HTML unless the header's
// Content-Type names another type), with robots.txt's Content-Usage and
// Content-Signal lines for pageURL, in one answer. A URL robots.txt
// disallows has an answer with Disallowed set. agent must be a product
// token, "" or "*", as for Allowed. A crawler that fetches through a
// Transport asks Transport.Page.
func (c *Client) Page(ctx context.Context, agent, pageURL string, header http.Header, body []byte) (page.Answer, Result, error) {
	return c.PageTDM(ctx, agent, pageURL, header, body, nil)
}

// agentTokens returns the product tokens of agent: none for "" and "*".
func agentTokens(agent string) []string {
	if agent == "" || agent == "*" {
		return nil
	}
	return []string{agent}
}

// pageInput returns what page.Read reads of the page of pageURL with m, a
// matcher of st's rules.
func (c *Client) pageInput(st *state, m *engine.Matcher, pageURL string, header http.Header, body []byte) page.Input {
	in := page.Input{Header: header, Robots: page.Robots{Usage: c.usageWith(st, m, pageURL, nil), Signals: m.Signals()}}
	if isHTML(header) {
		in.HTML = body
	}
	return in
}

// isHTML reports whether a response with header is read as HTML: its
// Content-Type is text/html or application/xhtml+xml, or it has none (a
// crawler that sniffs a type sets it first).
func isHTML(header http.Header) bool {
	ct := header.Get("Content-Type")
	if ct == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "text/html" || mt == "application/xhtml+xml")
}
