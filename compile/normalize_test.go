package compile

import (
	"bufio"
	"fmt"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var allSemantics = []Semantics{RFC9309, Google, Koster1996}

type patternCase struct {
	in, want string
	why      string
}

func checkPatterns(t *testing.T, sem Semantics, cases []patternCase) {
	t.Helper()
	for _, c := range cases {
		got := NormalizePattern(c.in, sem)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("NormalizePattern(%q, %v) (%s): -want +got:\n%s", c.in, sem, c.why, diff)
		}
		if ref := refNormalize(c.in, sem, true); ref != got {
			t.Errorf("NormalizePattern(%q, %v) = %q, reference gives %q", c.in, sem, got, ref)
		}
		if again := NormalizePattern(got, sem); again != got {
			t.Errorf("NormalizePattern not idempotent on %q (%v): %q -> %q", c.in, sem, got, again)
		}
	}
}

// Percent-encoding cases shared by RFC9309 and Koster1996 patterns: the
// draft's section 2.2.2 ("The Allow and Disallow lines") and its examples
// table.
var rfcPercentCases = []patternCase{
	{"/foo/bar?baz=quz", "/foo/bar?baz=quz", "2.2.2 table row 1"},
	{"/foo/bar?baz=http%3A%2F%2Ffoo.bar", "/foo/bar?baz=http%3A%2F%2Ffoo.bar", "2.2.2 table row 2: reserved escapes stay"},
	{"/foo/bar?baz=http%3a%2f%2ffoo.bar", "/foo/bar?baz=http%3A%2F%2Ffoo.bar", "lowercase escapes get uppercase hex"},
	{"/foo/bar/ツ", "/foo/bar/%E3%83%84", "2.2.2 table row 3: UTF-8 is percent-encoded"},
	{"/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", "2.2.2 table row 4"},
	{"/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84", "row 4 in lowercase"},
	{"/foo/bar/%62%61%7A", "/foo/bar/baz", "2.2.2 table row 5: unreserved escapes are decoded"},
	{"/~joe", "/~joe", "unreserved"},
	{"/%7Ejoe", "/~joe", "%7E is ~"},
	{"/%7ejoe", "/~joe", "%7e is ~"},
	{"/%2D%2E%5F%7E%41%7a%30", "/-._~Az0", "every unreserved class"},
	{"/a%2Fb", "/a%2Fb", "%2F is reserved: never decoded"},
	{"/a%2fb", "/a%2Fb", ""},
	{"/a-%2a", "/a-%2A", "%2a is not unreserved: uppercased, never decoded"},
	{"/a-%2A", "/a-%2A", ""},
	{"/a%24", "/a%24", "an escaped $ is a literal $"},
	{"/%20%00%25%7F", "/%20%00%25%7F", "controls, space, %, DEL stay escaped"},
	{"/a b", "/a b", "a literal space stays (nothing but bytes >= 0x80 is escaped)"},
	{"/\xff\x80", "/%FF%80", "invalid UTF-8 is escaped byte by byte"},
	{"/%zz", "/%zz", "invalid escape stays"},
	{"/%4", "/%4", "short escape stays"},
	{"/%4g", "/%4g", ""},
	{"/a%", "/a%", "% at the end stays"},
	{"%", "%", ""},
	{"%252F", "%252F", "an escaped % is never decoded"},
	{"%%41", "%%41", "no decoding after an invalid %: %A could become an escape"},
	{"%%414", "%%414", "%A4 would be an escape on a second pass"},
	{"%%6a", "%j", "j is no hex digit: decoded after an invalid % too"},
	{"%%6A%42", "%jB", "j is no hex digit: the % before it stays invalid"},
	{"%4%31", "%4%31", "no decoding after an invalid % and one hex digit"},
	{"%4%31%32", "%4%312", "only the escape right after is kept"},
	{"%4x%31", "%4x1", ""},
	{"%%%41", "%%%41", ""},
	{"%%2f", "%%2F", ""},
	{"%\xe3", "%%E3", ""},
}

