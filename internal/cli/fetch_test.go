package cli

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// runFetchCLI runs 'robotstxt fetch' in-process.
func runFetchCLI(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	status = runFetch(args, &out, &errb)
	return status, out.String(), errb.String()
}

// timestamps matches the fetched and expires lines, which depend on the
// clock.
var timestamps = regexp.MustCompile(`(?m)^(fetched|expires)\t\S+$`)

func fetchSite(t *testing.T) (*httptest.Server, *atomic.Value) {
	var ua atomic.Value
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.UserAgent())
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: ExampleBot\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: *\nDisallow: /\n")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s, &ua
}

func TestFetchCLI(t *testing.T) {
	s, ua := fetchSite(t)
	status, out, errs := runFetchCLI(t, s.URL+"/some/page", "--agent", "ExampleBot", "--explain",
		"/private/a", "/private/press/b", s.URL+"/public")
	if status != exitOK || errs != "" {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	want := "robots.txt\t" + s.URL + "/robots.txt\n" +
		"status\t200\n" +
		"source\tfetched\n" +
		"fetched\tT\n" +
		"expires\tT\n" +
		"size\t93\n" +
		"disallowed\t/private/a\tline 2: disallow /private/\n" +
		"allowed\t/private/press/b\tline 3: allow /private/press/\n" +
		"allowed\t" + s.URL + "/public\t-\n"
	if got := timestamps.ReplaceAllString(out, "$1\tT"); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
	if ua.Load() != "ExampleBot" {
		t.Errorf("User-Agent = %q, want the agent token", ua.Load())
	}
}

func TestFetchCLI_Defaults(t *testing.T) {
	s, ua := fetchSite(t)
	// No agent and no paths: the result only.
	status, out, _ := runFetchCLI(t, s.URL)
	if status != exitOK || strings.Contains(out, "allowed") || !strings.Contains(out, "source\tfetched\n") {
		t.Errorf("status %d, output:\n%s", status, out)
	}
	// --user-agent is sent, and without --agent its product tokens decide
	// (here the site URL itself).
	status, out, _ = runFetchCLI(t, s.URL+"/private/x", "--user-agent", "Mozilla/5.0 (compatible; ExampleBot/2.0)")
	if status != exitOK || !strings.HasSuffix(out, "disallowed\t"+s.URL+"/private/x\n") {
		t.Errorf("--user-agent: status %d, output:\n%s", status, out)
	}
	if ua.Load() != "Mozilla/5.0 (compatible; ExampleBot/2.0)" {
		t.Errorf("User-Agent = %q", ua.Load())
	}
	// An agent and no paths: the site URL itself is decided.
	_, out, _ = runFetchCLI(t, s.URL+"/private/x", "--agent", "ExampleBot")
	if !strings.HasSuffix(out, "disallowed\t"+s.URL+"/private/x\n") {
		t.Errorf("output:\n%s", out)
	}
	// Paths and no agent: decided for "*".
	_, out, _ = runFetchCLI(t, s.URL, "/public")
	if !strings.HasSuffix(out, "disallowed\t/public\n") {
		t.Errorf("output:\n%s", out)
	}
	// Flags before the URL, "--" before a path.
	_, out, _ = runFetchCLI(t, "--agent", "ExampleBot", s.URL, "--", "/public")
	if !strings.HasSuffix(out, "allowed\t/public\n") {
		t.Errorf("output:\n%s", out)
	}
}

func TestFetchCLI_Redirect(t *testing.T) {
	s, _ := fetchSite(t)
	moved := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, s.URL+r.URL.Path, http.StatusMovedPermanently)
	}))
	defer moved.Close()
	// A robots.txt URL is a page URL like any other.
	_, out, _ := runFetchCLI(t, moved.URL+"/robots.txt", "--agent", "ExampleBot", "/private/x")
	want := "robots.txt\t" + moved.URL + "/robots.txt\nfinal-url\t" + s.URL + "/robots.txt\nredirects\t1\nstatus\t200\n"
	if !strings.HasPrefix(out, want) || !strings.HasSuffix(out, "disallowed\t/private/x\n") {
		t.Errorf("output:\n%s\nwant it to start with:\n%s", out, want)
	}
}

