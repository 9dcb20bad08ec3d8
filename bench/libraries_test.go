package bench

import "testing"

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
// library reads the same way, so that a broken adapter cannot pass for a
// fast library.
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
	}{
		{"OtherBot", "https://example.com/private/x", false},
		{"OtherBot", "https://example.com/private/public/x", true},
		{"OtherBot", "https://example.com/nogoogle", true},
		{"Googlebot", "https://example.com/nogoogle/x?y=1", false},
		{"Googlebot", "https://example.com/private/x", true},
		{"Googlebot", "https://example.com/a/b.pdf", false},
		{"Googlebot", "https://example.com/a/b.pdf?x", true},
	}
	for _, lib := range Libraries {
		r, err := lib.Parse(body)
		if err != nil {
			t.Fatalf("%s: Parse: %v", lib.Name, err)
		}
		for _, c := range cases {
			if got := r.Allowed(c.agent, c.url); got != c.want {
				t.Errorf("%s: Allowed(%q, %q) = %v, want %v", lib.Name, c.agent, c.url, got, c.want)
			}
			if b, ok := r.(Binder); ok {
				if got := b.Bind(c.agent)(c.url); got != c.want {
					t.Errorf("%s-bound: Bind(%q)(%q) = %v, want %v", lib.Name, c.agent, c.url, got, c.want)
				}
			}
		}
	}
}
