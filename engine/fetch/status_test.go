package fetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
)

// Every case below is one fault (or non-fault) of docs/SEMANTICS.md section 5.2,
// run against a real HTTP server on loopback.

var (
	rulesApply  = map[string]bool{"/private/x": false, "/public": true}
	allowAll    = map[string]bool{"/private/x": true, "/public": true}
	disallowAll = map[string]bool{"/private/x": false, "/public": false}
)

// TestRFC9309_Status checks docs/SEMANTICS.md section 5.2 (RFC 9309 section
// 2.3.1): each status class.
func TestRFC9309_Status(t *testing.T) {
	tests := []struct {
		status int
		sem    engine.Semantics
		want   Source
		rules  map[string]bool
	}{
		{200, engine.RFC9309, Fetched, rulesApply},
		{203, engine.RFC9309, Fetched, rulesApply},
		{204, engine.RFC9309, Fetched, allowAll}, // no body: an empty file
		{206, engine.RFC9309, Fetched, rulesApply},
		{300, engine.RFC9309, UnavailableDefault, allowAll}, // 3xx without Location is not followed
		{304, engine.RFC9309, UnavailableDefault, allowAll},
		{400, engine.RFC9309, UnavailableDefault, allowAll},
		{401, engine.RFC9309, UnavailableDefault, allowAll},
		{403, engine.RFC9309, UnavailableDefault, allowAll},
		{401, engine.Google, UnavailableDefault, allowAll},
		{403, engine.Google, UnavailableDefault, allowAll},
		{401, engine.Koster1996, ForbiddenDefault, disallowAll},
		{403, engine.Koster1996, ForbiddenDefault, disallowAll},
		{404, engine.RFC9309, UnavailableDefault, allowAll},
		{404, engine.Koster1996, UnavailableDefault, allowAll},
		{410, engine.RFC9309, UnavailableDefault, allowAll},
		{451, engine.RFC9309, UnavailableDefault, allowAll},
		{429, engine.RFC9309, UnreachableDefault, disallowAll},
		{500, engine.RFC9309, UnreachableDefault, disallowAll},
		{502, engine.RFC9309, UnreachableDefault, disallowAll},
		{503, engine.RFC9309, UnreachableDefault, disallowAll},
		{503, engine.Koster1996, UnreachableDefault, disallowAll},
		{599, engine.RFC9309, UnreachableDefault, disallowAll},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d_%v", tt.status, tt.sem), func(t *testing.T) {
			s := newServer(t, serveRobots(tt.status, robotsBody))
			c := New(Options{Engine: engine.Options{Semantics: tt.sem}})
			res := lookup(t, c, s.URL+"/page")
			wantSource(t, res, tt.want)
			wantAllowed(t, res, tt.rules)
			if res.Status != tt.status {
				t.Errorf("Status = %d, want %d", res.Status, tt.status)
			}
			if res.RobotsURL != s.URL+"/robots.txt" {
				t.Errorf("RobotsURL = %q, want %q", res.RobotsURL, s.URL+"/robots.txt")
			}
			if (tt.want == UnreachableDefault || tt.status/100 == 3) != (res.Err != nil) {
				t.Errorf("Err = %v", res.Err)
			}
			if res.Hit {
				t.Errorf("Hit on the first lookup")
			}
		})
	}
}

// chainServer serves /robots.txt as the start of a chain of hops redirects
// with the given status, ending at /end, which serves robotsBody.
func chainServer(t *testing.T, hops, status int) *server {
	return newServer(t, func(w http.ResponseWriter, r *http.Request) {
		n := 0
		switch {
		case r.URL.Path == "/robots.txt":
		case r.URL.Path == "/end":
			_, _ = io.WriteString(w, robotsBody)
			return
		case strings.HasPrefix(r.URL.Path, "/hop"):
			n, _ = strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop"))
		default:
			http.NotFound(w, r)
			return
		}
		next := "/hop" + strconv.Itoa(n+1)
		if n+1 == hops {
			next = "/end"
		}
		http.Redirect(w, r, next, status)
	})
}

