package gen

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
)

// Sizes the adversarial cases are built around. They repeat the parser's
// limits (compile.DefaultMaxFileSize, compile.MaxLineLength) rather than
// import them, so that compile's own tests may use this package without an
// import cycle; adversarial_test.go checks that they agree.
const (
	// MaxFileSize is the number of bytes of a robots.txt that are read.
	MaxFileSize = 512000
	// MaxLineLength is the number of bytes of a line that are kept.
	MaxLineLength = 16663
	// OversizeFile is the size of the case past the file size limit: six
	// times it, as large as the largest real files (3.7 MB).
	OversizeFile = 3 << 20
	// LongURL is the length of the long URLs every case comes with: 64 KiB,
	// past what servers accept (8 to 16 KiB) and browsers send (2 KiB to
	// 64 KiB), so that whatever a crawler is handed has been tried.
	LongURL = 64 << 10
	// StarsPerRule is the least number of '*' of a rule in the wildcard
	// cases.
	StarsPerRule = 50
)

// Case is one adversarial input: a robots.txt body and URLs to decide
// against it.
type Case struct {
	// Name says what the case attacks, usable as a sub-test name.
	Name string
	// Body is the robots.txt.
	Body []byte
	// URLs are paths and absolute URLs to decide: short ones (at most a few
	// hundred bytes) first, then long ones (about LongURL bytes). Every case
	// has both.
	URLs []string
}

// Agents are the crawlers the cases are written for: groups of the cases
// name them, so that deciding for them selects the specific groups (and
// for any other token, the "*" groups).
var Agents = []string{"Googlebot", "AdversarialBot"}

// Adversarial returns the worst cases for each stage of the library, built
// deterministically from seed (the same seed gives the same bytes):
//
//   - parser: a file of exactly MaxFileSize bytes of about 30,000 tiny
//     rules; a file of OversizeFile bytes; binary junk; invalid UTF-8; NUL
//     bytes and UTF-16; every line ending (LF, CR LF, CR, mixed); a line of
//     MaxLineLength bytes and one past it;
//   - selection: thousands of user-agent lines in one group, and thousands
//     of groups (hundreds of them for the same crawler, merged);
//   - automaton construction: rules with StarsPerRule or more '*' between
//     overlapping literals (/*a*a*a...), many of them, up to the size limit;
//     thousands of rules all starting with '*' (a dictionary of words, as
//     real files list them); one rule of MaxLineLength bytes of wildcards;
//   - URL normalisation: invalid, truncated and overlong percent-escapes
//     (%, %4, %zz, %C0%AF, %25%32%66) in rules and URLs, and URLs of LongURL
//     bytes made of them.
func Adversarial(seed int64) []Case {
	r := rand.New(rand.NewSource(seed))
	cases := []Case{
		{Name: "empty", Body: nil},
		maxSizeTinyRules(r),
		maxSizeTinyWildcards(r),
		wildcards50(r, 200, "wildcards-50-overlap"),
		wildcardsMaxSize(r),
		starDictionary(r),
		manyAgentLines(r),
		manyGroups(r),
		longLine(r, true),
		longLine(r, false),
		oversize(r),
		binaryJunk(r),
		invalidUTF8(r),
		nulBytes(r),
		percentEscapes(),
	}
	for _, eol := range []struct{ name, sep string }{
		{"eol-lf", "\n"}, {"eol-crlf", "\r\n"}, {"eol-cr", "\r"}, {"eol-mixed", ""},
	} {
		cases = append(cases, lineEndings(eol.name, eol.sep))
	}
	for i := range cases {
		all := append(caseURLs(r, cases[i].Body), cases[i].URLs...)
		var short, long []string
		for _, u := range all {
			if len(u) >= LongURL/2 {
				long = append(long, u)
			} else {
				short = append(short, u)
			}
		}
		cases[i].URLs = append(short, long...)
	}
	return cases
}

// LineEndingCases are the names of the cases that hold the same rules
// written with different line ends: they must decide every URL alike.
var LineEndingCases = []string{"eol-lf", "eol-crlf", "eol-cr", "eol-mixed"}