// TestRFC9309_NormalizePattern checks RFC9309 patterns: draft section 2.2.2
// (percent-encoding) and 2.2.3 (special characters).
func TestRFC9309_NormalizePattern(t *testing.T) {
	cases := append([]patternCase{
		{"/a*b", "/a*b", "2.2.3: * is a wildcard"},
		{"*", "*", ""},
		{"/a$", "/a$", "2.2.3: a final $ anchors the end"},
		{"$", "$", ""},
		{"/a$b", "/a%24b", "a $ that is not last is a literal $"},
		{"/a$$", "/a%24$", ""},
		{"/$*$", "/%24*$", ""},
		{"/path/file-with-a-%2A.html", "/path/file-with-a-%2A.html", "2.2.3 pattern table row 1"},
		{"/path/foo-%24", "/path/foo-%24", "2.2.3 pattern table row 2"},
	}, rfcPercentCases...)
	checkPatterns(t, RFC9309, cases)
}

// TestKoster1996_NormalizePattern checks Koster1996 patterns: the 1996 draft
// has no wildcards, so '*' and '$' are ordinary characters (escaped like a
// URL's).
func TestKoster1996_NormalizePattern(t *testing.T) {
	cases := append([]patternCase{
		{"/a*b", "/a%2Ab", "no wildcard"},
		{"*", "%2A", ""},
		{"/a$", "/a%24", "no end anchor"},
		{"/a$b", "/a%24b", ""},
		{"/$*$", "/%24%2A%24", ""},
		{"/a-%2a", "/a-%2A", ""},
	}, rfcPercentCases...)
	checkPatterns(t, Koster1996, cases)
}

// TestGoogle_NormalizePattern checks Google patterns: Google's
// MaybeEscapePattern uppercases escapes and escapes bytes >= 0x80, nothing
// else ("How Google interprets the robots.txt specification", URL matching).
func TestGoogle_NormalizePattern(t *testing.T) {
	checkPatterns(t, Google, []patternCase{
		{"/foo/bar?baz=quz", "/foo/bar?baz=quz", ""},
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84", "UTF-8 is escaped"},
		{"/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84", ""},
		{"/foo/bar/%62%61%7A", "/foo/bar/%62%61%7A", "never decoded"},
		{"/%7ejoe", "/%7Ejoe", "never decoded, only uppercased"},
		{"/~joe", "/~joe", ""},
		{"/a%2fb", "/a%2Fb", ""},
		{"/a-%2a", "/a-%2A", ""},
		{"/a*b$", "/a*b$", "wildcards stay"},
		{"/a$b", "/a$b", "a $ in the middle is a literal byte to Google's matcher"},
		{"/%zz", "/%zz", ""},
		{"/%4", "/%4", ""},
		{"/a%", "/a%", ""},
		{"%%41", "%%41", ""},
		{"%%6a", "%%6A", ""},
		{"/\xff", "/%FF", ""},
	})
}

type extractCase struct {
	url, rfc, google string
	why              string
}

