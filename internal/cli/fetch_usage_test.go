package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// fetch --usage prints the usage preferences as check does: the last
// field, "-" for a disallowed URL.
func TestFetchCLI_UsageField(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\nContent-Usage: /blog/ search=y\n")
	}))
	defer s.Close()
	status, out, errs := runFetchCLI(t, s.URL, "--agent", "ExampleBot", "--usage", "--explain", "/a", "/blog/x", "/private/x")
	want := "allowed\t/a\t-\ttrain-ai=n search=unknown\nallowed\t/blog/x\t-\ttrain-ai=unknown search=y\ndisallowed\t/private/x\tline 2: disallow /private/\t-\n"
	if status != exitOK || errs != "" || !strings.HasSuffix(out, want) {
		t.Errorf("status %d, stderr %q, output:\n%s\nwant it to end with:\n%s", status, errs, out, want)
	}
}