// fill writes lines made by next to b until one more would pass size, then
// pads with a comment line so that b has exactly size bytes. It returns the
// number of lines next made.
func fill(b *strings.Builder, size int, next func(i int) string) int {
	i := 0
	for {
		l := next(i)
		if b.Len()+len(l)+1 > size-16 { // leave room for the padding comment
			break
		}
		b.WriteString(l)
		b.WriteByte('\n')
		i++
	}
	if pad := size - b.Len(); pad > 0 {
		// "#" + pad-2 bytes + "\n", or just newlines when pad is tiny.
		if pad >= 2 {
			b.WriteString("#" + strings.Repeat("-", pad-2) + "\n")
		} else {
			b.WriteString(strings.Repeat("\n", pad))
		}
	}
	return i
}

// base36 spells i in lower-case base 36: distinct short literals.
func base36(i int) string { return strconv.FormatInt(int64(i), 36) }

// maxSizeTinyRules is exactly MaxFileSize bytes: one "*" group and about
// 30,000 rules of a few bytes, mostly distinct literals, some with a '*' or
// a '$', in an order that does not share prefixes.
func maxSizeTinyRules(r *rand.Rand) Case {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	perm := r.Perm(60000)
	fill(&b, MaxFileSize, func(i int) string {
		kind := "Disallow:"
		if i%5 == 0 {
			kind = "Allow:"
		}
		v := "/" + base36(perm[i%len(perm)]+36*36)
		switch i % 8 {
		case 3:
			v = v[:2] + "*" + v[2:]
		case 6:
			v += "$"
		}
		return kind + v
	})
	return Case{Name: "max-size-tiny-rules", Body: []byte(b.String())}
}

// maxSizeTinyWildcards is exactly MaxFileSize bytes of rules that all start
// with "/*": every rule is alive at every byte of the URL, as in files that
// list thousands of forbidden words or extensions.
func maxSizeTinyWildcards(r *rand.Rand) Case {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	perm := r.Perm(60000)
	fill(&b, MaxFileSize, func(i int) string {
		v := "/*" + base36(perm[i%len(perm)])
		if i%3 == 0 {
			v += "$"
		}
		return "Disallow:" + v
	})
	return Case{Name: "max-size-tiny-wildcards", Body: []byte(b.String())}
}

// wildcardRule returns a rule value with at least StarsPerRule '*' between
// literals from a two-letter alphabet, so that rules overlap each other and
// themselves: /*a*a*b*a*...
func wildcardRule(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("/")
	stars := StarsPerRule + r.Intn(20)
	for s := 0; s < stars; s++ {
		b.WriteByte('*')
		n := 1 + r.Intn(2)
		for k := 0; k < n; k++ {
			b.WriteByte("aab"[r.Intn(3)])
		}
	}
	if r.Intn(3) == 0 {
		b.WriteByte('$')
	}
	return b.String()
}

// wildcards50 has n rules of wildcardRule for Googlebot, allow and disallow
// mixed, and a "*" group with a few of them.
func wildcards50(r *rand.Rand, n int, name string) Case {
	var b strings.Builder
	b.WriteString("User-agent: Googlebot\nUser-agent: AdversarialBot\n")
	for i := 0; i < n; i++ {
		kind := "Disallow"
		if i%4 == 1 {
			kind = "Allow"
		}
		fmt.Fprintf(&b, "%s: %s\n", kind, wildcardRule(r))
	}
	b.WriteString("\nUser-agent: *\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, "Disallow: %s\n", wildcardRule(r))
	}
	return Case{Name: name, Body: []byte(b.String()), URLs: []string{
		"/" + strings.Repeat("a", 200),
		"/" + strings.Repeat("ab", 100),
		long("/", "a"),
		long("/", "ab"),
	}}
}

// wildcardsMaxSize is wildcards50 up to the file size limit: thousands of
// rules of 50 and more '*'.
func wildcardsMaxSize(r *rand.Rand) Case {
	var b strings.Builder
	b.WriteString("User-agent: *\nUser-agent: Googlebot\n")
	fill(&b, MaxFileSize, func(i int) string {
		kind := "Disallow: "
		if i%4 == 1 {
			kind = "Allow: "
		}
		return kind + wildcardRule(r)
	})
	return Case{Name: "wildcards-max-size", Body: []byte(b.String()), URLs: []string{
		"/" + strings.Repeat("a", 300),
		long("/", "a"),
		long("/", "ba"),
	}}
}