func TestFetchCLI_Faults(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer s.Close()
	// Unreachable: the standard's decisions (everything disallowed), and
	// exit status 3.
	status, out, _ := runFetchCLI(t, s.URL, "--agent", "ExampleBot", "--explain", "/x")
	if status != exitUnreachable || !strings.Contains(out, "status\t503\nsource\tunreachable-default\n") ||
		!strings.Contains(out, "\nerror\t") || !strings.HasSuffix(out, "disallowed\t/x\t-\n") {
		t.Errorf("503: status %d, output:\n%s", status, out)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	status, out, _ = runFetchCLI(t, "http://"+addr+"/", "/x")
	if status != exitUnreachable || !strings.Contains(out, "status\t0\nsource\tunreachable-default\n") || !strings.HasSuffix(out, "disallowed\t/x\n") {
		t.Errorf("refused: status %d, output:\n%s", status, out)
	}

	s404 := httptest.NewServer(http.NotFoundHandler())
	defer s404.Close()
	status, out, _ = runFetchCLI(t, s404.URL, "--semantics", "koster1996", "/x")
	if status != exitOK || !strings.Contains(out, "status\t404\nsource\tunavailable-default\n") || !strings.HasSuffix(out, "allowed\t/x\n") {
		t.Errorf("404: status %d, output:\n%s", status, out)
	}
}

func TestFetchCLI_Usage(t *testing.T) {
	s, _ := fetchSite(t)
	tests := []struct {
		args    []string
		wantErr string
	}{
		{nil, "a site URL is required"},
		{[]string{"--agent"}, "--agent needs a value: a product token such as Googlebot"},
		{[]string{"--bogus", s.URL}, "unknown flag --bogus"},
		{[]string{"127.0.0.1:8765"}, `"127.0.0.1:8765" has no scheme: want an absolute URL such as https://127.0.0.1:8765 or http://127.0.0.1:8765`},
		{[]string{"localhost:8080/a"}, `"localhost:8080/a" has no scheme`},
		{[]string{"example.com"}, `"example.com" has no scheme`},
		{[]string{s.URL, "--semantics", "nope"}, "unknown semantics"},
		{[]string{"/relative"}, "no scheme"},
		{[]string{"ftp:/x"}, "no host"},
		{[]string{"gopher://example.com/"}, "unsupported scheme"},
		{[]string{s.URL, "http://other.example/x"}, "is governed by http://other.example/robots.txt"},
		{[]string{s.URL, "--timeout", "-1s"}, "--timeout must be positive"},
	}
	for _, tt := range tests {
		status, out, errs := runFetchCLI(t, tt.args...)
		if status != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tt.wantErr) {
			t.Errorf("fetch %q: status %d, stdout %q, stderr %q; want 2 and %q", tt.args, status, out, errs, tt.wantErr)
		}
	}
	// ftp has a robots.txt URL but is not fetched.
	status, _, errs := runFetchCLI(t, "ftp://example.com/")
	if status != exitUsage || !strings.Contains(errs, "http and https only") {
		t.Errorf("ftp: status %d, stderr %q", status, errs)
	}
	status, out, _ := runFetchCLI(t, "--help")
	if status != exitOK || !strings.HasPrefix(out, "Usage: robotstxt fetch") {
		t.Errorf("--help: status %d, output %q", status, out)
	}
}

// TestFetch_OneProgram: fetch is a command of robotstxt itself (issue 55:
// a new user who copied the one binary, or ran go run ./cmd/robotstxt,
// found fetch missing its second program). The binary alone in a folder,
// with no PATH, fetches and decides; in-process, a program without a
// Fetcher says so, and its help and flag errors need none.
func TestFetch_OneProgram(t *testing.T) {
	saved := fetcher
	SetFetcher(nil)
	t.Cleanup(func() { SetFetcher(saved) })
	status, out, errs := cli(t, "", "fetch", "https://example.com/")
	if status != exitUsage || out != "" || !strings.Contains(errs, "no HTTP access method") {
		t.Errorf("fetch without a Fetcher, in-process: status %d, stdout %q, stderr %q", status, out, errs)
	}
	if status, out, errs := cli(t, "", "fetch", "--help"); status != exitOK || out != fetchUsage || errs != "" {
		t.Errorf("fetch --help without a Fetcher: status %d, stderr %q, stdout:\n%s", status, errs, out)
	}
	if status, _, errs := cli(t, "", "fetch", "--bogus", "https://example.com/"); status != exitUsage || !strings.Contains(errs, "unknown flag --bogus") {
		t.Errorf("fetch --bogus without a Fetcher: status %d, stderr %q", status, errs)
	}
	if testing.Short() {
		t.Skip("builds the program")
	}
	bin := binary(t)
	alone := filepath.Join(t.TempDir(), filepath.Base(bin))
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, data, 0o755); err != nil {
		t.Fatal(err)
	}
	s, _ := fetchSite(t)
	cmd := exec.Command(alone, "fetch", s.URL+"/", "--agent", "ExampleBot", "/private/a", "/b")
	cmd.Env = append(os.Environ(), "PATH=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 || !strings.Contains(stdout.String(), "disallowed\t/private/a\nallowed\t/b\n") {
		t.Errorf("robotstxt fetch, the binary alone: %v, stderr %q, output:\n%s", err, stderr.String(), stdout.String())
	}
}

