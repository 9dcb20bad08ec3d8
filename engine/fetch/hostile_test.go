package fetch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The tests of this file are hostile servers on loopback (and, where the
// heap is measured, in memory): each asserts the outcome docs/SEMANTICS.md
// section 5 gives and that what the cache keeps stays bounded. Deadlines
// come from contexts: a test whose fetch does not end fails when its
// context does, it does not hang.

// hostileDeadline bounds each lookup of these tests: far longer than any
// fetch they make takes when the code is right.
const hostileDeadline = 10 * time.Second

// rawServer is a loopback TCP server for what net/http's server will not
// send: a 101 that hands over the connection, malformed status lines, huge
// reason phrases and headers, an endless stream of 1xx responses.
type rawServer struct {
	URL      string
	requests atomic.Int64
}

// newRawServer starts a rawServer. For each request it reads the request
// head and calls respond with the request's path and a writer on the
// connection; respond writes whatever it likes and returns whether the
// connection may serve another request. respond may block until done is
// closed, which happens when the test ends, before every connection is
// closed.
func newRawServer(t *testing.T, respond func(path string, w *bufio.Writer, done <-chan struct{}) bool) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{URL: "http://" + ln.Addr().String()}
	done := make(chan struct{})
	var mu sync.Mutex
	conns := map[net.Conn]bool{}
	var wg sync.WaitGroup
	serve := func(c net.Conn) {
		defer wg.Done()
		defer c.Close()
		r := bufio.NewReader(c)
		w := bufio.NewWriter(c)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			for {
				h, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if strings.TrimRight(h, "\r\n") == "" {
					break
				}
			}
			s.requests.Add(1)
			path := ""
			if f := strings.Fields(line); len(f) > 1 {
				path = f[1]
			}
			again := respond(path, w, done)
			if w.Flush() != nil || !again {
				return
			}
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns[c] = true
			mu.Unlock()
			wg.Add(1)
			go serve(c)
		}
	}()
	t.Cleanup(func() {
		close(done)
		ln.Close()
		mu.Lock()
		for c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return s
}

// lookupWithin looks pageURL up with a context of hostileDeadline, failing
// the test when the lookup does not end by then.
func lookupWithin(t *testing.T, c *Client, pageURL string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
	defer cancel()
	res, err := c.Lookup(ctx, pageURL)
	if err != nil {
		t.Fatalf("Lookup(%q): %v (the fetch did not end by its Timeout)", pageURL, err)
	}
	return res
}

// wantBounded fails the test unless what res keeps is within the named
// limits: FinalURL within MaxURLLength, the error text within
// MaxErrorLength.
func wantBounded(t *testing.T, res Result) {
	t.Helper()
	if n := len(res.FinalURL); n > MaxURLLength {
		t.Errorf("len(FinalURL) = %d, more than MaxURLLength %d", n, MaxURLLength)
	}
	if res.Err != nil {
		if n := len(res.Err.Error()); n > MaxErrorLength {
			t.Errorf("len(Err.Error()) = %d, more than MaxErrorLength %d", n, MaxErrorLength)
		}
	}
}

// TestRFC9309_SwitchingProtocols checks that a 101 reply, with or without
// an upgrade, is a final 1xx: unreachable (RFC 9309 section 2.3.1.4, an
// undefined status), answered at once without reading what follows it. On
// an upgrade net/http hands back the raw connection, which the request's
// context no longer closes: reading it would wait as long as the server
// likes.
func TestRFC9309_SwitchingProtocols(t *testing.T) {
	for _, tc := range []struct{ name, head string }{
		{"upgrade", "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"},
		{"upgrade-h2c", "HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: h2c\r\n\r\n"},
		{"no-upgrade", "HTTP/1.1 101 Switching Protocols\r\n\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRawServer(t, func(_ string, w *bufio.Writer, done <-chan struct{}) bool {
				io.WriteString(w, tc.head)
				w.Flush()
				<-done // hold the connection open, sending nothing
				return false
			})
			// A Timeout long enough that a fetch which read the
			// connection would visibly end by it, not at once.
			c := New(Options{Timeout: time.Hour})
			res := lookupWithin(t, c, s.URL+"/")
			wantSource(t, res, UnreachableDefault)
			wantAllowed(t, res, disallowAll)
			if res.Status != http.StatusSwitchingProtocols || res.Err == nil {
				t.Errorf("Status, Err = %d, %v; want 101 and an error", res.Status, res.Err)
			}
			wantBounded(t, res)
		})
	}
}