// extractCases gives ExtractPath's result for RFC9309 (and Koster1996) and
// for Google.
var extractCases = []extractCase{
	{"http://example.com/foo/bar?baz=quz", "/foo/bar?baz=quz", "/foo/bar?baz=quz", "absolute URL"},
	{"http://example.com", "/", "/", "no path"},
	{"http://example.com/", "/", "/", ""},
	{"/a?b", "/a?b", "/a?b", "bare path"},
	{"/", "/", "/", ""},
	{"/a//b", "/a//b", "/a//b", ""},
	{"/a#b", "/a", "/a", "fragment dropped"},
	{"http://a.com/x#y#z", "/x", "/x", ""},
	{"http://a.com#x/y", "/", "/", "a # before the path"},
	{"#frag", "/", "/", ""},
	{"http://a.com/p;params?q#f", "/p;params?q", "/p;params?q", "params and query"},
	{"http://a.com;x", "/", "/;x", "; is part of an RFC 3986 authority; Google starts the path at it"},
	{"http://a.com?x", "/?x", "/?x", "query without path"},
	{"HTTPS://a.com?", "/?", "/?", ""},
	{"http://u:p@h/x", "/x", "/x", "userinfo"},
	{"http://u@h?x", "/?x", "/?x", ""},
	{"http://[::1]:8080/a?b", "/a?b", "/a?b", "IPv6 literal and port"},
	{"http://bücher.de/ä", "/ä", "/ä", "IDN host, raw UTF-8 path"},
	{"ftp://ftp.example.com/pub/x", "/pub/x", "/pub/x", "ftp"},
	{"HTTP://EXAMPLE.COM/A", "/A", "/A", "scheme in capitals"},
	{"file:///etc/x", "/etc/x", "/etc/x", "empty authority"},
	{"mailto:a@b", "/", "/", "scheme without authority: not a URL with a path, read as Google reads it"},
	{"urn:isbn:0451450523", "/", "/", ""},
	{"data:text/plain,hi", "/plain,hi", "/plain,hi", ""},
	{"http:/a/b", "/a/b", "/a/b", "scheme, absolute path, no authority"},
	{"http://a.com/a/b://c", "/a/b://c", "/a/b://c", ":// inside the path"},
	{"//host/p", "/p", "/p", "network-path reference"},
	{"//host", "/", "/", ""},
	{"//", "/", "/", ""},
	{"//a/b?c", "/b?c", "/b?c", ""},
	{"a/b", "/b", "/b", "no scheme: a is taken as the host, in every semantics"},
	{"www.example.com/private", "/private", "/private", "a URL without its scheme"},
	{"www.example.com", "/", "/", ""},
	{"www.example.com?q", "/?q", "/?q", ""},
	{"www.example.com#a/b", "/", "/", "a # before the path start"},
	{"example.com:8080/a;p?q", "/a;p?q", "/a;p?q", "host and port without a scheme"},
	{"foo", "/", "/", "no path at all"},
	{"?x", "/?x", "/?x", "query alone"},
	{";x", "/;x", "/;x", "params alone"},
	{"", "/", "/", "empty"},
	{"localhost:8080/x", "/x", "/x", "RFC 3986 would read localhost: as a scheme; no // follows, so it is read as Google reads it"},
	{"1http://a/b", "/b", "/b", "not an RFC 3986 scheme, read as Google reads it"},
	{"a+b-c.d://h/p", "/p", "/p", "scheme characters"},
	{"http://a.com/%7Ejoe", "/%7Ejoe", "/%7Ejoe", "extraction decodes nothing"},
}

// TestRFC9309_ExtractPath checks URL to path for RFC9309 and Koster1996
// (RFC 3986 section 3 / draft section 2.2.2: path, params and query, no
// fragment).
func TestRFC9309_ExtractPath(t *testing.T) {
	for _, sem := range []Semantics{RFC9309, Koster1996} {
		for _, c := range extractCases {
			got := ExtractPath(c.url, sem)
			if diff := cmp.Diff(c.rfc, got); diff != "" {
				t.Errorf("ExtractPath(%q, %v) (%s): -want +got:\n%s", c.url, sem, c.why, diff)
			}
		}
	}
}

// TestGoogle_ExtractPath checks URL to path as Google's robots.cc
// GetPathParamsQuery does (docs/SEMANTICS.md section 3.3).
func TestGoogle_ExtractPath(t *testing.T) {
	for _, c := range extractCases {
		got := ExtractPath(c.url, Google)
		if diff := cmp.Diff(c.google, got); diff != "" {
			t.Errorf("ExtractPath(%q, Google) (%s): -want +got:\n%s", c.url, c.why, diff)
		}
		if ref := googleRefPath(c.url); ref != got {
			t.Errorf("ExtractPath(%q, Google) = %q, Google's code gives %q", c.url, got, ref)
		}
	}
}