// word returns a random word of 4 to 14 letters, sometimes hyphenated,
// sometimes with non-ASCII letters (which normalise to %HH).
func word(r *rand.Rand) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	var b strings.Builder
	n := 4 + r.Intn(11)
	for i := 0; i < n; i++ {
		switch {
		case i > 1 && i < n-1 && r.Intn(9) == 0:
			b.WriteByte('-')
		case r.Intn(25) == 0:
			b.WriteString([]string{"ç", "ı", "ü", "é", "ヌ"}[r.Intn(5)])
		default:
			b.WriteByte(letters[r.Intn(len(letters))])
		}
	}
	return b.String()
}

// starDictionary is the shape of the real file that made compilation take
// 47 s: about a thousand rules "/*/*WORD.html", every one alive at every
// byte, plus a few with a second '*'.
func starDictionary(r *rand.Rand) Case {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /testfl/\n")
	var words []string
	for i := 0; i < 1000; i++ {
		w := word(r)
		words = append(words, w)
		switch i % 10 {
		case 0:
			fmt.Fprintf(&b, "Disallow: /*/*%s*.html\n", w)
		case 1:
			fmt.Fprintf(&b, "Disallow: /*/%s.html\n", w)
		default:
			fmt.Fprintf(&b, "Disallow: /*/*%s.html\n", w)
		}
	}
	return Case{Name: "star-dictionary-1000", Body: []byte(b.String()), URLs: []string{
		"/photos/a-" + words[2] + ".html",
		"/x/" + words[1] + ".html",
		"/x/" + words[0] + "-big.html",
		long("/", words[3]),
	}}
}

// manyAgentLines is one group of 20,000 user-agent lines (Googlebot among
// them, at the end) sharing a few rules, then a "*" group.
func manyAgentLines(r *rand.Rand) Case {
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "User-agent: bot-%s\n", base36(r.Intn(1<<30)))
	}
	b.WriteString("User-agent: Googlebot\nDisallow: /private/\nAllow: /private/ok\nDisallow: /*.pdf$\n\nUser-agent: *\nDisallow: /\n")
	return Case{Name: "agents-20000-lines", Body: []byte(b.String()), URLs: []string{
		"/private/x", "/private/ok", "/a.pdf", "/public",
	}}
}

// manyGroups is 12,000 groups of one user-agent and one rule; one in six is
// for Googlebot and one in ten for "*", so that selection merges thousands
// of groups.
func manyGroups(r *rand.Rand) Case {
	var b strings.Builder
	for i := 0; i < 12000; i++ {
		agent := "bot" + base36(i)
		switch {
		case i%6 == 0:
			agent = "Googlebot"
		case i%10 == 0:
			agent = "*"
		case i%7 == 0:
			agent = "googlebot/2.1 (+http://www.google.com/bot.html)"
		}
		kind := "Disallow"
		if r.Intn(4) == 0 {
			kind = "Allow"
		}
		fmt.Fprintf(&b, "User-agent: %s\n%s: /%s/%s\n\n", agent, kind, base36(i), word(r))
	}
	return Case{Name: "groups-12000", Body: []byte(b.String()), URLs: []string{
		"/0/", "/c/x", "/" + base36(11994) + "/",
	}}
}

// longLine is a file whose one rule is exactly MaxLineLength bytes long
// (within, true) or 3 KiB longer, so that its end is dropped (within,
// false). The rule alternates literals and '*': a single pattern of
// thousands of wildcards.
func longLine(r *rand.Rand, within bool) Case {
	const prefix = "Disallow: /"
	var v strings.Builder
	for v.Len() < MaxLineLength {
		v.WriteString("*")
		v.WriteByte("abc"[r.Intn(3)])
	}
	total := MaxLineLength
	name := "line-16k-wildcards"
	if !within {
		total += 3 << 10
		name = "line-over-limit"
	}
	line := (prefix + v.String() + strings.Repeat("z/*x", 1<<10))[:total]
	body := "User-agent: *\nAllow: /a\n" + line + "\nDisallow: /after-the-long-line\n"
	return Case{Name: name, Body: []byte(body), URLs: []string{
		"/after-the-long-line",
		"/" + strings.Repeat("abc", 400),
		long("/", "abc"),
	}}
}