// blockingBody is a response body whose Read blocks until Close, as a
// hijacked or upgraded connection that sends nothing, or a transport that
// does not watch the request's context.
type blockingBody struct {
	closed chan struct{}
	once   sync.Once
}

func newBlockingBody() *blockingBody { return &blockingBody{closed: make(chan struct{})} }

func (b *blockingBody) Read([]byte) (int, error) {
	<-b.closed
	return 0, net.ErrClosed
}

func (b *blockingBody) Close() error {
	b.once.Do(func() { close(b.closed) })
	return nil
}

// TestFault_BodyClosedAtTimeout checks that a body whose reads ignore the
// request's context is closed when the fetch's Timeout passes, whatever the
// status: the fetch ends unreachable.
func TestFault_BodyClosedAtTimeout(t *testing.T) {
	for _, status := range []int{101, 200, 302, 404, 503, 999} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			var bodies []*blockingBody
			tr := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				body := newBlockingBody()
				bodies = append(bodies, body)
				h := http.Header{}
				if status == 302 {
					h.Set("Location", "/robots.txt?again")
				}
				if status == 101 {
					h.Set("Connection", "Upgrade")
					h.Set("Upgrade", "websocket")
				}
				return &http.Response{StatusCode: status, Status: fmt.Sprint(status, " X"), Header: h,
					Body: body, ContentLength: -1, Request: r}, nil
			})
			c := New(Options{Timeout: 50 * time.Millisecond, HTTPClient: &http.Client{Transport: tr}})
			res := lookupWithin(t, c, "http://hostile.test/")
			wantBounded(t, res)
			for i, body := range bodies {
				select {
				case <-body.closed:
				default:
					t.Errorf("body %d of %d was not closed", i+1, len(bodies))
				}
			}
			if status == 404 {
				wantSource(t, res, UnavailableDefault)
			} else {
				// A 200 whose body never ends by the Timeout is a
				// transfer error; a redirect whose body does is
				// followed too late; 101, 503 and 999 are unreachable.
				wantSource(t, res, UnreachableDefault)
			}
		})
	}
}

// dribble writes head, then b every 5 ms until the client goes away.
func dribble(head string, b byte) func(string, *bufio.Writer, <-chan struct{}) bool {
	return func(_ string, w *bufio.Writer, done <-chan struct{}) bool {
		io.WriteString(w, head)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return false
			case <-tick.C:
				if w.WriteByte(b) != nil || w.Flush() != nil {
					return false
				}
			}
		}
	}
}

// TestFault_SlowHeaders checks that a server that sends its header a byte
// at a time, forever, is cut by the Timeout: unreachable.
func TestFault_SlowHeaders(t *testing.T) {
	s := newRawServer(t, dribble("HTTP/1.1 200 OK\r\n", 'X'))
	res := lookupWithin(t, New(Options{Timeout: 100 * time.Millisecond}), s.URL+"/")
	wantSource(t, res, UnreachableDefault)
	if !errors.Is(res.Err, context.DeadlineExceeded) {
		t.Errorf("Err = %v, want a deadline", res.Err)
	}
	wantBounded(t, res)
}

// TestFault_SlowBody checks that a 2xx body sent a byte at a time, forever,
// is cut by the Timeout: a transfer error, unreachable.
func TestFault_SlowBody(t *testing.T) {
	s := newRawServer(t, dribble("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\nUser-agent: *\n", '#'))
	res := lookupWithin(t, New(Options{Timeout: 100 * time.Millisecond}), s.URL+"/")
	wantSource(t, res, UnreachableDefault)
	if res.Status != 200 || !errors.Is(res.Err, context.DeadlineExceeded) {
		t.Errorf("Status, Err = %d, %v", res.Status, res.Err)
	}
}

// endless writes the head, then filler lines until the client goes away.
func endless(head string) func(string, *bufio.Writer, <-chan struct{}) bool {
	line := []byte("# filler filler filler filler filler filler filler filler filler\n")
	return func(_ string, w *bufio.Writer, done <-chan struct{}) bool {
		io.WriteString(w, head)
		for {
			select {
			case <-done:
				return false
			default:
			}
			if _, err := w.Write(line); err != nil {
				return false
			}
		}
	}
}