// TestRFC9309_Redirects checks docs/SEMANTICS.md section 5.2 (RFC 9309 section
// 2.3.1.2): at least five redirects are followed, more are "unavailable".
func TestRFC9309_Redirects(t *testing.T) {
	for _, status := range []int{301, 302, 303, 307, 308} {
		for hops := 1; hops <= 6; hops++ {
			t.Run(fmt.Sprintf("%d_x%d", status, hops), func(t *testing.T) {
				s := chainServer(t, hops, status)
				c := New(Options{})
				res := lookup(t, c, s.URL+"/")
				if hops <= DefaultMaxRedirects {
					wantSource(t, res, Fetched)
					wantAllowed(t, res, rulesApply)
					if res.Redirects != hops || res.Status != 200 || res.FinalURL != s.URL+"/end" {
						t.Errorf("Redirects, Status, FinalURL = %d, %d, %q", res.Redirects, res.Status, res.FinalURL)
					}
				} else {
					wantSource(t, res, UnavailableDefault)
					wantAllowed(t, res, allowAll)
					if !errors.Is(res.Err, errTooManyRedirects) || res.Status != status {
						t.Errorf("Err, Status = %v, %d", res.Err, res.Status)
					}
				}
				if got := s.requests.Load(); got != int64(min(hops+1, DefaultMaxRedirects+1)) {
					t.Errorf("server saw %d requests", got)
				}
				// The result is cached under the original robots.txt URL.
				if res := lookup(t, c, s.URL+"/other"); !res.Hit || res.RobotsURL != s.URL+"/robots.txt" {
					t.Errorf("second lookup: Hit %v, RobotsURL %q", res.Hit, res.RobotsURL)
				}
			})
		}
	}
}

func TestRedirectLimitOption(t *testing.T) {
	s := chainServer(t, 2, 301)
	res := lookup(t, New(Options{MaxRedirects: 1}), s.URL+"/")
	wantSource(t, res, UnavailableDefault)
	res = lookup(t, New(Options{MaxRedirects: -1}), s.URL+"/")
	wantSource(t, res, UnavailableDefault)
	if res.Status != 301 {
		t.Errorf("Status = %d, want 301", res.Status)
	}
}

func TestRFC9309_RedirectLoop(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "/loop", http.StatusFound)
		} else {
			http.Redirect(w, r, "/robots.txt", http.StatusFound)
		}
	})
	res := lookup(t, New(Options{}), s.URL+"/")
	wantSource(t, res, UnavailableDefault)
	wantAllowed(t, res, allowAll)
	if got := s.requests.Load(); got != DefaultMaxRedirects+1 {
		t.Errorf("server saw %d requests, want %d", got, DefaultMaxRedirects+1)
	}
}

// TestRFC9309_RedirectCrossHost checks that a redirect to another host is
// followed and its result applies to the original host only.
func TestRFC9309_RedirectCrossHost(t *testing.T) {
	b := newServer(t, serveRobots(200, robotsBody))
	a := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL+"/robots.txt", http.StatusMovedPermanently)
	})
	c := New(Options{})
	res := lookup(t, c, a.URL+"/page")
	wantSource(t, res, Fetched)
	wantAllowed(t, res, rulesApply)
	if res.RobotsURL != a.URL+"/robots.txt" || res.FinalURL != b.URL+"/robots.txt" || res.Redirects != 1 {
		t.Errorf("RobotsURL, FinalURL, Redirects = %q, %q, %d", res.RobotsURL, res.FinalURL, res.Redirects)
	}
	wantSource(t, lookup(t, c, a.URL+"/other"), Cached)
	// b's own robots.txt is a separate entry: fetched again.
	wantSource(t, lookup(t, c, b.URL+"/page"), Fetched)
	if a.requests.Load() != 1 || b.requests.Load() != 2 {
		t.Errorf("requests: a %d, b %d; want 1, 2", a.requests.Load(), b.requests.Load())
	}
}

