package compile

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
)

// maxParseFuzzInput bounds the fuzzer's inputs: 64 KiB reach every line-level
// limit except the file size limit (tested in TestRFC9309_ScanSizeLimit)
// while keeping each execution fast.
const maxParseFuzzInput = 64 << 10

// fuzzSeeds are bodies that have broken parsers before: every line end,
// byte-order marks, NULs, long lines, missing colons, typos, HTML, Koster
// records.
var fuzzSeeds = []string{
	"",
	"User-agent: *\nDisallow: /private/\nAllow: /private/public$\nSitemap: https://a/s.xml\n",
	"\xEF\xBB\xBFuser-agent: a\r\ndisallow: /x\r\rallow: /y\n\r",
	"\xEF\xBBUser-agent: a\n\xEF\xBB\xBFDisallow: /x",
	"user-agent a\ndisallow /x /y\nDisallow /z\nuseragent: b\ndisalow: /%7ejoe\nsite-map: s",
	"user-agent: a\n\nuser-agent: b\ndisallow:\n\ndisallow: /c\ncrawl-delay: x",
	"<html><body>\nUser-agent: *\nDisallow: /\n</body></html>",
	"disallow: /a\x00b\n\x00\nuser-agent: *\x00x\nallow: /\xff\xfe",
	"\xFF\xFEU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00",
	"user-agent: *foo\nuser-agent: * bar\nuser-agent:\nDisallow: /*$$*%%41%2a$\n",
	"user-agent: a\ndisallow: /" + strings.Repeat("x", MaxLineLength) + "\nallow: /y",
	"#\n#:\n:\n: x\n \t\n\t#\nhost: h\nclean-param: a /b\nrequest-rate: 1/5\nnoindex: /n",
}

// FuzzParse checks that Parse never panics and that every File it returns
// keeps its invariants, in all three semantics:
//
//   - Size is min(len(body), limit), Lines is what a naive line splitter
//     counts;
//   - diagnostics are sorted by line, every line within 1..Lines, except
//     DiagTruncated which may name Lines+1 (the line after the last one read,
//     when the limit falls on a line end);
//   - agents and rules are in increasing line order within a group, and
//     groups follow each other; rules have a value and their pattern is
//     NormalizePattern of it, which is idempotent.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	for _, body := range corpusSeeds(f) {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > maxParseFuzzInput {
			t.Skip()
		}
		for _, sem := range []Semantics{RFC9309, Google, Koster1996} {
			checkFile(t, body, Parse(body, Options{Semantics: sem}))
		}
		checkKeepsNothing(t, body)
	})
}

// checkFile fails t when f, parsed from body, breaks an invariant of
// FuzzParse. The message holds a reproducer to paste into a test.
func checkFile(t *testing.T, body []byte, f *File) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("Parse([]byte(%q), Options{Semantics: %v}): "+format, append([]any{body, f.Semantics}, args...)...)
	}
	limit := Options{}.EffectiveMaxFileSize()
	if want := min(len(body), limit); f.Size != want || f.Truncated != (len(body) > limit) {
		fail("Size %d Truncated %v, want %d %v", f.Size, f.Truncated, want, len(body) > limit)
	}
	if want := naiveLines(body[:f.Size]); f.Lines != want {
		fail("Lines = %d, want %d", f.Lines, want)
	}
	prev := 1
	for _, d := range f.Diagnostics {
		last := f.Lines
		if d.Kind == DiagTruncated {
			last++
		}
		if d.Line < prev || d.Line > last {
			fail("diagnostic %v out of order or outside 1..%d", d, last)
		}
		if d.Message == "" || len(d.Text) > maxDiagText {
			fail("diagnostic %v: empty message or text of %d bytes", d, len(d.Text))
		}
		prev = d.Line
	}
	line := 0 // the last line seen in the groups so far
	for gi, g := range f.Groups {
		if g.Agents.Len() == 0 {
			fail("group %d has no agent", gi)
		}
		for _, a := range g.Agents.Slice() {
			if a.Line <= line || a.Name != AgentName(a.Value) {
				fail("group %d: agent %+v after line %d or wrong name", gi, a, line)
			}
			line = a.Line
		}
		first := g.Agents.At(0).Line
		for _, r := range g.Rules.Slice() {
			if r.Line <= line || r.Line > f.Lines {
				fail("group %d: rule %+v after line %d or past the end", gi, r, line)
			}
			line = r.Line
			if r.Value == "" || r.Pattern != NormalizePattern(r.Value, f.Semantics) {
				fail("group %d: rule %+v: empty value or pattern not normalised", gi, r)
			}
			if again := NormalizePattern(r.Pattern, f.Semantics); again != r.Pattern {
				fail("NormalizePattern(%q, %v) = %q: not idempotent", r.Pattern, f.Semantics, again)
			}
		}
		for _, e := range g.Extensions.Slice() {
			if e.Line <= first || e.Line > f.Lines || e.Key != strings.ToLower(e.Key) {
				fail("group %d: extension %+v before its agents or key not lower case", gi, e)
			}
			line = max(line, e.Line)
		}
	}
	for i, s := range f.Sitemaps.Slice() {
		if s.Line < 1 || s.Line > f.Lines || i > 0 && s.Line <= f.Sitemaps.At(i-1).Line {
			fail("sitemap %+v out of order", s)
		}
	}
}