// TestFault_EndlessBodies checks that an endless body is cut: a 2xx at the
// file size limit (truncated), an error page at drainLimit; neither waits
// for the Timeout.
func TestFault_EndlessBodies(t *testing.T) {
	for _, tc := range []struct {
		head string
		want Source
	}{
		{"HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /private\n", Fetched},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\nUser-agent: *\nDisallow: /private\n", Fetched},
		{"HTTP/1.1 503 Service Unavailable\r\n\r\n", UnreachableDefault},
		{"HTTP/1.1 404 Not Found\r\n\r\n", UnavailableDefault},
		{"HTTP/1.1 999 Nonsense\r\n\r\n", UnreachableDefault},
	} {
		status, _, _ := strings.Cut(strings.TrimPrefix(tc.head, "HTTP/1.1 "), " ")
		t.Run(status+"_"+tc.want.String(), func(t *testing.T) {
			s := newRawServer(t, endless(tc.head))
			res := lookupWithin(t, New(Options{Timeout: time.Hour}), s.URL+"/")
			wantSource(t, res, tc.want)
			if tc.want == Fetched {
				wantAllowed(t, res, rulesApply)
				if !res.Truncated {
					t.Errorf("Truncated = false")
				}
			}
			if errors.Is(res.Err, context.DeadlineExceeded) {
				t.Errorf("Err = %v: the body was read to the Timeout", res.Err)
			}
		})
	}
}

// TestRFC9309_StatusLines checks docs/SEMANTICS.md section 5.2 on status
// lines net/http's server never sends: every undefined or malformed status
// is unreachable (RFC 9309 section 2.3.1.4).
func TestRFC9309_StatusLines(t *testing.T) {
	const body = "User-agent: *\nDisallow: /private\n"
	for _, tc := range []struct {
		line string
		want Source
	}{
		{"HTTP/1.1 200 OK", Fetched},
		{"HTTP/1.1 200", Fetched},
		{"HTTP/1.0 299 Odd but successful", Fetched},
		{"HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK", Fetched},
		{"HTTP/1.1 404", UnavailableDefault},
		{"HTTP/1.1 499 Client Closed", UnavailableDefault},
		{"HTTP/1.1 429 Too Many Requests", UnreachableDefault},
		{"HTTP/1.1 599 Network Timeout", UnreachableDefault},
		{"HTTP/1.1 600 Beyond", UnreachableDefault},
		{"HTTP/1.1 999 Nonsense", UnreachableDefault},
		{"HTTP/1.1 099 Below", UnreachableDefault},
		{"HTTP/1.1 20 OK", UnreachableDefault},
		{"HTTP/1.1 2000 OK", UnreachableDefault},
		{"HTTP/1.1 abc OK", UnreachableDefault},
		{"ICY 200 OK", UnreachableDefault},
		{"garbage", UnreachableDefault},
	} {
		t.Run(tc.line, func(t *testing.T) {
			s := newRawServer(t, func(_ string, w *bufio.Writer, _ <-chan struct{}) bool {
				fmt.Fprintf(w, "%s\r\nContent-Length: %d\r\n\r\n%s", tc.line, len(body), body)
				return false
			})
			res := lookupWithin(t, New(Options{Timeout: time.Hour}), s.URL+"/")
			wantSource(t, res, tc.want)
			wantBounded(t, res)
		})
	}
}

// TestFault_InformationalFlood checks that an endless run of 100 Continue
// replies is cut by the header size limit of the Client's own transport:
// unreachable, long before the Timeout.
func TestFault_InformationalFlood(t *testing.T) {
	s := newRawServer(t, endless("HTTP/1.1 100 Continue\r\n\r\n"+strings.Repeat("HTTP/1.1 100 Continue\r\nX-Filler: y\r\n\r\n", DefaultMaxHeaderBytes/8)))
	res := lookupWithin(t, New(Options{Timeout: time.Hour}), s.URL+"/")
	wantSource(t, res, UnreachableDefault)
	wantBounded(t, res)
}