func TestRedirectToErrors(t *testing.T) {
	for _, tt := range []struct {
		status int
		want   Source
	}{{404, UnavailableDefault}, {503, UnreachableDefault}} {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				http.Redirect(w, r, "/moved", http.StatusMovedPermanently)
				return
			}
			w.WriteHeader(tt.status)
		})
		res := lookup(t, New(Options{}), s.URL+"/")
		wantSource(t, res, tt.want)
		if res.Status != tt.status || res.Redirects != 1 {
			t.Errorf("Status, Redirects = %d, %d", res.Status, res.Redirects)
		}
	}
	// A redirect to another scheme is not followed: unavailable.
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://example.com/robots.txt", http.StatusMovedPermanently)
	})
	res := lookup(t, New(Options{}), s.URL+"/")
	wantSource(t, res, UnavailableDefault)
	if !errors.Is(res.Err, errRedirectScheme) {
		t.Errorf("Err = %v", res.Err)
	}
}

func TestBody_Empty(t *testing.T) {
	s := newServer(t, serveRobots(200, ""))
	res := lookup(t, New(Options{}), s.URL+"/")
	wantSource(t, res, Fetched)
	wantAllowed(t, res, allowAll)
	if res.Size != 0 || res.Truncated {
		t.Errorf("Size, Truncated = %d, %v", res.Size, res.Truncated)
	}
}

// TestRFC9309_BodyLimit checks docs/SEMANTICS.md section 5.2 (RFC 9309 section
// 2.5): only the first 500 KiB are read, and the transfer stops there.
//
// The socket buffers of both ends are made small (64 KiB), so that what the
// server manages to write is close to what the client read: with the
// kernel's defaults, loopback buffers absorb several MiB.
func TestRFC9309_BodyLimit(t *testing.T) {
	const total = 10 << 20
	const sockBuf = 64 << 10
	var written atomic.Int64
	done := make(chan struct{})
	s := &server{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		w.Header().Set("Content-Length", strconv.Itoa(total))
		n, _ := io.WriteString(w, robotsBody)
		written.Add(int64(n))
		line := []byte("# filler filler filler filler filler filler filler filler filler\n")
		chunk := bytes.Repeat(line, 16<<10/len(line))
		for written.Load()+int64(len(chunk)) < total {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return // the client closed the connection
			}
		}
		n, _ = io.WriteString(w, "Disallow: /late\n")
		written.Add(int64(n))
	}))
	s.Config.ConnState = func(c net.Conn, st http.ConnState) {
		if st == http.StateNew {
			_ = c.(*net.TCPConn).SetWriteBuffer(sockBuf)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		c, err := d.DialContext(ctx, network, addr)
		if err == nil {
			_ = c.(*net.TCPConn).SetReadBuffer(sockBuf)
		}
		return c, err
	}}

	res := lookup(t, New(Options{HTTPClient: &http.Client{Transport: tr}}), s.URL+"/")
	wantSource(t, res, Fetched)
	wantAllowed(t, res, map[string]bool{"/private/x": false, "/late": true, "/public": true})
	if !res.Truncated || res.Size != compile.DefaultMaxFileSize {
		t.Errorf("Size, Truncated = %d, %v", res.Size, res.Truncated)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler is still writing: the client did not close the body")
	}
	// What the server wrote is what the client read plus what the socket
	// buffers and the HTTP layers held; the rest of the 10 MiB was never
	// sent.
	w := written.Load()
	t.Logf("server wrote %d bytes of %d (the client read %d)", w, total, res.Size)
	if w > 1<<20 {
		t.Errorf("server wrote %d bytes of %d: the client did not stop reading", w, total)
	}
}

// TestBodyLimit_DefaultBuffers is TestRFC9309_BodyLimit with the default
// client and kernel buffers: the transfer still stops long before the end.
func TestBodyLimit_DefaultBuffers(t *testing.T) {
	const total = 10 << 20
	var written atomic.Int64
	done := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		chunk := bytes.Repeat([]byte("# filler\n"), 16<<10/10)
		for written.Load()+int64(len(chunk)) <= total {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	res := lookup(t, New(Options{}), s.URL+"/")
	wantSource(t, res, Fetched)
	if !res.Truncated {
		t.Errorf("Truncated = false")
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler is still writing: the client did not close the body")
	}
	if w := written.Load(); w >= total {
		t.Errorf("server wrote all %d bytes", w)
	} else {
		t.Logf("server wrote %d bytes of %d", w, total)
	}
}

func TestBody_HTML(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<!DOCTYPE html>\n<html><head><title>Not here</title></head>\n<body><p>Disallow: /private</p></body></html>\n")
	})
	res := lookup(t, New(Options{}), s.URL+"/")
	wantSource(t, res, Fetched)
	wantAllowed(t, res, allowAll)
}

