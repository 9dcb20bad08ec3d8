package engine_test

import (
	"bytes"
	"encoding"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/gen"
)

var (
	_ encoding.BinaryMarshaler   = (*engine.Robots)(nil)
	_ encoding.BinaryUnmarshaler = (*engine.Robots)(nil)
)

const marshalBody = `# a file with a bit of everything
User-agent: Googlebot
User-agent: googlebot-news # two agents
Disallow: /private/
Allow: /private/index.html
Allow: /shop/index.htm
Disallow: /*.pdf$
Disallow: /a%2fb/*?sid=
Crawl-delay: 2

User-agent: *
Disallow: /
Allow: /$
Allow: /public/
Clean-param: ref /articles/
Disalow: /typo
this is not a directive

Sitemap: https://example.com/sitemap.xml
Sitemap: https://example.com/news.xml
`

var marshalTokens = [][]string{{"Googlebot"}, {"*"}, {"Googlebot-News", "Googlebot"}}

func marshalURLs(body []byte) []string {
	urls := []string{
		"/", "/robots.txt", "/private/", "/private/index.html", "/shop/", "/shop/index.htm",
		"/x.pdf", "/x.pdf?q", "/a%2fb/c?sid=1", "/a/b/c?sid=1", "/public/x", "/typo",
		"https://example.com/private/x", "/%7Efoo", "/caf\xc3\xa9",
	}
	return append(urls, gen.URLs(body, 200, 5)...)
}

// checkSame compares two Robots decision by decision for tokens and urls.
func checkSame(t *testing.T, want, got *engine.Robots, tokens [][]string, urls []string) {
	t.Helper()
	for _, toks := range tokens {
		mw, mg := want.Matcher(toks...), got.Matcher(toks...)
		for _, u := range urls {
			if a, b := mg.Decide(u), mw.Decide(u); a != b {
				t.Fatalf("tokens %q url %q: decision %+v after round trip, want %+v", toks, u, a, b)
			}
		}
	}
}

func roundTrip(t *testing.T, r *engine.Robots) *engine.Robots {
	t.Helper()
	data, err := r.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary: %v", err)
	}
	var got engine.Robots
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatalf("UnmarshalBinary: %v", err)
	}
	again, err := got.MarshalBinary()
	if err != nil || !bytes.Equal(again, data) {
		t.Fatalf("encoding differs after a round trip (err %v)", err)
	}
	return &got
}

func TestRobots_MarshalRoundTrip(t *testing.T) {
	bodies := map[string][]byte{
		"mixed":     []byte(marshalBody),
		"generated": gen.Robots(300, 9, true),
		"empty":     nil,
		"html":      []byte("<html><body>\nUser-agent: *\nDisallow: /x\n</body></html>\n"),
	}
	for name, body := range bodies {
		for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
			t.Run(name+"/"+sem.String(), func(t *testing.T) {
				r := engine.Compile(body, engine.Options{Semantics: sem, StateBudget: 500})
				for _, toks := range marshalTokens[:2] {
					r.Matcher(toks...)
				}
				got := roundTrip(t, r)
				if diff := cmp.Diff(r.File(), got.File(), cmpopts.EquateEmpty()); diff != "" {
					t.Fatalf("File differs after round trip (-want +got):\n%s", diff)
				}
				if got.Semantics() != sem || !cmp.Equal(got.Sitemaps(), r.Sitemaps(), cmpopts.EquateEmpty()) {
					t.Fatal("semantics or sitemaps differ after round trip")
				}
				// The serialised matchers are cached, not rebuilt: looking
				// them up allocates nothing and they are the same automata.
				for _, toks := range marshalTokens[:2] {
					if n := testing.AllocsPerRun(10, func() { got.Matcher(toks...) }); n != 0 {
						t.Errorf("Matcher(%q) after UnmarshalBinary allocates %v times: it was rebuilt", toks, n)
					}
					mw, mg := r.Matcher(toks...), got.Matcher(toks...)
					if mw.Stats() != mg.Stats() || mw.String() != mg.String() {
						t.Errorf("Matcher(%q): Stats or dump differ after round trip:\n%s\nwant\n%s", toks, mg, mw)
					}
					if !cmp.Equal(mw.Selection(), mg.Selection(), cmpopts.EquateEmpty()) {
						t.Errorf("Matcher(%q): selection differs after round trip", toks)
					}
				}
				// marshalTokens[2] was not serialised: it is built lazily.
				checkSame(t, r, got, marshalTokens, marshalURLs(body))
			})
		}
	}
}

func TestRobots_MarshalFixed(t *testing.T) {
	for _, r := range []*engine.Robots{engine.AllowAll(engine.Options{}), engine.DisallowAll(engine.Options{Semantics: engine.Google})} {
		r.Matcher("Googlebot")
		got := roundTrip(t, r)
		checkSame(t, r, got, marshalTokens, []string{"/", "/x", "/robots.txt"})
	}
}