// oversize is OversizeFile bytes: rules all the way, so that the reader
// must stop at MaxFileSize. Past the limit comes "Disallow: /" for
// Googlebot, which must not count.
func oversize(r *rand.Rand) Case {
	var b strings.Builder
	b.WriteString("User-agent: Googlebot\nDisallow: /before-the-limit\n")
	i := 0
	for b.Len() < MaxFileSize+1024 {
		fmt.Fprintf(&b, "Allow: /%s/%d\n", word(r), i)
		i++
	}
	b.WriteString("User-agent: Googlebot\nDisallow: /\n")
	for b.Len() < OversizeFile-64 {
		fmt.Fprintf(&b, "Disallow: /after/%d\n", i)
		i++
	}
	b.WriteString(strings.Repeat("#", OversizeFile-b.Len()))
	return Case{Name: "oversize-3MiB", Body: []byte(b.String()), URLs: []string{
		"/before-the-limit", "/after/1", "/anything",
	}}
}

// binaryJunk is MaxFileSize+1 random bytes (so also truncated), with a few
// directives spliced in where a line might start.
func binaryJunk(r *rand.Rand) Case {
	body := make([]byte, MaxFileSize+1)
	r.Read(body)
	for k := 0; k < 200; k++ {
		at := r.Intn(len(body) - 64)
		copy(body[at:], "\nUser-agent: *\nDisallow: /j\n")
	}
	return Case{Name: "binary-junk", Body: body, URLs: []string{"/j", "/k"}}
}

// invalidUTF8 puts invalid UTF-8 everywhere a line can hold it: keys,
// agents, values, comments, and a byte-order mark in the wrong place.
func invalidUTF8(r *rand.Rand) Case {
	bad := []string{"\xff", "\xfe\xff", "\xc0\xaf", "\xed\xa0\x80", "\xe2\x82", "\xf4\x90\x80\x80", "\x80", "\xef\xbb\xbf"}
	var b strings.Builder
	b.WriteString("\xef\xbb User-agent: *\n") // a truncated BOM, then a line
	for i := 0; i < 400; i++ {
		x := bad[i%len(bad)]
		switch i % 6 {
		case 0:
			fmt.Fprintf(&b, "User-agent: Google%sbot\n", x)
		case 1:
			fmt.Fprintf(&b, "Dis%sallow: /k%d\n", x, i)
		case 2:
			fmt.Fprintf(&b, "Disallow: /%s%d/\n", x, i)
		case 3:
			fmt.Fprintf(&b, "Allow: /*%s*%s$\n", x, bad[r.Intn(len(bad))])
		case 4:
			fmt.Fprintf(&b, "# %s\nUser-agent: %sGooglebot\n", x, x)
		default:
			fmt.Fprintf(&b, "Disallow: /ok%d # %s\n", i, x)
		}
	}
	return Case{Name: "invalid-utf8", Body: []byte(b.String()), URLs: []string{
		"/\xff2/", "/%FF2/", "/\xc0\xaf", "/%C0%AF", "/ok5", "/\xed\xa0\x80" + "14/",
		long("/", "\xc0\xaf"),
	}}
}

// nulBytes holds NUL bytes inside lines, lines that are only NULs, and the
// same rules in UTF-16 (little-endian, with its byte-order mark), as
// servers send them by mistake.
func nulBytes(r *rand.Rand) Case {
	plain := "User-agent: *\nDisallow: /private/\nAllow: /private/public\n"
	var b strings.Builder
	b.WriteString("User-agent: Googlebot\x00Evil\nDisallow: /a\x00/b\n\x00\x00\x00\n")
	b.WriteString("Allow: /\x00\nDisallow: /nul\x00Disallow: /\n\x00User-agent: *\n")
	b.WriteString("\xff\xfe")
	for i := 0; i < len(plain); i++ {
		b.WriteByte(plain[i])
		b.WriteByte(0)
	}
	b.WriteString("\nUser-agent: *\nDisallow: /c\x00d\n")
	junk := make([]byte, 4096)
	r.Read(junk)
	for i := range junk {
		if i%3 == 0 {
			junk[i] = 0
		}
	}
	b.Write(junk)
	return Case{Name: "nul-bytes", Body: []byte(b.String()), URLs: []string{
		"/a", "/a\x00/b", "/nul", "/c", "/private/x", "/\x00", long("/", "\x00"),
	}}
}