func TestBody_Binary(t *testing.T) {
	body := make([]byte, 64<<10)
	rand.New(rand.NewSource(1)).Read(body)
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(body)
	})
	res := lookup(t, New(Options{}), s.URL+"/")
	wantSource(t, res, Fetched)
	if res.Size != len(body) {
		t.Errorf("Size = %d, want %d", res.Size, len(body))
	}
	res.Allowed("ExampleBot", "/x") // decides without panicking
}

func gzipped(t *testing.T, s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, _ = io.WriteString(zw, s)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestBody_Gzip checks a gzip-encoded body, both when the transport asked
// for it (and decodes it) and when the server sends it unasked.
func TestBody_Gzip(t *testing.T) {
	z := gzipped(t, robotsBody)
	var asked atomic.Bool
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		asked.Store(strings.Contains(r.Header.Get("Accept-Encoding"), "gzip"))
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(z)
	})
	res := lookup(t, New(Options{}), s.URL+"/")
	wantSource(t, res, Fetched)
	wantAllowed(t, res, rulesApply)
	if !asked.Load() || res.Size != len(robotsBody) {
		t.Errorf("Accept-Encoding gzip sent %v, Size %d", asked.Load(), res.Size)
	}

	unasked := New(Options{HTTPClient: &http.Client{Transport: &http.Transport{DisableCompression: true}}})
	res = lookup(t, unasked, s.URL+"/")
	wantSource(t, res, Fetched)
	wantAllowed(t, res, rulesApply)
	if asked.Load() {
		t.Errorf("Accept-Encoding gzip sent with DisableCompression")
	}

	// A corrupt gzip stream is a transfer error.
	bad := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(z[:len(z)/2])
	})
	wantSource(t, lookup(t, New(Options{}), bad.URL+"/"), UnreachableDefault)
}

// stallServer returns a server whose handler runs before, then blocks until
// the test ends or the client goes away.
func stallServer(t *testing.T, before func(w http.ResponseWriter)) *server {
	release := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		before(w)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(func() { close(release) }) // runs before s.Close
	return s
}

func TestFault_StallBeforeHeaders(t *testing.T) {
	s := stallServer(t, func(http.ResponseWriter) {})
	res := lookup(t, New(Options{Timeout: 100 * time.Millisecond}), s.URL+"/")
	wantSource(t, res, UnreachableDefault)
	wantAllowed(t, res, disallowAll)
	if res.Status != 0 || !errors.Is(res.Err, context.DeadlineExceeded) {
		t.Errorf("Status, Err = %d, %v", res.Status, res.Err)
	}
}

func TestFault_StallMidBody(t *testing.T) {
	s := stallServer(t, func(w http.ResponseWriter) {
		w.Header().Set("Content-Length", "1000")
		_, _ = io.WriteString(w, "User-agent: *\n")
		w.(http.Flusher).Flush()
	})
	res := lookup(t, New(Options{Timeout: 100 * time.Millisecond}), s.URL+"/")
	wantSource(t, res, UnreachableDefault)
	wantAllowed(t, res, disallowAll)
	if res.Status != 200 || !errors.Is(res.Err, context.DeadlineExceeded) {
		t.Errorf("Status, Err = %d, %v", res.Status, res.Err)
	}
}

// resetConn hijacks the connection of w and resets it (RST, not FIN).
func resetConn(t *testing.T, w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		t.Error(err)
		return
	}
	_ = conn.(*net.TCPConn).SetLinger(0)
	conn.Close()
}

func TestFault_ConnectionReset(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { resetConn(t, w) })
	res := lookup(t, New(Options{}), s.URL+"/")
	wantSource(t, res, UnreachableDefault)
	wantAllowed(t, res, disallowAll)
	if res.Status != 0 || res.Err == nil {
		t.Errorf("Status, Err = %d, %v", res.Status, res.Err)
	}
}

