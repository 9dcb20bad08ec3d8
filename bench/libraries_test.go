package bench

import (
	"slices"
	"strings"
	"testing"
)

func TestPathOf(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"https://www.example.com/a/b?c=d#frag", "/a/b?c=d"},
		{"https://www.example.com", "/"},
		{"https://www.example.com?q=1", "/?q=1"},
		{"https://www.example.com;p", "/;p"},
		{"https://www.example.com#x/y", "/"},
		{"//www.example.com/a", "/a"},
		{"/a/b?c", "/a/b?c"},
		{"www.example.com/a", "/a"},
		{"/a?x=http://b/c", "/a?x=http://b/c"},
	} {
		if got := PathOf(c.url); got != c.want {
			t.Errorf("PathOf(%q) = %q, want %q", c.url, got, c.want)
		}
	}
}

// TestLibraries checks every adapter, unbound and bound, on cases that every
// library reads the same way (or, where one reads a case differently, as
// its adapter's comment says it does), so that a broken adapter cannot pass
// for a fast library.
func TestLibraries(t *testing.T) {
	body := []byte(`User-agent: *
Disallow: /private
Allow: /private/public

User-agent: Googlebot
Disallow: /nogoogle
Disallow: /*.pdf$
`)
	cases := []struct {
		agent, url string
		want       bool
		// opposite names the libraries documented to answer !want.
		opposite string
	}{
		{"OtherBot", "https://example.com/private/x", false, ""},
		{"OtherBot", "https://example.com/private/public/x", true, ""},
		{"OtherBot", "https://example.com/nogoogle", true, ""},
		{"Googlebot", "https://example.com/nogoogle/x?y=1", false, ""},
		{"Googlebot", "https://example.com/private/x", true, ""},
		{"Googlebot", "https://example.com/a/b.pdf", false, ""},
		{"Googlebot", "http://www.example.org/a/b.pdf", false, ""},
		// samclarke decides the path without its query.
		{"Googlebot", "https://example.com/a/b.pdf?x", true, "samclarke"},
	}
	for _, lib := range Libraries {
		r, err := lib.Parse(body)
		if err != nil {
			t.Fatalf("%s: Parse: %v", lib.Name, err)
		}
		for _, c := range cases {
			want := c.want
			if slices.Contains(strings.Fields(c.opposite), lib.Name) {
				want = !want
			}
			if got := r.Allowed(c.agent, c.url); got != want {
				t.Errorf("%s: Allowed(%q, %q) = %v, want %v", lib.Name, c.agent, c.url, got, want)
			}
			if b, ok := r.(Binder); ok {
				if got := b.Bind(c.agent)(c.url); got != want {
					t.Errorf("%s-bound: Bind(%q)(%q) = %v, want %v", lib.Name, c.agent, c.url, got, want)
				}
			}
		}
	}
}

// TestLibrariesEmptyFile checks that every adapter either allows everything
// on an empty file or returns an error: benjaminestes/robots panics on one,
// and its adapter must turn that panic into an error.
func TestLibrariesEmptyFile(t *testing.T) {
	for _, body := range []string{"", "# comments only\n"} {
		for _, lib := range Libraries {
			d, _, err := Prepare(lib, []byte(body), Agent)
			switch {
			case lib.Name == "benjaminestes":
				if err == nil {
					t.Errorf("%s on %q: no error; the library is known to panic on it", lib.Name, body)
				}
			case err != nil:
				t.Errorf("%s on %q: %v", lib.Name, body, err)
			case !d("https://example.com/a"):
				t.Errorf("%s on %q: /a disallowed", lib.Name, body)
			}
		}
	}
}

// TestLibrariesVersions checks that every peer's module is in the test
// binary's build information, so that the run can report its version.
func TestLibrariesVersions(t *testing.T) {
	v := libraryVersions()
	for _, lib := range Libraries[1:] {
		if v[lib.Name] == "" {
			t.Errorf("%s: no version for module %q in the build information", lib.Name, lib.Module)
		}
	}
}