// TestFetchCLI_SwitchingProtocols: a server that answers 101 and keeps the
// connection open does not hold fetch: it ends at once, unreachable (exit
// status 3), well within --timeout.
func TestFetchCLI_SwitchingProtocols(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		close(done)
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go func() {
				_, _ = c.Read(make([]byte, 4096))
				_, _ = io.WriteString(c, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n")
				<-done
			}()
		}
	}()
	type outcome struct {
		status int
		out    string
	}
	ended := make(chan outcome, 1)
	go func() {
		status, out, _ := runFetchCLI(t, "--timeout", "2s", "http://"+ln.Addr().String()+"/", "/x")
		ended <- outcome{status, out}
	}()
	select {
	case o := <-ended:
		if o.status != exitUnreachable || !strings.Contains(o.out, "status\t101\nsource\tunreachable-default\n") {
			t.Errorf("status %d, output:\n%s", o.status, o.out)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("fetch --timeout 2s still running after 20s")
	}
}

// TestFetchCLI_NotAURL: issue 31 found that one PATH_OR_URL that is neither
// a URL nor a path made fetch exit 2 before fetching, while check decides
// such a line and exits 1. fetch now does as check does.
func TestFetchCLI_NotAURL(t *testing.T) {
	s, _ := fetchSite(t)
	status, out, errs := runFetchCLI(t, s.URL, "--agent", "ExampleBot", "relative/private/x", "/private/press/a")
	if status != exitProblem || !strings.HasSuffix(out, "disallowed\trelative/private/x\nallowed\t/private/press/a\n") {
		t.Errorf("status %d, output:\n%s", status, out)
	}
	_, _, checkErrs := robotstxt(t, "", "check", "--robots", exampleRobots, "--agent", "ExampleBot", "relative/private/x")
	if errs != checkErrs || !strings.Contains(errs, "argument 1: not a URL or path: relative/private/x (decided as the path /private/x") {
		t.Errorf("fetch says %q, check %q", errs, checkErrs)
	}
}

// TestFetchCLI_Extensions: fetch --extensions prints the sitemaps and the
// crawler's extension lines (issue 31: fetch printed neither).
func TestFetchCLI_Extensions(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: ExampleBot\nCrawl-delay: 2\nDisallow: /x\n\nUser-agent: *\nCrawl-delay: 9\n\nSitemap: https://example.com/s.xml\n")
	}))
	defer s.Close()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--agent", "ExampleBot"}, "size\t117\nsitemap\thttps://example.com/s.xml\nextension\tcrawl-delay: 2\nallowed\t" + s.URL + "\n"},
		{nil, "size\t117\nsitemap\thttps://example.com/s.xml\nextension\tcrawl-delay: 9\n"},
	} {
		status, out, _ := runFetchCLI(t, append([]string{s.URL, "--extensions"}, c.args...)...)
		if status != exitOK || !strings.HasSuffix(out, c.want) {
			t.Errorf("%q: status %d, output:\n%s\nwant it to end with:\n%s", c.args, status, out, c.want)
		}
	}
	if _, out, _ := runFetchCLI(t, s.URL, "--agent", "ExampleBot"); strings.Contains(out, "crawl-delay") {
		t.Errorf("without --extensions:\n%s", out)
	}
}
