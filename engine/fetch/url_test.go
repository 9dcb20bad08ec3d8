package fetch

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// TestRFC9309_RobotsURL checks docs/SEMANTICS.md section 5.1 (RFC 9309 section
// 2.3): scheme://host[:port]/robots.txt, canonical.
func TestRFC9309_RobotsURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://example.com/a/b?c#d", "http://example.com/robots.txt"},
		{"http://example.com", "http://example.com/robots.txt"},
		{"http://example.com?q", "http://example.com/robots.txt"},
		{"HTTPS://WWW.Example.COM/Page", "https://www.example.com/robots.txt"},
		{"http://example.com:80/", "http://example.com/robots.txt"},
		{"https://example.com:443/", "https://example.com/robots.txt"},
		{"ftp://example.com:21/pub/", "ftp://example.com/robots.txt"},
		{"http://example.com:443/", "http://example.com:443/robots.txt"},
		{"https://example.com:80/", "https://example.com:80/robots.txt"},
		{"http://example.com:8080/x", "http://example.com:8080/robots.txt"},
		{"http://example.com:080/x", "http://example.com/robots.txt"},
		{"http://example.com:/x", "http://example.com/robots.txt"},
		{"http://user:pass@example.com/x", "http://example.com/robots.txt"},
		{"http://user@Example.com:8000/x", "http://example.com:8000/robots.txt"},
		{"http://[2001:DB8::1]/x", "http://[2001:db8::1]/robots.txt"},
		{"http://[2001:db8::1]:80/x", "http://[2001:db8::1]/robots.txt"},
		{"http://[::1]:8080/x", "http://[::1]:8080/robots.txt"},
		{"http://192.0.2.1/x", "http://192.0.2.1/robots.txt"},
		{"http://Bücher.example/x", "http://xn--bcher-kva.example/robots.txt"},
		{"http://BÜCHER.example/x", "http://xn--bcher-kva.example/robots.txt"},
		{"https://例え.テスト/パス", "https://xn--r8jz45g.xn--zckzah/robots.txt"},
		{"http://b%C3%BCcher.example/x", "http://xn--bcher-kva.example/robots.txt"},
		{"http://xn--bcher-kva.example/", "http://xn--bcher-kva.example/robots.txt"},
		{"http://my_host.example/", "http://my_host.example/robots.txt"},
		{"http://example.com/robots.txt", "http://example.com/robots.txt"},
		{"http://example.com/100%", "http://example.com/robots.txt"},
		{"http://example.com?q=%zz#%", "http://example.com/robots.txt"},
		{"http://ex\u200Bample.com/", "http://example.com/robots.txt"}, // UTS #46 maps U+200B away
	}
	for _, tt := range tests {
		got, err := RobotsURL(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("RobotsURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestRobotsURL_Errors(t *testing.T) {
	tests := []struct{ in, wantErr string }{
		{"/a/b", "no scheme"},
		{"example.com/a", "no scheme"},
		{"//example.com/a", "no scheme"},
		{"mailto:a@example.com", "unsupported scheme"},
		{"gopher://example.com/", "unsupported scheme"},
		{"file:///etc/passwd", "unsupported scheme"},
		{"http:example.com", "no host"},
		{"http:///a", "no host"},
		{"http://:80/a", "empty host"},
		{"http://example.com:99999/", "port"},
		{"http://exa mple.com/", "invalid character"},
		{"http://[::1/", "missing ']'"},
		{"http://a\uFFFDb.example/", "not a valid internationalised domain name"},
		{"http://\u0301a.example/", "not a valid internationalised domain name"},
		{"", "no scheme"},
		{"http://" + strings.Repeat("a", maxHostLength+1) + "/x", "longer than 255 bytes"},
		{"HTTP://" + strings.Repeat("A", maxHostLength+1) + "/x", "longer than 255 bytes"},
	}
	if got, err := RobotsURL("http://" + strings.Repeat("a", maxHostLength) + "/x"); err != nil {
		t.Errorf("a host of %d bytes: %q, %v", maxHostLength, got, err)
	}
	for _, tt := range tests {
		got, err := RobotsURL(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("RobotsURL(%q) = %q, %v; want an error containing %q", tt.in, got, err, tt.wantErr)
		}
	}
}

// TestFastOrigin checks that the allocation-free origin agrees with the full
// one whenever it answers, and that it declines what it cannot read.
func TestFastOrigin(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" when the fast path must decline
	}{
		{"http://example.com/a", "http://example.com"},
		{"https://example.com", "https://example.com"},
		{"https://example.com?x", "https://example.com"},
		{"https://example.com#x", "https://example.com"},
		{"http://127.0.0.1:8080/a", "http://127.0.0.1:8080"},
		{"https://a-b.c_d.example:65535/", "https://a-b.c_d.example:65535"},
		{"http://example.com:80/a", ""},
		{"https://example.com:443/a", ""},
		{"http://example.com:080/a", ""},
		{"http://example.com:/a", ""},
		{"http://example.com:65536/a", ""},
		{"http://example.com:123456/a", ""},
		{"http://Example.com/a", ""},
		{"HTTP://example.com/a", ""},
		{"http://user@example.com/a", ""},
		{"http://[::1]/a", ""},
		{"http://bücher.example/a", ""},
		{"http://b%C3%BCcher.example/a", ""},
		{"http:///a", ""},
		{"http://example.com\\a", ""},
		{"ftp://example.com/a", ""},
		{"/a", ""},
	}
	for _, tt := range tests {
		got, ok := fastOrigin(tt.in)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("fastOrigin(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			continue
		}
		if ok {
			full, err := origin(tt.in)
			if err != nil || full != got {
				t.Errorf("fastOrigin(%q) = %q but origin = %q, %v", tt.in, got, full, err)
			}
		}
	}
}

func FuzzFastOrigin(f *testing.F) {
	for _, s := range []string{"http://example.com/a", "https://a:8080?x", "http://A.com:80/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 1024 {
			return
		}
		got, ok := fastOrigin(s)
		if !ok {
			return
		}
		full, err := origin(s)
		if err != nil || full != got {
			t.Fatalf("fastOrigin(%q) = %q but origin = %q, %v", s, got, full, err)
		}
	})
}

// TestFastOrigin_Random compares fastOrigin with origin on random URL-like
// strings (FuzzFastOrigin does the same, guided by coverage).
func TestFastOrigin_Random(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	prefixes := []string{"http://", "https://", "HTTP://", "http:/", "ftp://", ""}
	alphabet := "abcXYZ019.-_:@[]%/?#\\ é"
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := 0; i < n; i++ {
		var b strings.Builder
		b.WriteString(prefixes[rng.Intn(len(prefixes))])
		for j := rng.Intn(20); j > 0; j-- {
			if rng.Intn(8) == 0 {
				b.WriteString(strconv.Itoa(rng.Intn(70000)))
				continue
			}
			r := []rune(alphabet)
			b.WriteRune(r[rng.Intn(len(r))])
		}
		s := b.String()
		got, ok := fastOrigin(s)
		if !ok {
			continue
		}
		full, err := origin(s)
		if err != nil || full != got {
			t.Fatalf("fastOrigin(%q) = %q but origin = %q, %v", s, got, full, err)
		}
	}
}