// TestRFC9309_PathSpan checks PathSpan's two results (docs/SEMANTICS.md
// section 3.3), input that is not a URL included, in every semantics.
func TestRFC9309_PathSpan(t *testing.T) {
	type span struct {
		Slash bool
		Path  string
	}
	cases := []struct {
		url  string
		sem  Semantics
		want span
	}{
		{"http://a.com/x?y", RFC9309, span{false, "/x?y"}},
		{"http://a.com", RFC9309, span{true, ""}},
		{"http://a.com?x", RFC9309, span{true, "?x"}},
		{"mailto:a@b", RFC9309, span{true, ""}},
		{"www.example.com/private", RFC9309, span{false, "/private"}},
		{"www.example.com/private", Koster1996, span{false, "/private"}},
		{"/x#y", Koster1996, span{false, "/x"}},
		{"a/b", Google, span{false, "/b"}},
		{"?x", Google, span{true, "?x"}},
		{"http://a.com", Google, span{true, ""}},
	}
	for _, c := range cases {
		slash, p := PathSpan(c.url, c.sem)
		if diff := cmp.Diff(c.want, span{slash, p}); diff != "" {
			t.Errorf("PathSpan(%q, %v): -want +got:\n%s", c.url, c.sem, diff)
		}
	}
}

type pathCase struct {
	url, want string
	why       string
}

// TestRFC9309_URLPath checks the canonical form of URL paths: draft section
// 2.2.2 (percent-encoding) and 2.2.3 (a URL's '*' and '$' match %2A and %24).
func TestRFC9309_URLPath(t *testing.T) {
	cases := []pathCase{
		{"https://www.example.com/foo/bar?baz=quz", "/foo/bar?baz=quz", "2.2.2 table row 1"},
		{"https://www.example.com/foo/bar?baz=http://foo.bar", "/foo/bar?baz=http://foo.bar",
			"2.2.2 table row 2: which reserved bytes are data cannot be known; literal ones stay literal"},
		{"https://www.example.com/foo/bar/ツ", "/foo/bar/%E3%83%84", "2.2.2 table row 3"},
		{"https://www.example.com/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84", "2.2.2 table row 4"},
		{"https://www.example.com/foo/bar/%62%61%7A", "/foo/bar/baz", "2.2.2 table row 5"},
		{"http://a.com/%7Ejoe", "/~joe", ""},
		{"http://a.com/~joe", "/~joe", ""},
		{"http://a.com/a%2fb", "/a%2Fb", "never /a/b"},
		{"http://a.com/a-*", "/a-%2A", "2.2.3: a literal * is %2A"},
		{"http://a.com/foo-$", "/foo-%24", "2.2.3: a literal $ is %24"},
		{"http://bücher.de/ä", "/%C3%A4", "IDN host dropped, path escaped"},
		{"http://a.com?%7e", "/?~", "query normalised too"},
		{"http://a.com", "/", ""},
		{"/%zz%", "/%zz%", ""},
	}
	for _, sem := range []Semantics{RFC9309, Koster1996} {
		for _, c := range cases {
			got := URLPath(c.url, sem)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("URLPath(%q, %v) (%s): -want +got:\n%s", c.url, sem, c.why, diff)
			}
			if again := normalizePath(got, sem); again != got {
				t.Errorf("normalizePath not idempotent on %q: %q", got, again)
			}
		}
	}
}

// TestGoogle_URLPath checks that Google uses the URL's path exactly as given
// (docs/SEMANTICS.md section 3.2).
func TestGoogle_URLPath(t *testing.T) {
	for _, c := range []pathCase{
		{"http://a.com/%62az", "/%62az", "not decoded: does not match Disallow: /baz"},
		{"http://a.com/%7ejoe", "/%7ejoe", "not even uppercased"},
		{"http://a.com/ツ", "/ツ", "raw UTF-8 stays raw"},
		{"http://a.com/a-*$", "/a-*$", ""},
		{"a?x", "/?x", "no scheme: the path starts at the first / ? ;"},
		{"a#x?y", "/", "a # before the path start"},
		{"?x", "/?x", ""},
	} {
		got := URLPath(c.url, Google)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("URLPath(%q, Google) (%s): -want +got:\n%s", c.url, c.why, diff)
		}
	}
}

