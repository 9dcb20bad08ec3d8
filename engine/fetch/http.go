package fetch

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seed-275a9bd5/robotstxt/internal/semantics"
)

// outcome classifies a fetch as docs/SEMANTICS.md section 5.2 does.
type outcome uint8

const (
	outcomeOK          outcome = iota // 2xx: parse the body
	outcomeUnavailable                // 4xx but 429, a redirect not followed: allow all
	outcomeForbidden                  // Koster1996 401 and 403: disallow all
	outcomeUnreachable                // 429, 5xx, 1xx, undefined, network and transfer errors: disallow all (or a stale copy)
	outcomeNotModified                // 304 to a conditional request: the copy in hand is renewed
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
	// etag and lastModified are the validators of a 2xx or 304, "" when
	// none or longer than maxValidatorLength.
	etag, lastModified string
	// conditional reports whether the last request carried the copy's
	// validators.
	conditional bool
}

// renewed returns the validators of a copy that the 304 r renewed, whose
// own were etag and lastModified: r's when it sent any (RFC 9111 section
// 4.3.4: a 304's validators replace the stored ones), else the copy's.
func (r *response) renewed(etag, lastModified string) (string, string) {
	if r.etag != "" || r.lastModified != "" {
		return r.etag, r.lastModified
	}
	return etag, lastModified
}

var (
	// errTooManyRedirects is the error of a fetch that met a redirect past
	// MaxRedirects; it is then "unavailable".
	errTooManyRedirects = errors.New("too many redirects")
	// errRedirectScheme is the error of a redirect to a scheme other than
	// http and https; the fetch is then "unavailable".
	errRedirectScheme = errors.New("redirect to a scheme other than http and https")
	// errRedirectLocation is the error of a redirect whose Location cannot
	// be followed: it cannot be parsed, or names no host. The fetch is then
	// "unavailable".
	errRedirectLocation = errors.New("redirect that cannot be followed")
	// errContentEncoding is the error of a body whose content coding cannot
	// be decoded; the fetch is then "unreachable".
	errContentEncoding = errors.New("content coding that cannot be decoded")
)

// drainLimit is the number of bytes of a non-2xx body read before it is
// closed: a short error page is read to its end so that the connection can be
// reused, a long one is cut (closing an unread body closes the connection).
const drainLimit = 4 << 10

// maxValidatorLength bounds the ETag and Last-Modified values an entry
// keeps for a conditional fetch: an ETag is a quoted hash or version (tens
// of bytes) and a Last-Modified an HTTP date (29 bytes), while a header
// can be 256 KiB. A longer value is not kept (cutting it would make a
// validator that matches nothing): the next fetch is unconditional.
const maxValidatorLength = 256

// maxContentCodings bounds the codings of a Content-Encoding list that are
// decoded: each costs a decoder of about 45 KiB (a 32 KiB window and its
// tables) for the length of the fetch, and a misconfigured server and proxy
// apply two at most. More is a transfer error.
const maxContentCodings = 3

// clientFetchKey is the context key that marks a Client's own fetches, so
// that a Transport lets them through unchecked (see Transport).
type clientFetchKey struct{}

// get fetches robotsURL, following redirects itself, and classifies the
// answer. ctx is detached from its caller's cancellation (other lookups may
// be waiting for this fetch), bounded by Options.Timeout and ended by Close.
// With cond, the request for the URL cond was fetched from carries cond's
// validators (RFC 9110 section 13.1), and a 304 to it renews cond.
func (c *Client) get(ctx context.Context, robotsURL string, cond *state) response {
	c.fetches.Add(1)
	ctx, stop := c.detach(ctx, c.timeout)
	defer stop()
	ctx = context.WithValue(ctx, clientFetchKey{}, true)
	var r response
	u, err := url.Parse(robotsURL)
	for err == nil {
		var resp *http.Response
		var hop *state // the copy this request is conditional on
		if r.conditional = cond != nil && u.String() == cond.res.FinalURL; r.conditional {
			hop = cond
		}
		if resp, err = c.send(ctx, u, hop); err != nil {
			break
		}
		next := c.answer(ctx, &r, u, resp)
		if next == nil {
			return r
		}
		u = next
		r.redirects++
	}
	if e := c.ended(ctx); e != nil {
		err = e
	}
	where := robotsURL
	if u != nil {
		where = u.Redacted()
	}
	r.outcome, r.status, r.finalURL = outcomeUnreachable, 0, ""
	r.err = keepError("GET "+where+": ", err)
	return r
}

