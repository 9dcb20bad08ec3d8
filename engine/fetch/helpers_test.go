package fetch

import (
	"context"
	"encoding/binary"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// robotsBody is the robots.txt most test servers serve.
const robotsBody = "User-agent: *\nDisallow: /private\n"

// clock is an injectable clock for Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// server is an httptest server on loopback that counts the requests it
// serves.
type server struct {
	*httptest.Server
	requests atomic.Int64
}

func newServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func newTLSServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		h(w, r)
	}))
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	t.Cleanup(s.Close)
	return s
}

// serveRobots is a handler that serves body with status at /robots.txt.
func serveRobots(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

// lookup looks pageURL up and fails the test on an error.
func lookup(t *testing.T, c *Client, pageURL string) Result {
	t.Helper()
	res, err := c.Lookup(context.Background(), pageURL)
	if err != nil {
		t.Fatalf("Lookup(%q): %v", pageURL, err)
	}
	return res
}

// wantSource fails the test unless res came from src.
func wantSource(t *testing.T, res Result, src Source) {
	t.Helper()
	if res.Source != src {
		t.Fatalf("Source = %v (status %d, err %v), want %v", res.Source, res.Status, res.Err, src)
	}
}

// wantAllowed fails the test unless res decides paths as want says.
func wantAllowed(t *testing.T, res Result, want map[string]bool) {
	t.Helper()
	for path, allowed := range want {
		if got := res.Allowed("ExampleBot", path); got != allowed {
			t.Errorf("Allowed(%q) = %v, want %v (source %v, status %d)", path, got, allowed, res.Source, res.Status)
		}
	}
}

// routingTransport returns a transport that connects every host name to
// addr, so that tests can use many origins ("http://a.test", "http://b.test")
// served by one loopback server. Nothing leaves the machine.
func routingTransport(addr string) *http.Transport {
	return &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		},
	}
}

// nxdomainServer is a DNS server on loopback that answers every query with
// NXDOMAIN. It returns its address.
func nxdomainServer(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			q := buf[:n]
			if len(q) < 12 {
				continue
			}
			// The question: a name (labels up to a zero byte), type, class.
			end := 12
			for end < len(q) && q[end] != 0 {
				end += int(q[end]) + 1
			}
			end += 5
			if end > len(q) {
				continue
			}
			resp := make([]byte, 0, end)
			resp = append(resp, q[0], q[1])               // ID
			resp = append(resp, 0x81, 0x83)               // response, RD, RA, NXDOMAIN
			resp = binary.BigEndian.AppendUint16(resp, 1) // one question
			resp = append(resp, 0, 0, 0, 0, 0, 0)         // no answers, authority, additional
			resp = append(resp, q[12:end]...)
			_, _ = pc.WriteTo(resp, from)
		}
	}()
	return pc.LocalAddr().String()
}

// dnsTransport returns a transport that resolves names with the DNS server
// at dnsAddr only.
func dnsTransport(dnsAddr string) *http.Transport {
	r := &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "udp", dnsAddr)
		},
	}
	d := &net.Dialer{Resolver: r}
	return &http.Transport{DialContext: d.DialContext}
}