func TestRobots_UnmarshalBinaryNeedsZero(t *testing.T) {
	data, err := engine.Compile([]byte(marshalBody), engine.Options{}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	r := engine.Compile([]byte("User-agent: *\nDisallow: /\n"), engine.Options{})
	if err := r.UnmarshalBinary(data); err == nil || !strings.Contains(err.Error(), "zero Robots") {
		t.Fatalf("UnmarshalBinary on a compiled Robots: err = %v, want a zero-Robots error", err)
	}
	if r.Allowed("x", "/a") {
		t.Fatal("a refused UnmarshalBinary changed the Robots")
	}
	var z engine.Robots
	if err := z.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if err := z.UnmarshalBinary(data); err == nil {
		t.Fatal("a second UnmarshalBinary into the same Robots succeeded")
	}
	if _, err := new(engine.Robots).MarshalBinary(); err == nil {
		t.Fatal("MarshalBinary of a zero Robots succeeded")
	}
}

func TestRobots_UnmarshalBinaryErrors(t *testing.T) {
	r := engine.Compile([]byte(marshalBody), engine.Options{Semantics: engine.Google})
	r.Matcher("Googlebot")
	good, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "bad magic"},
		{"other magic", []byte("ASET\x01"), "bad magic"},
		{"version", append([]byte("RTXT\x07"), good[5:]...), "version 7"},
		{"semantics", append([]byte("RTXT\x01\x09"), good[6:]...), "unknown semantics"},
		{"trailing", append(append([]byte(nil), good...), 0), "trailing"},
		{"truncated", good[:len(good)-3], "automaton"},
		{"huge group count", append([]byte("RTXT\x01\x00\x00\x00\x00\x00"), 0xff, 0xff, 0xff, 0x7f), "cannot fit"},
	} {
		err := new(engine.Robots).UnmarshalBinary(tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

// TestRobots_UnmarshalBinaryCorrupt truncates and damages valid encodings:
// UnmarshalBinary fails cleanly or yields a Robots that decides without
// panicking.
func TestRobots_UnmarshalBinaryCorrupt(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	for _, sem := range []engine.Semantics{engine.RFC9309, engine.Google, engine.Koster1996} {
		r := engine.Compile([]byte(marshalBody), engine.Options{Semantics: sem})
		r.Matcher("Googlebot")
		r.Matcher("*")
		good, err := r.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < len(good); n++ {
			if err := new(engine.Robots).UnmarshalBinary(good[:n]); err == nil {
				t.Fatalf("%s: truncation to %d of %d bytes accepted", sem, n, len(good))
			}
		}
		accepted := 0
		for k := 0; k < 1000; k++ {
			bad := append([]byte(nil), good...)
			for j := 0; j <= k%3; j++ {
				bad[rnd.Intn(len(bad))] ^= byte(1 << rnd.Intn(8))
			}
			var got engine.Robots
			if got.UnmarshalBinary(bad) != nil {
				continue
			}
			accepted++
			for _, toks := range marshalTokens {
				m := got.Matcher(toks...)
				for _, u := range []string{"/", "/private/x", "/shop/", "/x.pdf", "/%41b"} {
					m.Decide(u)
				}
				_ = m.String()
			}
		}
		t.Logf("%s: %d of 1000 damaged encodings accepted and decided safely", sem, accepted)
	}
}

func ExampleRobots_MarshalBinary() {
	robots := engine.Compile([]byte("User-agent: *\nDisallow: /private/\nSitemap: https://example.com/sitemap.xml\n"), engine.Options{})
	robots.Matcher("ExampleBot") // build the matcher once, so that it travels compiled

	data, err := robots.MarshalBinary()
	if err != nil {
		panic(err)
	}

	// Elsewhere: load into a zero Robots; the matcher is not rebuilt.
	var loaded engine.Robots
	if err := loaded.UnmarshalBinary(data); err != nil {
		panic(err)
	}
	m := loaded.Matcher("ExampleBot")
	fmt.Println(m.Decide("https://example.com/private/plans").Allowed)
	fmt.Println(m.Decide("https://example.com/blog").Allowed)
	fmt.Println(loaded.Sitemaps()[0].URL)
	// Output:
	// false
	// true
	// https://example.com/sitemap.xml
}

// BenchmarkRobots_UnmarshalBinary loads a Robots with a built matcher for
// "Googlebot"; compare with BenchmarkRobots_CompileMatcher, the work it saves.
func BenchmarkRobots_UnmarshalBinary(b *testing.B) {
	for _, in := range benchInputs(b) {
		b.Run(in.name, func(b *testing.B) {
			r := engine.Compile(in.body, engine.Options{Semantics: engine.Google})
			r.Matcher("Googlebot")
			data, err := r.MarshalBinary()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(data)), "encoded-bytes")
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var got engine.Robots
				if err := got.UnmarshalBinary(data); err != nil {
					b.Fatal(err)
				}
				got.Matcher("Googlebot")
			}
		})
	}
}

// BenchmarkRobots_CompileMatcher is what BenchmarkRobots_UnmarshalBinary
// replaces: parse, then build the "Googlebot" matcher.
func BenchmarkRobots_CompileMatcher(b *testing.B) {
	for _, in := range benchInputs(b) {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.body)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				engine.Compile(in.body, engine.Options{Semantics: engine.Google}).Matcher("Googlebot")
			}
		})
	}
}

// BenchmarkRobots_MarshalBinary encodes a Robots with one built matcher.
func BenchmarkRobots_MarshalBinary(b *testing.B) {
	for _, in := range benchInputs(b) {
		b.Run(in.name, func(b *testing.B) {
			r := engine.Compile(in.body, engine.Options{Semantics: engine.Google})
			r.Matcher("Googlebot")
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := r.MarshalBinary(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