// naiveLines counts the lines of body the obvious way: skip a (possibly
// truncated) byte-order mark, make every line end an LF, split.
func naiveLines(body []byte) int {
	s := string(body)
	for _, p := range []string{"\xEF\xBB\xBF", "\xEF\xBB", "\xEF"} {
		if strings.HasPrefix(s, p) {
			s = s[len(p):]
			break
		}
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

// corpusSeeds returns the bodies of the corpus's unusual files (WEIRD.tsv)
// that fit maxParseFuzzInput, or nothing when the corpus is absent.
func corpusSeeds(tb testing.TB) [][]byte {
	dir := corpus.Dir(tb)
	if dir == "" {
		return nil
	}
	list, err := os.Open(filepath.Join(dir, "WEIRD.tsv"))
	if err != nil {
		return nil
	}
	defer list.Close()
	var seeds [][]byte
	sc := bufio.NewScanner(list)
	for sc.Scan() {
		name, _, _ := strings.Cut(sc.Text(), "\t")
		if !strings.HasPrefix(name, "files/") {
			continue // the header
		}
		body, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil && len(body) <= maxParseFuzzInput {
			seeds = append(seeds, body)
		}
	}
	return seeds
}

// checkKeepsNothing checks that a File keeps nothing of the body it was
// parsed from: once the caller's bytes are overwritten, it still equals the
// File of the body as it was.
func checkKeepsNothing(t *testing.T, body []byte) {
	t.Helper()
	mine := append([]byte(nil), body...)
	got := Parse(mine, Options{Semantics: Google})
	for i := range mine {
		mine[i] = 'X'
	}
	want := Parse(body, Options{Semantics: Google})
	// The File's text is compared through the strings that view it.
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(File{})); diff != "" {
		t.Fatalf("the File changed when the body it was parsed from was overwritten (-want +got):\n%s", diff)
	}
}

// TestParse_KeepsNothingOfBody checks that Parse copies out every string
// the File holds (it reads the body without copying it): on lines of every
// kind, and on the corpus.
func TestParse_KeepsNothingOfBody(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 40; i++ {
		b.WriteString("# a comment line that takes room, as real files have them\n")
		b.WriteString("User-agent: Bot" + strings.Repeat("x", i%3) + "/1.0\n")
		b.WriteString("Disallow: /private/" + strings.Repeat("ab", i%5) + "  # why\n")
		b.WriteString("Allow: /p%7e/index.html\nallow: /" + strings.Repeat("v", 600) + "\n")
		b.WriteString("Crawl-Delay: 10\nX-Unknown: y\nSitemap: https://example.com/s.xml\nNoindex /x\nuseragent: z\n\n")
	}
	b.WriteString("<html>\ndisallow: /a\x00b\n\xff\xfe\nuser-agent: * x\nuser-agent:\n")
	checkKeepsNothing(t, []byte(b.String()))
	for _, s := range fuzzSeeds {
		checkKeepsNothing(t, []byte(s))
	}
	for _, f := range corpus.TestFiles(t, 300) {
		body, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		checkKeepsNothing(t, body)
	}
}