func TestFault_ResetMidBody(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		_, _ = io.WriteString(w, robotsBody)
		w.(http.Flusher).Flush()
		resetConn(t, w)
	})
	res := lookup(t, New(Options{}), s.URL+"/")
	wantSource(t, res, UnreachableDefault)
	wantAllowed(t, res, disallowAll)
	if res.Status != 200 || res.Err == nil {
		t.Errorf("Status, Err = %d, %v", res.Status, res.Err)
	}
}

func TestFault_ConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	res := lookup(t, New(Options{}), "http://"+addr+"/")
	wantSource(t, res, UnreachableDefault)
	wantAllowed(t, res, disallowAll)
	if res.Status != 0 || res.Err == nil {
		t.Errorf("Status, Err = %d, %v", res.Status, res.Err)
	}
}

func TestFault_DNS(t *testing.T) {
	dns := nxdomainServer(t)
	c := New(Options{HTTPClient: &http.Client{Transport: dnsTransport(dns)}})
	res := lookup(t, c, "http://no-such-host.test/")
	wantSource(t, res, UnreachableDefault)
	wantAllowed(t, res, disallowAll)
	var de *net.DNSError
	if res.Status != 0 || !errors.As(res.Err, &de) {
		t.Errorf("Status, Err = %d, %v", res.Status, res.Err)
	}
}

func TestFault_TLS(t *testing.T) {
	s := newTLSServer(t, serveRobots(200, robotsBody))
	// The default client does not trust the test certificate.
	res := lookup(t, New(Options{}), s.URL+"/")
	wantSource(t, res, UnreachableDefault)
	wantAllowed(t, res, disallowAll)
	var ve *tls.CertificateVerificationError
	if res.Status != 0 || !errors.As(res.Err, &ve) {
		t.Errorf("Status, Err = %d, %v", res.Status, res.Err)
	}
	// A client that trusts it fetches the file.
	res = lookup(t, New(Options{HTTPClient: s.Client()}), s.URL+"/")
	wantSource(t, res, Fetched)
	wantAllowed(t, res, rulesApply)
}

func TestUserAgentHeader(t *testing.T) {
	var got atomic.Value
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { got.Store(r.UserAgent()) })
	lookup(t, New(Options{}), s.URL+"/")
	if got.Load() != DefaultUserAgent {
		t.Errorf("User-Agent = %q, want %q", got.Load(), DefaultUserAgent)
	}
	lookup(t, New(Options{UserAgent: "ExampleBot/1.0 (+https://bot.example)"}), s.URL+"/")
	if got.Load() != "ExampleBot/1.0 (+https://bot.example)" {
		t.Errorf("User-Agent = %q", got.Load())
	}
}

func TestLookup_Errors(t *testing.T) {
	c := New(Options{})
	for _, u := range []string{"/relative", "ftp://example.com/x", "mailto:x@example.com", "http://"} {
		res, err := c.Lookup(context.Background(), u)
		if err == nil || res.Source != NoSource || res.Robots != nil {
			t.Errorf("Lookup(%q) = %v, %v; want an error", u, res.Source, err)
		}
		ok, _, err := c.Allowed(context.Background(), "ExampleBot", u)
		if ok || err == nil {
			t.Errorf("Allowed(%q) = %v, %v; want false and an error", u, ok, err)
		}
	}
	if c.Stats().Fetches != 0 {
		t.Errorf("a bad URL caused a fetch")
	}
}

// encode returns s encoded with the content codings of list, applied in
// order ("deflate" is zlib, RFC 9110 section 8.4.1.2; "raw-deflate" is the
// bare DEFLATE stream some servers send as deflate).
func encode(t *testing.T, s []byte, list ...string) []byte {
	t.Helper()
	for _, coding := range list {
		var b bytes.Buffer
		var w io.WriteCloser
		switch coding {
		case "gzip", "x-gzip":
			w = gzip.NewWriter(&b)
		case "deflate":
			w = zlib.NewWriter(&b)
		case "raw-deflate":
			w, _ = flate.NewWriter(&b, flate.DefaultCompression)
		case "identity":
			continue
		default:
			t.Fatalf("no coding %q", coding)
		}
		if _, err := w.Write(s); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		s = b.Bytes()
	}
	return s
}

