package fetch

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// fuzzResponse builds the response of FuzzFetch's fake transport: status,
// a reason phrase, header lines ("Key: value", one a line) and a body.
func fuzzResponse(r *http.Request, status int, reason, headers string, body []byte) *http.Response {
	h := http.Header{}
	for _, line := range strings.Split(headers, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && k != "" {
			h.Add(k, strings.TrimSpace(v))
		}
	}
	return &http.Response{StatusCode: status, Status: reason, Header: h, Body: io.NopCloser(strings.NewReader(string(body))),
		ContentLength: -1, Request: r}
}

// FuzzFetch feeds arbitrary status codes, reason phrases, headers and bodies
// through a fake transport (every request, redirects included, gets the same
// answer) and checks what no answer may break: the lookup ends with rules,
// within the named limits, and a final status that is not a redirect is
// classified as docs/SEMANTICS.md section 5.2 says.
func FuzzFetch(f *testing.F) {
	f.Add(200, "OK", "", []byte(robotsBody))
	f.Add(200, "OK", "Content-Encoding: gzip", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"))
	f.Add(200, "OK", "Content-Encoding: x-gzip, identity", []byte("not gzip"))
	f.Add(200, "OK", "Content-Encoding: deflate", []byte("x\x9c\x03\x00\x00\x00\x00\x01"))
	f.Add(200, "OK", "Content-Encoding: br", []byte(robotsBody))
	f.Add(101, "Switching Protocols", "Connection: Upgrade\nUpgrade: websocket", []byte("raw bytes"))
	f.Add(301, "Moved", "Location: /elsewhere", []byte{})
	f.Add(302, "Found", "Location: http://[::1", []byte{})
	f.Add(302, "Found", "Location: http:///robots.txt", []byte{})
	f.Add(307, "Temporary", "Location: ftp://example.test/", []byte{})
	f.Add(304, "Not Modified", "", []byte{})
	f.Add(404, "Not Found", "", []byte("<html>"))
	f.Add(429, "Too Many", "Retry-After: 120", []byte{})
	f.Add(503, strings.Repeat("x", 2000), "Retry-After: Wed, 21 Oct 2015 07:28:00 GMT", []byte{})
	f.Add(999, "What", "Cache-Control: max-age=99999999999999999999", []byte{})
	f.Add(-1, "", "", []byte{})
	f.Fuzz(func(t *testing.T, status int, reason, headers string, body []byte) {
		if len(body) > 1<<16 || len(headers) > 1<<14 || len(reason) > 1<<14 {
			return
		}
		tr := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return fuzzResponse(r, status, reason, headers, body), nil
		})
		c := New(Options{HTTPClient: &http.Client{Transport: tr}, Timeout: 10 * time.Second})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		res, err := c.Lookup(ctx, "http://fuzz.test/page")
		if err != nil {
			t.Fatalf("Lookup: %v", err)
		}
		if res.Robots == nil {
			t.Fatalf("no rules (source %v)", res.Source)
		}
		wantBounded(t, res)
		if res.Size > compile.DefaultMaxFileSize || (res.Truncated && res.Source != Fetched) {
			t.Errorf("Size %d, Truncated %v, Source %v", res.Size, res.Truncated, res.Source)
		}
		if st := c.Stats(); st.Bytes > entryBound(res.RobotsURL)*2+int64(res.Robots.Bytes()) {
			t.Errorf("the entry costs %d bytes", st.Bytes)
		}
		if res.Redirects > DefaultMaxRedirects {
			t.Errorf("%d redirects", res.Redirects)
		}
		if res.Redirects > 0 || res.Status != status || errors.Is(res.Err, context.DeadlineExceeded) {
			return
		}
		var want Source
		switch {
		case 200 <= status && status <= 299:
			return // Fetched, or unreachable if the body cannot be decoded
		case 300 <= status && status <= 399:
			want = UnavailableDefault // not followed
		case status == 429 || 500 <= status && status <= 599:
			want = UnreachableDefault
		case 400 <= status && status <= 499:
			want = UnavailableDefault
		default:
			want = UnreachableDefault
		}
		if res.Source != want {
			t.Errorf("status %d: Source %v (Err %v), want %v", status, res.Source, res.Err, want)
		}
	})
}

// FuzzRecord feeds arbitrary bytes to the reader of Store records, as a
// damaged or foreign record would reach it, and checks that none panics
// and that a record it accepts is read back the same after writing it, and
// makes states with rules: allow-all only for a record that says the file
// is missing (UnavailableDefault).
func FuzzRecord(f *testing.F) {
	c := New(Options{})
	const key = "http://a.test"
	for _, r := range []*record{
		{fileURL: key + robotsPath, source: Fetched, status: 200, expires: time.Unix(1e9, 0), at: time.Unix(1e9, 0),
			hasGood: true, body: []byte(robotsBody), goodFetched: time.Unix(1e9, 0), goodStatus: 200, etag: `"x"`},
		{fileURL: key + robotsPath, source: Stale, status: 503, err: "GET: 503", expires: time.Unix(1e9, 0), at: time.Unix(1e9, 0),
			failures: 2, hasGood: true, body: []byte{}, goodFetched: time.Unix(9e8, 0)},
		{fileURL: key + robotsPath, source: UnavailableDefault, status: 404, expires: time.Unix(1e9, 0), at: time.Unix(1e9, 0)},
	} {
		f.Add(encodeRecord(r))
	}
	f.Add([]byte(recordMagic + "\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<16 {
			return
		}
		// As it is, and with its checksum made right, so that the fields
		// behind the frame are fuzzed too.
		if rec, err := decodeRecord(b); err == nil {
			_ = c.checkRecord(rec, key+robotsPath)
		}
		if len(b) >= 4 {
			b = binary.BigEndian.AppendUint32(b[:len(b)-4:len(b)-4], crc32.Checksum(b[:len(b)-4], crc32c))
		}
		rec, err := decodeRecord(b)
		if err != nil {
			return
		}
		if err := c.checkRecord(rec, key+robotsPath); err != nil {
			return
		}
		again, err := decodeRecord(encodeRecord(rec))
		if err != nil {
			t.Fatalf("a record read back after writing: %v", err)
		}
		if !bytes.Equal(encodeRecord(again), encodeRecord(rec)) {
			t.Fatalf("a record changed when written and read: %q", b)
		}
		e := &entry{key: key, robotsURL: key + robotsPath}
		cur, _ := c.states(e, rec, c.compile(rec.body))
		if cur.res.Robots == nil || cur.res.Source != rec.source {
			t.Fatalf("states of %q: rules %v, source %v", b, cur.res.Robots, cur.res.Source)
		}
		if cur.res.Robots == c.allowAll.robots && rec.source != UnavailableDefault {
			t.Fatalf("a %v record allows all: %q", rec.source, b)
		}
	})
}