// TestFault_HeaderLimit checks that the Client's own transport reads
// response headers up to DefaultMaxHeaderBytes: a larger header, here a
// huge reason phrase or Location, is a transfer error (unreachable) that
// the Client keeps in a bounded error text.
func TestFault_HeaderLimit(t *testing.T) {
	huge := strings.Repeat("x", DefaultMaxHeaderBytes+1)
	for _, head := range []string{
		"HTTP/1.1 503 " + huge + "\r\n",
		"HTTP/1.1 302 Found\r\nLocation: /" + huge + "\r\n",
		"HTTP/1.1 200 OK\r\nX-Big: " + huge + "\r\n",
	} {
		s := newRawServer(t, func(_ string, w *bufio.Writer, _ <-chan struct{}) bool {
			io.WriteString(w, head+"Content-Length: 0\r\n\r\n")
			return false
		})
		res := lookupWithin(t, New(Options{}), s.URL+"/")
		wantSource(t, res, UnreachableDefault)
		wantBounded(t, res)
		if res.Err == nil || !strings.Contains(res.Err.Error(), "header") {
			t.Errorf("Err = %v, want it to say the header was too large", res.Err)
		}
	}
	// Under the limit, a large header is read.
	big := strings.Repeat("y", DefaultMaxHeaderBytes/2)
	s := newRawServer(t, func(_ string, w *bufio.Writer, _ <-chan struct{}) bool {
		fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nX-Big: %s\r\nContent-Length: %d\r\n\r\n%s", big, len(robotsBody), robotsBody)
		return false
	})
	wantSource(t, lookupWithin(t, New(Options{}), s.URL+"/"), Fetched)
}