// TestRFC9110_ContentEncoding checks that the content codings of RFC 9110
// section 8.4.1 are decoded, in any case and in lists, whether or not the
// transport asked for them (docs/SEMANTICS.md section 5.2); a coding that
// cannot be decoded is a transfer error: unreachable.
func TestRFC9110_ContentEncoding(t *testing.T) {
	for _, tc := range []struct {
		header  string
		codings []string
		want    Source
	}{
		{"gzip", []string{"gzip"}, Fetched},
		{"x-gzip", []string{"gzip"}, Fetched},
		{"X-GZIP", []string{"gzip"}, Fetched},
		{"gzip, identity", []string{"gzip"}, Fetched},
		{"identity,gzip", []string{"gzip"}, Fetched},
		{"deflate", []string{"deflate"}, Fetched},
		{"Deflate", []string{"raw-deflate"}, Fetched},
		{"deflate, gzip", []string{"deflate", "gzip"}, Fetched},
		{"identity", nil, Fetched},
		{"", nil, Fetched},
		{"br", nil, UnreachableDefault},
		{"gzip, zstd", []string{"gzip"}, UnreachableDefault},
		{"gzip, gzip", []string{"gzip", "gzip"}, Fetched},
		{"gzip, gzip, gzip, gzip", []string{"gzip", "gzip", "gzip", "gzip"}, UnreachableDefault},
		{"gzip", nil, UnreachableDefault},    // not gzip at all
		{"deflate", nil, UnreachableDefault}, // not deflate at all
	} {
		t.Run(tc.header+"_"+tc.want.String(), func(t *testing.T) {
			body := encode(t, []byte(robotsBody), tc.codings...)
			for _, disable := range []bool{false, true} {
				s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
					w.Header()["Content-Encoding"] = []string{tc.header}
					_, _ = w.Write(body)
				})
				hc := &http.Client{Transport: &http.Transport{DisableCompression: disable}}
				res := lookup(t, New(Options{HTTPClient: hc}), s.URL+"/")
				wantSource(t, res, tc.want)
				if tc.want == Fetched {
					wantAllowed(t, res, rulesApply)
					if res.Size != len(robotsBody) {
						t.Errorf("Size = %d, want %d", res.Size, len(robotsBody))
					}
				} else if res.Err == nil {
					t.Errorf("no Err")
				}
			}
		})
	}
}

// TestRFC9309_CompressedBomb checks that a compressed body is decoded only
// up to the file size limit (RFC 9309 section 2.5): a gigabyte of zeros in
// a megabyte of gzip, under each name, is cut, and the heap stays small.
func TestRFC9309_CompressedBomb(t *testing.T) {
	// A 1 MiB run of zeros compresses to about a kilobyte; concatenated
	// gzip members decode as one stream.
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	_, _ = zw.Write(make([]byte, 1<<20))
	_ = zw.Close()
	members := 1024
	if testing.Short() {
		members = 64
	}
	bomb := append(encode(t, []byte(robotsBody), "gzip"), bytes.Repeat(member.Bytes(), members)...)
	zlibBomb := func() []byte {
		var b bytes.Buffer
		w, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
		_, _ = w.Write([]byte(robotsBody))
		_, _ = w.Write(make([]byte, 16<<20))
		_ = w.Close()
		return b.Bytes()
	}()
	for _, tc := range []struct {
		header string
		body   []byte
	}{{"gzip", bomb}, {"x-gzip", bomb}, {"gzip, identity", bomb}, {"deflate", zlibBomb}} {
		t.Run(tc.header, func(t *testing.T) {
			tr := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{"Content-Encoding": {tc.header}},
					Body: io.NopCloser(bytes.NewReader(tc.body)), ContentLength: int64(len(tc.body)), Request: r}, nil
			})
			c := New(Options{HTTPClient: &http.Client{Transport: tr}})
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			res := lookup(t, c, "http://bomb.test/")
			runtime.ReadMemStats(&m1)
			wantSource(t, res, Fetched)
			wantAllowed(t, res, rulesApply)
			if !res.Truncated || res.Size != compile.DefaultMaxFileSize {
				t.Errorf("Size, Truncated = %d, %v", res.Size, res.Truncated)
			}
			// The body read and its compiled file, a few times over;
			// nowhere near the decoded size.
			if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 16<<20 {
				t.Errorf("the fetch allocated %d bytes", alloc)
			}
		})
	}
}