// percentEscapes has rules and URLs with escapes that are invalid
// (%zz), truncated (%, %4 at the end), overlong UTF-8 (%C0%AF), double
// encoded (%25%32%66), of reserved and unreserved bytes, in both cases.
func percentEscapes() Case {
	rules := []string{
		"/%", "/a%", "/b%4", "/%zz", "/%C0%AF", "/%c0%af/", "/%25%32%66", "/%2f", "/%2F/x",
		"/%7Ejoe", "/~ann", "/%41%42", "/*%zz*%$", "/*%4$", "/%%41", "/%%%", "/%2A", "/%24$",
		"/*%25*", "/q?%3D%3d=", "/%e2%82%ac", "/€",
	}
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i, v := range rules {
		kind := "Disallow"
		if i%3 == 2 {
			kind = "Allow"
		}
		fmt.Fprintf(&b, "%s: %s\n", kind, v)
	}
	urls := []string{
		"/%", "/%4", "/%zz", "/%C0%AF", "/%c0%af/", "/%25%32%66", "/%2f", "/%2F", "/a/b", "/%2fx",
		"/~joe", "/%7ejoe", "/%7Eann", "/AB", "/%41B", "/x%zz%", "/x%4", "/%%41", "/%%%", "/*",
		"/$", "/q?==", "/q?%3d%3D=", "/€", "/%E2%82%AC", "/%e2%82%ac",
		"http://example.com/%zz", "http://example.com/%", "http://example.com/a%2",
	}
	for _, unit := range []string{"%", "%4", "%zz", "%C0%AF", "%25%32%66", "%7e", "%%41"} {
		urls = append(urls, long("/", unit))
	}
	return Case{Name: "percent-escapes", Body: []byte(b.String()), URLs: urls}
}

// lineEndings writes the same file with every line ended by sep; an empty
// sep mixes LF, CR LF, CR and LF CR (two line ends), and leaves the last
// line without one.
func lineEndings(name, sep string) Case {
	lines := []string{
		"User-agent: Googlebot", "Disallow: /private/", "Allow: /private/open", "Disallow: /*.pdf$",
		"", "User-agent: *", "Disallow: /tmp/", "Disallow: /*?session=", "# the end",
	}
	seps := []string{"\n", "\r\n", "\r", "\n\r"}
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		switch {
		case sep != "":
			b.WriteString(sep)
		case i < len(lines)-1:
			b.WriteString(seps[i%len(seps)])
		}
	}
	return Case{Name: name, Body: []byte(b.String()), URLs: []string{
		"/private/x", "/private/open", "/a.pdf", "/a.pdf?x", "/tmp/a", "/?session=1", "/index.html",
	}}
}

// long returns prefix followed by unit repeated, cut to LongURL bytes (the
// cut may split the last unit: a truncated escape at the end).
func long(prefix, unit string) string {
	return (prefix + strings.Repeat(unit, LongURL/len(unit)+1))[:LongURL]
}

// caseURLs returns the URLs every case is decided with: short ones that
// hit and miss the body's first rules, the edge cases of URL syntax, and
// long ones (LongURL bytes) that normalise to three times their size or
// that keep wildcard patterns alive to the end.
func caseURLs(r *rand.Rand, body []byte) []string {
	urls := []string{
		"/", "/robots.txt", "http://example.com/", "https://Example.COM:443/a?b#c", "//x/y", "?q", "/a;p?q",
		"/%", "/%4", "/%zz", "/%C0%AF", "/%25%32%66", "/*", "/$",
	}
	// A few rules of the body, with their wildcards filled in.
	lines := strings.Split(string(body), "\n")
	for k := 0; k < 6 && len(lines) > 0; k++ {
		l := lines[r.Intn(len(lines))]
		i := strings.IndexByte(l, ':')
		if i < 0 {
			continue
		}
		v := strings.TrimSpace(l[i+1:])
		if !strings.HasPrefix(v, "/") {
			continue
		}
		v = strings.ReplaceAll(strings.TrimSuffix(v, "$"), "*", "x/")
		if len(v) > 512 {
			v = v[:512]
		}
		urls = append(urls, v, v+"/tail")
	}
	return append(urls,
		long("/", "a"),
		long("/", "\xff"),
		long("http://example.com/", "*$"),
		long("/", "%zz"),
		long("/", "seg/")[:LongURL-65]+"?"+strings.Repeat("q=1&", 16),
	)
}