// memoryTransport answers every request from memory with respond, so that
// the heap measured is the cache's, not connections' buffers.
func memoryTransport(respond func(r *http.Request) (status int, reason string, h http.Header, body string)) roundTripFunc {
	return func(r *http.Request) (*http.Response, error) {
		status, reason, h, body := respond(r)
		if h == nil {
			h = http.Header{}
		}
		return &http.Response{StatusCode: status, Status: fmt.Sprintf("%d %s", status, reason), Header: h,
			Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
	}
}

// heapInUse returns the bytes of live heap, after collecting twice: the
// first collection moves what sync.Pools hold to their victim caches, the
// second frees it.
func heapInUse() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// entryBound is the most a cache entry may cost without a compiled file:
// its overhead, its robots.txt URL, a FinalURL and an error text.
func entryBound(robotsURL string) int64 {
	return int64(EntryOverhead + len(robotsURL) + MaxURLLength + MaxErrorLength)
}

// wantHeapCounted fills a cache with n entries of hostile answers and checks
// that each keeps at most entryBound, that the cache counts what it keeps,
// and that the heap grew by no more than what the cache counts (plus a MiB
// for the test and the runtime).
func wantHeapCounted(t *testing.T, n int, tr http.RoundTripper, check func(Result)) {
	t.Helper()
	c := New(Options{HTTPClient: &http.Client{Transport: tr}})
	before := heapInUse()
	for i := 0; i < n; i++ {
		res := lookupWithin(t, c, fmt.Sprintf("http://h%d.test/", i))
		wantBounded(t, res)
		if i == 0 {
			check(res)
		}
	}
	held := heapInUse() - before
	st := c.Stats()
	t.Logf("%d entries: the cache counts %d bytes, the heap grew %d", st.Entries, st.Bytes, held)
	if st.Entries != n {
		t.Fatalf("Entries = %d, want %d", st.Entries, n)
	}
	if limit := int64(n) * entryBound("http://h100.test/robots.txt"); st.Bytes > limit {
		t.Errorf("the cache counts %d bytes for %d entries, more than %d", st.Bytes, n, limit)
	}
	if held > st.Bytes+1<<20 {
		t.Errorf("the heap grew by %d bytes, the cache counts %d: it keeps what it does not count", held, st.Bytes)
	}
	runtime.KeepAlive(c)
}

// hostileEntries is how many entries the heap tests fill.
func hostileEntries() int {
	if testing.Short() {
		return 20
	}
	return 100
}

// TestHostile_HugeLocation: a 1 MiB redirect Location, followed (to a 404),
// is kept as FinalURL cut to MaxURLLength, and counted.
func TestHostile_HugeLocation(t *testing.T) {
	huge := "/" + strings.Repeat("a", 1<<20)
	tr := memoryTransport(func(r *http.Request) (int, string, http.Header, string) {
		if r.URL.Path == "/robots.txt" {
			return 302, "Found", http.Header{"Location": {huge}}, ""
		}
		return 404, "Not Found", nil, ""
	})
	wantHeapCounted(t, hostileEntries(), tr, func(res Result) {
		wantSource(t, res, UnavailableDefault)
		if res.Redirects != 1 || !strings.HasPrefix(res.FinalURL, "http://h0.test/aaaa") {
			t.Errorf("Redirects %d, FinalURL %.40q", res.Redirects, res.FinalURL)
		}
	})
}

// TestHostile_HugeReason: a 1 MiB reason phrase of a 503 is kept in an
// error text cut to MaxErrorLength, and counted.
func TestHostile_HugeReason(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	tr := memoryTransport(func(r *http.Request) (int, string, http.Header, string) {
		return 503, huge, nil, ""
	})
	wantHeapCounted(t, hostileEntries(), tr, func(res Result) {
		wantSource(t, res, UnreachableDefault)
		if res.Err == nil || !strings.Contains(res.Err.Error(), "503 xxxx") {
			t.Errorf("Err = %.80v", res.Err)
		}
	})
}

// malformedLocation is a Location that cannot be parsed (an IPv6 literal
// without its closing bracket) and whose bytes net/http quotes, twice, in
// its error: each byte becomes up to nine.
func malformedLocation(n int) string {
	return "http://[::1" + string(bytes.Repeat([]byte{0xff}, n))
}

// TestHostile_MalformedLocation: a 3xx whose Location cannot be parsed
// cannot be followed (unavailable, docs/SEMANTICS.md section 5.2); a huge
// one is kept in a bounded error text.
func TestHostile_MalformedLocation(t *testing.T) {
	n := 9_900_000
	if testing.Short() {
		n = 1 << 20
	}
	loc := malformedLocation(n)
	tr := memoryTransport(func(r *http.Request) (int, string, http.Header, string) {
		return 302, "Found", http.Header{"Location": {loc}}, ""
	})
	wantHeapCounted(t, 2, tr, func(res Result) {
		wantSource(t, res, UnavailableDefault)
		wantAllowed(t, res, allowAll)
		if res.Status != 302 || res.Err == nil {
			t.Errorf("Status, Err = %d, %.80v", res.Status, res.Err)
		}
	})
}

// TestDisallowedError_Bounded checks that DisallowedError.Error() stays
// small, and cheap, whatever the server sent: a huge reason phrase, a huge
// content coding, a huge rule.
func TestDisallowedError_Bounded(t *testing.T) {
	hugeRule := "/" + strings.Repeat("r", 16000)
	for name, respond := range map[string]func(r *http.Request) (int, string, http.Header, string){
		"reason": func(*http.Request) (int, string, http.Header, string) {
			return 503, strings.Repeat("x", 1<<20), nil, ""
		},
		"huge-content-coding": func(*http.Request) (int, string, http.Header, string) {
			return 200, "OK", http.Header{"Content-Encoding": {string(bytes.Repeat([]byte{0xfe}, 1<<20))}}, robotsBody
		},
		"huge-rule": func(*http.Request) (int, string, http.Header, string) {
			return 200, "OK", nil, "User-agent: *\nDisallow: " + hugeRule + "\n"
		},
		"unreachable-redirect": func(r *http.Request) (int, string, http.Header, string) {
			if r.URL.Path == "/robots.txt" {
				return 302, "Found", http.Header{"Location": {"/" + strings.Repeat("z", 1<<20)}}, ""
			}
			return 500, strings.Repeat("y", 1<<20), nil, ""
		},
	} {
		t.Run(name, func(t *testing.T) {
			c := New(Options{HTTPClient: &http.Client{Transport: memoryTransport(respond)}})
			base := roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, errors.New("sent") })
			tr := &Transport{Client: c, Agent: "FooBot", Base: base}
			req, _ := http.NewRequest(http.MethodGet, "http://hostile.test"+hugeRule, nil)
			_, err := tr.RoundTrip(req)
			d := wantDisallowed(t, err)
			msg := d.Error()
			limit := 2*MaxURLLength + 2*MaxErrorLength
			if len(msg) > limit {
				t.Errorf("len(Error()) = %d, more than %d", len(msg), limit)
			}
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			for i := 0; i < 10; i++ {
				_ = d.Error()
			}
			runtime.ReadMemStats(&m1)
			if per := (m1.TotalAlloc - m0.TotalAlloc) / 10; per > uint64(4*limit) {
				t.Errorf("Error() allocated %d bytes a call, more than %d", per, 4*limit)
			}
		})
	}
}