// ended returns why the fetch's context ended (the Timeout passed, or the
// Client was closed), nil while it has not. A fetch that fails then fails
// for that reason: what closing its connection made of the request is noise.
func (c *Client) ended(ctx context.Context) error {
	switch {
	case ctx.Err() == nil:
		return nil
	case c.closed.Load():
		return ErrClosed
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%w: the fetch took longer than its Timeout (%v)", ctx.Err(), c.timeout)
	}
	return ctx.Err()
}

// send makes one GET request for u through the Client's transport, with the
// crawler's User-Agent (userAgentFor), cond's validators when cond is not
// nil and, when Options.HTTPClient has a Jar, its cookies.
func (c *Client) send(ctx context.Context, u *url.URL, cond *state) (*http.Response, error) {
	if err := ctx.Err(); err != nil { // a transport may not look
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", c.userAgentFor(ctx))
	if cond != nil {
		if cond.etag != "" {
			req.Header.Set("If-None-Match", cond.etag)
		}
		if cond.lastModified != "" {
			req.Header.Set("If-Modified-Since", cond.lastModified)
		}
	}
	if c.jar != nil {
		for _, ck := range c.jar.Cookies(req.URL) {
			req.AddCookie(ck)
		}
	}
	resp, err := c.transport.RoundTrip(req)
	if err != nil {
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		return nil, err
	}
	if resp == nil {
		return nil, errors.New("the transport returned no response and no error")
	}
	if resp.Body == nil {
		resp.Body = http.NoBody
	}
	if c.jar != nil {
		if cks := resp.Cookies(); len(cks) > 0 {
			c.jar.SetCookies(req.URL, cks)
		}
	}
	return resp, nil
}

// answer classifies resp, the answer to a request for u, into r and closes
// its body; it returns the URL to request next when resp is a redirect that
// is followed, nil when r is final. The body is also closed if ctx ends
// while it is read, and a 1xx reply's body (after a 101 and an upgrade, the
// raw connection) is never read.
func (c *Client) answer(ctx context.Context, r *response, u *url.URL, resp *http.Response) *url.URL {
	closeBody := sync.OnceFunc(func() { resp.Body.Close() })
	defer closeBody()
	defer context.AfterFunc(ctx, closeBody)()
	r.status = resp.StatusCode
	r.finalURL = cutText(u.String(), MaxURLLength)
	r.maxAge, r.hasMaxAge = maxAge(resp.Header)
	what := func(format string, args ...any) error {
		return keepError("GET "+u.Redacted()+": "+cutText(resp.Status, MaxErrorLength)+": ", fmt.Errorf(format, args...))
	}

	code := resp.StatusCode
	if code == http.StatusNotModified && r.conditional { // the copy asked about is unchanged
		r.outcome = outcomeNotModified
		r.etag, r.lastModified = validators(resp.Header)
		_, _ = io.CopyN(io.Discard, resp.Body, drainLimit)
		return nil
	}
	switch semantics.ClassifyStatus(c.engineOpts.Semantics, code) {
	case semantics.StatusFile:
		r.outcome = outcomeOK
		body, truncated, err := c.readBody(resp)
		if err != nil {
			if e := c.ended(ctx); e != nil {
				err = e
			}
			r.outcome = outcomeUnreachable
			r.err = keepError("GET "+u.Redacted()+": reading body: ", err)
			return nil
		}
		r.body, r.truncated = body, truncated
		r.etag, r.lastModified = validators(resp.Header)
		return nil
	case semantics.StatusRedirect:
		next, err := c.redirect(u, resp, r.redirects)
		if err != nil {
			r.outcome, r.err = outcomeUnavailable, keepError("GET "+u.Redacted()+": "+cutText(resp.Status, MaxErrorLength)+": ", err)
			return nil
		}
		_, _ = io.CopyN(io.Discard, resp.Body, drainLimit)
		return next
	case semantics.StatusForbidden:
		r.outcome = outcomeForbidden
	case semantics.StatusUnavailable:
		r.outcome = outcomeUnavailable
		if 300 <= code && code <= 399 { // 300, 304, 305, 306 and unknown 3xx: no redirect to follow
			r.err = what("a 3xx status that is no redirect")
		}
	default: // StatusUnreachable
		r.outcome = outcomeUnreachable
		switch {
		case 100 <= code && code <= 199: // a final 1xx: its body (after a 101, the raw connection) is never read
			r.err = what("a final informational status (%s)", "RFC 9309 2.3.1.4: unreachable")
			return nil
		case code < 100 || code > 599:
			r.err = what("an undefined status")
		default: // 429 and 5xx, which may say when to retry
			r.retryAfter = retryAfter(resp.Header, c.now())
			r.err = keepError("GET "+u.Redacted()+": ", errors.New(cutText(resp.Status, MaxErrorLength)))
		}
	}
	_, _ = io.CopyN(io.Discard, resp.Body, drainLimit)
	return nil
}

// validators returns the ETag and Last-Modified of h that an entry keeps:
// each when present and at most maxValidatorLength bytes.
func validators(h http.Header) (etag, lastModified string) {
	keep := func(v string) string {
		if v = strings.TrimSpace(v); len(v) > maxValidatorLength {
			return ""
		}
		return strings.Clone(v)
	}
	return keep(h.Get("ETag")), keep(h.Get("Last-Modified"))
}

// redirect returns the URL that resp, a redirect status answering a request
// for u, leads to, after followed redirects; or why it is not followed (docs/SEMANTICS.md
// section 5.2): no Location, past MaxRedirects, a Location that cannot be
// parsed or names no host, a scheme other than http and https.
func (c *Client) redirect(u *url.URL, resp *http.Response, followed int) (*url.URL, error) {
	loc := resp.Header.Get("Location")
	if loc == "" {
		return nil, fmt.Errorf("%w: no Location", errRedirectLocation)
	}
	next, err := u.Parse(loc)
	if err != nil {
		return nil, fmt.Errorf("%w: Location %q: %v", errRedirectLocation, cutText(loc, 100), unwrapURLError(err))
	}
	if followed >= c.maxRedirects {
		return nil, fmt.Errorf("%w (more than %d)", errTooManyRedirects, c.maxRedirects)
	}
	if s := next.Scheme; s != "http" && s != "https" {
		return nil, fmt.Errorf("%w: %s", errRedirectScheme, cutText(next.Redacted(), 100))
	}
	if next.Host == "" {
		return nil, fmt.Errorf("%w: Location %q names no host", errRedirectLocation, cutText(loc, 100))
	}
	next.Fragment, next.RawFragment = "", ""
	return next, nil
}

// readBody reads at most the file size limit plus one byte (to know whether
// the file was truncated) of a 2xx body, after undoing its content codings.
// The caller closes the body, which stops the transfer of the rest.
func (c *Client) readBody(resp *http.Response) (body []byte, truncated bool, err error) {
	rd, err := decoded(resp)
	if err != nil {
		return nil, false, err
	}
	limit := int64(c.maxFileSize)
	body, err = io.ReadAll(io.LimitReader(rd, limit+1))
	if err != nil {
		return nil, false, err
	}
	return body, int64(len(body)) > limit, nil
}

// decoded returns resp's body with its Content-Encoding undone (RFC 9110
// section 8.4.1): gzip, x-gzip (the same) and deflate, in any case, in the
// reverse of the order the list gives; identity is nothing to undo. The
// transport has already undone a gzip it asked for itself (and removed the
// header then); a caller's transport with DisableCompression, or a server
// that encodes unasked or under another name, lands here. Decoding happens
// as the body is read, so the caller's limit bounds the decoded bytes (a
// compressed bomb is cut). It fails for an unknown coding and for more than
// maxContentCodings.
func decoded(resp *http.Response) (io.Reader, error) {
	var codings []string
	for _, v := range resp.Header.Values("Content-Encoding") {
		for _, name := range strings.Split(v, ",") {
			name = strings.TrimSpace(name)
			if name == "" || strings.EqualFold(name, "identity") {
				continue
			}
			if len(codings) == maxContentCodings {
				return nil, fmt.Errorf("%w: more than %d in %q", errContentEncoding, maxContentCodings, cutText(v, 100))
			}
			codings = append(codings, name)
		}
	}
	var rd io.Reader = resp.Body
	for i := len(codings) - 1; i >= 0; i-- {
		switch name := codings[i]; {
		case strings.EqualFold(name, "gzip"), strings.EqualFold(name, "x-gzip"):
			zr, err := gzip.NewReader(rd)
			if err != nil {
				return nil, fmt.Errorf("%w: gzip: %v", errContentEncoding, err)
			}
			rd = zr
		case strings.EqualFold(name, "deflate"):
			zr, err := inflater(rd)
			if err != nil {
				return nil, fmt.Errorf("%w: deflate: %v", errContentEncoding, err)
			}
			rd = zr
		default:
			return nil, fmt.Errorf("%w: %q", errContentEncoding, cutText(name, 100))
		}
	}
	return rd, nil
}

// inflater returns a reader of rd's deflate coding: a zlib stream (RFC 9110
// section 8.4.1.2), or the bare DEFLATE stream (RFC 1951) that some servers
// send under that name, told apart by the zlib header's checksum.
func inflater(rd io.Reader) (io.Reader, error) {
	br := bufio.NewReader(rd)
	head, _ := br.Peek(2)
	if len(head) == 2 && head[0]&0x0f == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
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
