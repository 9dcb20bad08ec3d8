package gen_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
)

// TestAdversarial_LimitsAgreeWithCompile: the generator repeats the parser's
// limits (to stay free of imports); they must not drift apart.
func TestAdversarial_LimitsAgreeWithCompile(t *testing.T) {
	if gen.MaxFileSize != compile.DefaultMaxFileSize {
		t.Errorf("gen.MaxFileSize = %d, compile.DefaultMaxFileSize = %d", gen.MaxFileSize, compile.DefaultMaxFileSize)
	}
	if gen.MaxLineLength != compile.MaxLineLength {
		t.Errorf("gen.MaxLineLength = %d, compile.MaxLineLength = %d", gen.MaxLineLength, compile.MaxLineLength)
	}
}

func TestAdversarial_Deterministic(t *testing.T) {
	a, b := gen.Adversarial(7), gen.Adversarial(7)
	if len(a) != len(b) {
		t.Fatalf("%d cases, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Name != b[i].Name || !bytes.Equal(a[i].Body, b[i].Body) || strings.Join(a[i].URLs, "\n") != strings.Join(b[i].URLs, "\n") {
			t.Errorf("case %d (%s) differs between two calls with the same seed", i, a[i].Name)
		}
	}
	c := gen.Adversarial(8)
	same := 0
	for i := range a {
		if bytes.Equal(a[i].Body, c[i].Body) {
			same++
		}
	}
	if same == len(a) {
		t.Error("seeds 7 and 8 give the same bodies")
	}
}

// TestAdversarial_Shapes checks that every case is what its name promises.
func TestAdversarial_Shapes(t *testing.T) {
	cases := gen.Adversarial(1)
	byName := map[string]gen.Case{}
	for _, c := range cases {
		if _, dup := byName[c.Name]; dup {
			t.Errorf("duplicate case %s", c.Name)
		}
		byName[c.Name] = c
		short, long := 0, 0
		for i, u := range c.URLs {
			switch {
			case len(u) == gen.LongURL:
				long++
			case len(u) < 4096:
				if long > 0 {
					t.Errorf("%s: short URL %d after a long one", c.Name, i)
				}
				short++
			default:
				t.Errorf("%s: URL %d has %d bytes: neither short nor %d", c.Name, i, len(u), gen.LongURL)
			}
		}
		if short == 0 || long == 0 {
			t.Errorf("%s: %d short and %d long URLs, want both", c.Name, short, long)
		}
	}
	need := func(name string) gen.Case {
		c, ok := byName[name]
		if !ok {
			t.Fatalf("no case %s", name)
		}
		return c
	}
	for _, name := range []string{"max-size-tiny-rules", "max-size-tiny-wildcards", "wildcards-max-size"} {
		if c := need(name); len(c.Body) != gen.MaxFileSize {
			t.Errorf("%s: %d bytes, want exactly %d", name, len(c.Body), gen.MaxFileSize)
		}
	}
	if n := bytes.Count(need("max-size-tiny-rules").Body, []byte("allow:")); n < 25000 {
		t.Errorf("max-size-tiny-rules: %d rules, want about 30,000", n)
	}
	if c := need("oversize-3MiB"); len(c.Body) != gen.OversizeFile {
		t.Errorf("oversize-3MiB: %d bytes, want %d", len(c.Body), gen.OversizeFile)
	}
	if c := need("binary-junk"); len(c.Body) <= gen.MaxFileSize {
		t.Errorf("binary-junk: %d bytes, want past the limit", len(c.Body))
	}
	for _, name := range []string{"wildcards-50-overlap", "wildcards-max-size"} {
		c := need(name)
		rules := 0
		for _, l := range strings.Split(string(c.Body), "\n") {
			if strings.HasPrefix(l, "Disallow: ") || strings.HasPrefix(l, "Allow: ") {
				rules++
				if n := strings.Count(l, "*"); n < gen.StarsPerRule {
					t.Errorf("%s: rule %q has %d '*', want at least %d", name, l, n, gen.StarsPerRule)
				}
			}
		}
		if rules < 200 {
			t.Errorf("%s: %d rules, want many", name, rules)
		}
	}
	c := need("line-16k-wildcards")
	longest := 0
	for _, l := range strings.Split(string(c.Body), "\n") {
		longest = max(longest, len(l))
	}
	if longest != gen.MaxLineLength {
		t.Errorf("line-16k-wildcards: longest line %d bytes, want %d", longest, gen.MaxLineLength)
	}
	if !bytes.Contains(need("nul-bytes").Body, []byte{0}) {
		t.Error("nul-bytes has no NUL")
	}
	eols := map[string]string{"eol-lf": "\n", "eol-crlf": "\r\n", "eol-cr": "\r"}
	for name, sep := range eols {
		body := string(need(name).Body)
		if strings.Count(body, sep) != 9 || (sep != "\r\n" && strings.Count(body, "\r\n") != 0) {
			t.Errorf("%s: body %q is not ended by %q only", name, body, sep)
		}
	}
	mixed := string(need("eol-mixed").Body)
	for _, sep := range []string{"\r\n", "\n\r", "\r"} {
		if !strings.Contains(mixed, sep) {
			t.Errorf("eol-mixed: body %q has no %q", mixed, sep)
		}
	}
	pct := strings.Join(need("percent-escapes").URLs, " ")
	for _, esc := range []string{"/%", "/%4", "/%zz", "/%C0%AF", "/%25%32%66"} {
		if !strings.Contains(pct, esc+" ") {
			t.Errorf("percent-escapes: no URL %s", esc)
		}
	}
}