// TestRFC9309_RedirectCases checks docs/SEMANTICS.md section 5.2 (RFC 9309
// section 2.3.1.2) on every kind of redirect: one that is followed applies
// what it leads to; one that cannot be followed (no Location, a Location
// that cannot be parsed or has no host, another scheme, a 3xx status that
// is no redirect, more than five) allows everything; one that leads to a
// network error is unreachable.
func TestRFC9309_RedirectCases(t *testing.T) {
	refused := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return "http://" + ln.Addr().String() + "/robots.txt"
	}()
	for _, tc := range []struct {
		name      string
		status    int
		location  string // "-": no Location header
		want      Source
		redirects int
	}{
		{"relative", 301, "/real.txt", Fetched, 1},
		{"absolute", 302, "{server}/real.txt", Fetched, 1},
		{"query-only", 307, "?x=1", Fetched, 1},
		{"protocol-relative", 308, "//{host}/real.txt", Fetched, 1},
		{"to-404", 303, "/missing", UnavailableDefault, 1},
		{"to-503", 301, "/down", UnreachableDefault, 1},
		{"to-refused", 302, refused, UnreachableDefault, 1},
		{"no-location", 301, "-", UnavailableDefault, 0},
		{"empty-location", 302, "", UnavailableDefault, 0},
		{"malformed-ipv6", 302, "http://[::1", UnavailableDefault, 0},
		{"malformed-escape", 302, "/%zz", UnavailableDefault, 0},
		{"malformed-port", 302, "http://example.test:8x/", UnavailableDefault, 0},
		// A control byte makes the whole header malformed, before any
		// Location is looked at: a transfer error.
		{"control-byte", 302, "/a\x7fb", UnreachableDefault, 0},
		{"no-host", 302, "http:///robots.txt", UnavailableDefault, 0},
		{"other-scheme", 301, "ftp://example.test/robots.txt", UnavailableDefault, 0},
		{"mailto", 301, "mailto:webmaster@example.test", UnavailableDefault, 0},
		{"300-multiple-choices", 300, "/real.txt", UnavailableDefault, 0},
		{"304-not-modified", 304, "/real.txt", UnavailableDefault, 0},
		{"305-use-proxy", 305, "/real.txt", UnavailableDefault, 0},
		{"399-unknown", 399, "/real.txt", UnavailableDefault, 0},
		{"self-loop", 302, "/robots.txt", UnavailableDefault, DefaultMaxRedirects},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var srv *rawServer
			srv = newRawServer(t, func(path string, w *bufio.Writer, _ <-chan struct{}) bool {
				switch {
				case path == "/robots.txt":
					loc := strings.NewReplacer("{server}", srv.URL, "{host}", strings.TrimPrefix(srv.URL, "http://")).Replace(tc.location)
					fmt.Fprintf(w, "HTTP/1.1 %d Moved\r\n", tc.status)
					if tc.location != "-" {
						fmt.Fprintf(w, "Location: %s\r\n", loc)
					}
					io.WriteString(w, "Content-Length: 0\r\n\r\n")
				case path == "/real.txt" || strings.HasPrefix(path, "/robots.txt?"):
					fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(robotsBody), robotsBody)
				case path == "/down":
					io.WriteString(w, "HTTP/1.1 503 Down\r\nContent-Length: 0\r\n\r\n")
				default:
					io.WriteString(w, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
				}
				return true
			})
			c := New(Options{Timeout: time.Hour})
			res := lookupWithin(t, c, srv.URL+"/page")
			wantSource(t, res, tc.want)
			wantBounded(t, res)
			if res.Redirects != tc.redirects {
				t.Errorf("Redirects = %d, want %d", res.Redirects, tc.redirects)
			}
			switch tc.want {
			case Fetched:
				wantAllowed(t, res, rulesApply)
			case UnavailableDefault:
				wantAllowed(t, res, allowAll)
				if tc.redirects == 0 && (res.Status != tc.status || res.Err == nil) {
					t.Errorf("Status, Err = %d, %v; want %d and why it was not followed", res.Status, res.Err, tc.status)
				}
			case UnreachableDefault:
				wantAllowed(t, res, disallowAll)
			}
		})
	}
}

// TestRFC9309_RedirectLimitCounts checks the count of redirects with
// Options.MaxRedirects: exactly MaxRedirects are followed.
func TestRFC9309_RedirectLimitCounts(t *testing.T) {
	for _, limit := range []int{-1, 1, 2, 5} {
		s := chainServer(t, 8, 302)
		res := lookup(t, New(Options{MaxRedirects: limit}), s.URL+"/")
		wantSource(t, res, UnavailableDefault)
		follow := max(limit, 0)
		if res.Redirects != follow || s.requests.Load() != int64(follow+1) || !errors.Is(res.Err, errTooManyRedirects) {
			t.Errorf("MaxRedirects %d: Redirects %d, requests %d, Err %v", limit, res.Redirects, s.requests.Load(), res.Err)
		}
	}
}