// TestRFC9309_PatternMatchesURL checks the draft's section 2.2.3 table and
// section 2.2.2's equivalences: a pattern and a URL path written in different
// but equivalent encodings normalise to the same bytes.
func TestRFC9309_PatternMatchesURL(t *testing.T) {
	for _, c := range []struct{ pattern, url string }{
		{"/path/file-with-a-%2A.html", "https://www.example.com/path/file-with-a-*.html"},
		{"/path/foo-%24", "https://www.example.com/path/foo-$"},
		{"/~joe", "http://a.com/%7Ejoe"},
		{"/%7ejoe", "http://a.com/~joe"},
		{"/foo/bar/ツ", "http://a.com/foo/bar/%e3%83%84"},
		{"/foo/bar/%E3%83%84", "http://a.com/foo/bar/ツ"},
		{"/a%2fb", "http://a.com/a%2Fb"},
	} {
		for _, sem := range []Semantics{RFC9309, Koster1996} {
			p, u := NormalizePattern(c.pattern, sem), URLPath(c.url, sem)
			if p != u {
				t.Errorf("%v: pattern %q -> %q, URL %q -> %q; want equal", sem, c.pattern, p, c.url, u)
			}
		}
	}
	if p, u := NormalizePattern("/a/b", RFC9309), URLPath("http://a.com/a%2Fb", RFC9309); p == u {
		t.Errorf("/a/b and /a%%2Fb must differ, both are %q", p)
	}
}

// TestKoster1996_PatternIsLiteral checks that a Koster1996 pattern is
// normalised exactly as a URL path written the same way.
func TestKoster1996_PatternIsLiteral(t *testing.T) {
	for _, s := range normalizeInputs() {
		if p, u := NormalizePattern(s, Koster1996), normalizePath(s, Koster1996); p != u {
			t.Errorf("%q: pattern %q, path %q", s, p, u)
		}
	}
}

// TestNormalizePathInto checks that the chunks written with small buffers
// concatenate to normalizePath.
func TestNormalizePathInto(t *testing.T) {
	for _, sem := range allSemantics {
		for _, s := range normalizeInputs() {
			want := normalizePath(s, sem)
			for size := 3; size <= 8; size++ {
				if got := chunked(s, sem, size); got != want {
					t.Errorf("NormalizePathInto(%q, %v) with %d-byte chunks = %q, want %q", s, sem, size, got, want)
				}
			}
		}
	}
}

// chunked joins the chunks NormalizePathInto writes with a dst of size bytes.
func chunked(s string, sem Semantics, size int) string {
	var sb strings.Builder
	dst := make([]byte, size)
	for from := 0; from < len(s); {
		n, next := NormalizePathInto(dst, s, from, sem)
		if next <= from && n == 0 {
			return fmt.Sprintf("no progress at %d", from)
		}
		sb.Write(dst[:n])
		from = next
	}
	return sb.String()
}

