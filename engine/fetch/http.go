package fetch

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

// outcome classifies a fetch as docs/SEMANTICS.md section 5.2 does.
type outcome uint8

const (
	outcomeOK          outcome = iota // 2xx: parse the body
	outcomeUnavailable                // 4xx but 429, too many redirects: allow all
	outcomeForbidden                  // Koster1996 401 and 403: disallow all
	outcomeUnreachable                // 429, 5xx, network and transfer errors: disallow all (or a stale copy)
)

// response is what one fetch learnt, before the cache decides what to do with
// it.
type response struct {
	outcome   outcome
	body      []byte // outcomeOK only
	truncated bool
	status    int
	finalURL  string
	redirects int
	// maxAge is the freshness the server asked for (Cache-Control), valid
	// when hasMaxAge.
	maxAge    time.Duration
	hasMaxAge bool
	// retryAfter is the Retry-After delay of a 429 or 5xx, 0 when none.
	retryAfter time.Duration
	err        error
}

var (
	// errTooManyRedirects is returned by checkRedirect past the limit; the
	// fetch is then "unavailable".
	errTooManyRedirects = errors.New("too many redirects")
	// errRedirectScheme is returned by checkRedirect for a redirect to a
	// scheme other than http and https; the fetch is then "unavailable".
	errRedirectScheme = errors.New("redirect to a scheme other than http and https")
)

// drainLimit is the number of bytes of a non-2xx body read before it is
// closed: a short error page is read to its end so that the connection can be
// reused, a long one is cut (closing an unread body closes the connection).
const drainLimit = 4 << 10

// redirectsKey is the context key of the *int in which checkRedirect counts
// the redirects of one fetch.
type redirectsKey struct{}

// checkRedirect is the http.Client.CheckRedirect of every Client: it follows
// at most maxRedirects redirects, to http and https only, also to other
// hosts (docs/SEMANTICS.md section 5.2).
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > c.maxRedirects {
		return fmt.Errorf("%w (more than %d)", errTooManyRedirects, c.maxRedirects)
	}
	if s := req.URL.Scheme; s != "http" && s != "https" {
		return fmt.Errorf("%w: %s", errRedirectScheme, req.URL.Redacted())
	}
	if p, ok := req.Context().Value(redirectsKey{}).(*int); ok {
		*p = len(via)
	}
	return nil
}

// get fetches robotsURL and classifies the answer. ctx is detached from its
// caller's cancellation (other lookups may be waiting for this fetch) and
// bounded by Options.Timeout.
func (c *Client) get(ctx context.Context, robotsURL string) response {
	c.fetches.Add(1)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.timeout)
	defer cancel()
	var r response
	ctx = context.WithValue(ctx, redirectsKey{}, &r.redirects)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, robotsURL, nil)
	if err != nil {
		r.outcome, r.err = outcomeUnreachable, err
		return r
	}
	req.Header.Set("User-Agent", c.userAgent)
	resp, err := c.http.Do(req)
	if resp != nil {
		// With a CheckRedirect error, Do returns the last response (its
		// body already closed) as well as the error.
		r.status = resp.StatusCode
		r.finalURL = resp.Request.URL.String()
	}
	if err != nil {
		r.err = err
		r.outcome = outcomeUnreachable
		if errors.Is(err, errTooManyRedirects) || errors.Is(err, errRedirectScheme) {
			r.outcome = outcomeUnavailable
		}
		return r
	}
	defer resp.Body.Close()
	r.maxAge, r.hasMaxAge = maxAge(resp.Header)

	switch code := resp.StatusCode; {
	case 200 <= code && code <= 299:
		r.outcome = outcomeOK
		r.body, r.truncated, r.err = c.readBody(resp)
		if r.err != nil {
			r.outcome, r.body = outcomeUnreachable, nil
			r.err = fmt.Errorf("GET %s: reading body: %w", robotsURL, r.err)
		}
		return r
	case (code == 401 || code == 403) && c.engineOpts.Semantics == engine.Koster1996:
		r.outcome = outcomeForbidden
	case code == 429 || 500 <= code && code <= 599:
		r.outcome = outcomeUnreachable
		r.retryAfter = retryAfter(resp.Header, c.now())
		r.err = fmt.Errorf("GET %s: %s", robotsURL, resp.Status)
	case 400 <= code && code <= 499:
		r.outcome = outcomeUnavailable
	case 300 <= code && code <= 399: // not followed: no Location, 304, or past MaxRedirects
		r.outcome = outcomeUnavailable
		r.err = fmt.Errorf("GET %s: unexpected status %s", robotsURL, resp.Status)
	default: // a final 1xx, or a status no standard defines: unreachable (RFC 9309 2.3.1.4)
		r.outcome = outcomeUnreachable
		r.err = fmt.Errorf("GET %s: undefined status %s", robotsURL, resp.Status)
	}
	_, _ = io.CopyN(io.Discard, resp.Body, drainLimit)
	return r
}

// readBody reads at most the file size limit plus one byte (to know whether
// the file was truncated) of a 2xx body. The caller closes the body, which
// stops the transfer of the rest.
func (c *Client) readBody(resp *http.Response) (body []byte, truncated bool, err error) {
	var rd io.Reader = resp.Body
	if !resp.Uncompressed && strings.EqualFold(strings.TrimSpace(resp.Header.Get("Content-Encoding")), "gzip") {
		// The transport decodes gzip only when it asked for it itself; a
		// caller's transport with DisableCompression, or a server that
		// compresses unasked, lands here.
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, false, err
		}
		defer zr.Close()
		rd = zr
	}
	limit := int64(c.maxFileSize)
	body, err = io.ReadAll(io.LimitReader(rd, limit+1))
	if err != nil {
		return nil, false, err
	}
	return body, int64(len(body)) > limit, nil
}

// maxAge returns the freshness lifetime Cache-Control asks for: 0 for
// no-store or no-cache, else the first well-formed max-age (a value too large
// to represent is the largest Duration; Client caps it at MaxTTL). It reports
// false when there is neither, also when max-age is malformed.
func maxAge(h http.Header) (time.Duration, bool) {
	var d time.Duration
	found := false
	for _, v := range h.Values("Cache-Control") {
		for _, dir := range strings.Split(v, ",") {
			name, val, _ := strings.Cut(dir, "=")
			name = strings.TrimSpace(name)
			switch {
			case strings.EqualFold(name, "no-store"), strings.EqualFold(name, "no-cache"):
				return 0, true
			case strings.EqualFold(name, "max-age") && !found:
				secs, ok := parseSeconds(strings.Trim(strings.TrimSpace(val), `"`))
				if ok {
					d, found = secs, true
				}
			}
		}
	}
	return d, found
}

// parseSeconds parses a non-negative number of seconds (RFC 9111
// delta-seconds). A number too large for a Duration saturates.
func parseSeconds(s string) (time.Duration, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	const maxSecs = int64(1<<63-1) / int64(time.Second)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > maxSecs { // only digits: the error is a range error
		return time.Duration(1<<63 - 1), true
	}
	return time.Duration(n) * time.Second, true
}

// retryAfter returns the delay a Retry-After header asks for (seconds or an
// HTTP date), 0 when there is none or it is malformed.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if d, ok := parseSeconds(v); ok {
		return d
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