func TestNormalizeZeroAllocs(t *testing.T) {
	canonicalPatterns := map[Semantics][]string{
		RFC9309:    {"/foo/bar?baz=quz", "/a*b$", "/%E3%83%84/%2F%zz%", "/a%24b*"},
		Google:     {"/%7E/a$b*$", "/%E3%83%84/%2F%zz%", "%%41"},
		Koster1996: {"/foo/%2A%24", "/%E3%83%84/%2F%zz%"},
	}
	for sem, ps := range canonicalPatterns {
		for _, p := range ps {
			if got := NormalizePattern(p, sem); got != p {
				t.Fatalf("test input %q is not canonical for %v: %q", p, sem, got)
			}
			if n := testing.AllocsPerRun(100, func() { NormalizePattern(p, sem) }); n != 0 {
				t.Errorf("NormalizePattern(%q, %v): %v allocs, want 0", p, sem, n)
			}
		}
	}
	for _, sem := range allSemantics {
		for _, u := range []string{"http://example.com/foo/bar?q=1", "/a/b;c?d#e", "http://a.com", "//h/x", "/%7e*$ツ"} {
			if n := testing.AllocsPerRun(100, func() { PathSpan(u, sem) }); n != 0 {
				t.Errorf("PathSpan(%q, %v): %v allocs, want 0", u, sem, n)
			}
		}
		path := "/foo/bar%2F%E3%83%84?q=%zz"
		if n := testing.AllocsPerRun(100, func() { normalizePath(path, sem) }); n != 0 {
			t.Errorf("normalizePath(%q, %v): %v allocs, want 0", path, sem, n)
		}
		url := "http://a.com" + path
		if n := testing.AllocsPerRun(100, func() { URLPath(url, sem) }); n != 0 {
			t.Errorf("URLPath(%q, %v): %v allocs, want 0", url, sem, n)
		}
		if n := testing.AllocsPerRun(100, func() { ExtractPath("http://a.com", sem) }); n != 0 {
			t.Errorf("ExtractPath(http://a.com, %v): %v allocs, want 0", sem, n)
		}
		dst := make([]byte, 5)
		weird := "/a*$ツ%7e%%41"
		if n := testing.AllocsPerRun(100, func() {
			for from := 0; from < len(weird); {
				_, from = NormalizePathInto(dst, weird, from, sem)
			}
		}); n != 0 {
			t.Errorf("NormalizePathInto(%q, %v): %v allocs, want 0", weird, sem, n)
		}
	}
	// Rewriting allocates the result once.
	if n := testing.AllocsPerRun(100, func() { NormalizePattern("/ツ/%7e", RFC9309) }); n != 1 {
		t.Errorf("NormalizePattern rewriting: %v allocs, want 1", n)
	}
	if n := testing.AllocsPerRun(100, func() { URLPath("http://a.com?ツ", RFC9309) }); n != 1 {
		t.Errorf("URLPath rewriting with a '/' in front: %v allocs, want 1", n)
	}
}

// TestNormalizeReference compares the fast normalisation with the naive
// reference on every input the tests know.
func TestNormalizeReference(t *testing.T) {
	for _, sem := range allSemantics {
		for _, s := range normalizeInputs() {
			if got, want := NormalizePattern(s, sem), refNormalize(s, sem, true); got != want {
				t.Errorf("NormalizePattern(%q, %v) = %q, reference %q", s, sem, got, want)
			}
			if got, want := normalizePath(s, sem), refNormalize(s, sem, false); got != want {
				t.Errorf("normalizePath(%q, %v) = %q, reference %q", s, sem, got, want)
			}
		}
	}
}

// TestURLPathCorpus checks the invariants of FuzzURLPath on every URL of the
// corpus (the urls folder of the directory $ROBOTSTXT_CORPUS names), when it
// is there.
func TestURLPathCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test skipped in -short mode")
	}
	urls := corpusURLs(t, 0)
	if len(urls) == 0 {
		t.Skip("no corpus URLs found")
	}
	for _, u := range urls {
		checkURLPath(t, u)
	}
	t.Logf("%d corpus URLs checked", len(urls))
}

// corpusURLs reads the corpus URL lists, at most limit URLs (0: all).
func corpusURLs(tb testing.TB, limit int) []string {
	files, _ := filepath.Glob(filepath.Join(corpus.Dir(tb), "urls", "*.txt"))
	var urls []string
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			tb.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); line != "" {
				urls = append(urls, line)
				if limit > 0 && len(urls) == limit {
					f.Close()
					return urls
				}
			}
		}
		f.Close()
	}
	return urls
}

// normalizeInputs returns every pattern, path and URL of the tables above,
// each also with a few prefixes and suffixes that stress the look-back.
func normalizeInputs() []string {
	var in []string
	for _, c := range rfcPercentCases {
		in = append(in, c.in, c.want)
	}
	for _, c := range extractCases {
		in = append(in, c.url, c.rfc)
	}
	in = append(in, "/a*b", "/a$", "$", "*", "/a$b$", "ツ", "%e3%83%84", "%7e%7E%2a%2A%24")
	var out []string
	for _, s := range in {
		for _, pre := range []string{"", "%", "%4", "/"} {
			for _, suf := range []string{"", "%", "$", "%6", "%61", "4"} {
				out = append(out, pre+s+suf)
			}
		}
	}
	return out
}

// refNormalize is a naive reference for NormalizePattern (pattern true) and
// normalizePath, written from docs/SEMANTICS.md section 3.2 and the file
// comment of normalize.go without the class table or the unchanged fast path.
// Test support only.
func refNormalize(s string, sem Semantics, pattern bool) string {
	if sem == Google && !pattern {
		return s
	}
	isHex := func(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			x, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			v := byte(x)
			unreserved := strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~", v) >= 0
			afterInvalid := strings.HasSuffix(s[:i], "%") || (i >= 2 && s[i-2] == '%' && isHex(s[i-1]))
			if sem != Google && unreserved && !(isHex(v) && afterInvalid) {
				b.WriteByte(v)
			} else {
				fmt.Fprintf(&b, "%%%02X", v)
			}
			i += 2
		case c >= 0x80:
			fmt.Fprintf(&b, "%%%02X", c)
		case c == '*' && (sem == Koster1996 || !pattern) && sem != Google:
			b.WriteString("%2A")
		case c == '$' && sem != Google && (sem == Koster1996 || !pattern || i < len(s)-1):
			b.WriteString("%24")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// googleRefPath is Google's robots.cc GetPathParamsQuery transcribed line by
// line, npos and all, as a reference for ExtractPath(_, Google). Test
// support only.
func googleRefPath(url string) string {
	const npos = int(^uint(0) >> 1)
	find := func(s string, from int, f func(string) int) int {
		if from > len(s) {
			return npos
		}
		if i := f(s[from:]); i >= 0 {
			return from + i
		}
		return npos
	}
	searchStart := 0
	if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
		searchStart = 2
	}
	earlyPath := find(url, searchStart, func(s string) int { return strings.IndexAny(s, "/?;") })
	protocolEnd := find(url, searchStart, func(s string) int { return strings.Index(s, "://") })
	if earlyPath < protocolEnd {
		protocolEnd = npos
	}
	if protocolEnd == npos {
		protocolEnd = searchStart
	} else {
		protocolEnd += 3
	}
	pathStart := find(url, protocolEnd, func(s string) int { return strings.IndexAny(s, "/?;") })
	if pathStart != npos {
		hashPos := find(url, searchStart, func(s string) int { return strings.IndexByte(s, '#') })
		if hashPos < pathStart {
			return "/"
		}
		pathEnd := len(url)
		if hashPos != npos {
			pathEnd = hashPos
		}
		if url[pathStart] != '/' {
			return "/" + url[pathStart:pathEnd]
		}
		return url[pathStart:pathEnd]
	}
	return "/"
}

// checkURLPath checks the invariants of URL to path on one URL, for every
// semantics.
func checkURLPath(t *testing.T, u string) {
	t.Helper()
	for _, sem := range allSemantics {
		slash, p := PathSpan(u, sem)
		if slash != (p == "" || p[0] != '/') {
			t.Errorf("PathSpan(%q, %v) = %v, %q: slash must say whether a '/' is missing", u, sem, slash, p)
		}
		if !strings.Contains(u, p) || strings.Contains(p, "#") {
			t.Errorf("PathSpan(%q, %v) = %q: not a fragment-free part of the URL", u, sem, p)
		}
		uslash, up := pathSpanUncut(u, sem)
		cut, _, _ := strings.Cut(up, "#")
		if uslash != slash || cut != p || !strings.HasSuffix(u, up) {
			t.Errorf("pathSpanUncut(%q, %v) = %v, %q: want the rest of the URL from PathSpan's %v, %q on", u, sem, uslash, up, slash, p)
		}
		path := ExtractPath(u, sem)
		if !strings.HasPrefix(path, "/") {
			t.Errorf("ExtractPath(%q, %v) = %q: does not start with /", u, sem, path)
		}
		if sem == Google {
			if ref := googleRefPath(u); ref != path {
				t.Errorf("ExtractPath(%q, Google) = %q, Google's code gives %q", u, path, ref)
			}
		}
		norm := normalizePath(path, sem)
		if got := URLPath(u, sem); got != norm {
			t.Errorf("URLPath(%q, %v) = %q, want normalizePath(ExtractPath) = %q", u, sem, got, norm)
		}
		if ref := refNormalize(path, sem, false); ref != norm {
			t.Errorf("normalizePath(%q, %v) = %q, reference %q", path, sem, norm, ref)
		}
		for size := 3; size <= 8; size++ {
			if got := chunked(path, sem, size); got != norm {
				t.Errorf("NormalizePathInto(%q, %v) with %d-byte chunks = %q, want %q", path, sem, size, got, norm)
			}
		}
		if again := normalizePath(norm, sem); again != norm {
			t.Errorf("normalizePath(%q, %v) not idempotent: %q -> %q", path, sem, norm, again)
		}
	}
}

// TestRewriteMask checks modeLiteral's rewriteMask, which says which bytes
// of a path need a closer look, against the canonical form itself: a path
// whose bytes are all outside it is left as it is, and each byte in it is
// rewritten in some context.
func TestRewriteMask(t *testing.T) {
	mask := modeLiteral.rewriteMask()
	for _, sem := range []Semantics{RFC9309, Koster1996} {
		for c := 0; c < 256; c++ {
			b := string([]byte{byte(c)})
			if class[c]&mask == 0 {
				if p := "/x" + b + "y" + b; normalizePath(p, sem) != p {
					t.Errorf("%s: %q is rewritten, but %#x is not in the mask", sem, p, c)
				}
				continue
			}
			changed := false
			for _, p := range []string{"/" + b, "/" + b + "7e", "/" + b + "41"} {
				changed = changed || normalizePath(p, sem) != p
			}
			if !changed {
				t.Errorf("%s: %#x is in the mask but never rewritten", sem, c)
			}
		}
	}
}

// normalizePath returns an extracted path (see ExtractPath) in the canonical
// form of sem (see URLPath). It is the definition that NormalizePathInto
// streams and URLPath composes with ExtractPath; the tests check both
// against it. It is idempotent, returns path itself without allocating when
// nothing changes, allocates the result once otherwise, and runs in linear
// time.
func normalizePath(path string, sem Semantics) string {
	if sem == Google {
		return path
	}
	return normalize("", path, modeLiteral)
}

// TestAppendPath checks AppendPath against URLPath's canonical form, with
// and without room in dst.
func TestAppendPath(t *testing.T) {
	for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
		for _, p := range []string{"", "/a", "/%7ejoe/ä?x=*$", "/%zz%4", strings.Repeat("/\xff%41", 100)} {
			want := normalizePath(p, sem)
			if got := string(AppendPath(nil, p, sem)); got != want {
				t.Errorf("%s: AppendPath(nil, %q) = %q, want %q", sem, p, got, want)
			}
			dst := append(make([]byte, 0, 4*len(p)+8), "xy"...)
			if got := string(AppendPath(dst, p, sem)); got != "xy"+want {
				t.Errorf("%s: AppendPath(\"xy\", %q) = %q, want %q", sem, p, got, "xy"+want)
			}
		}
	}
}
