package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/engine/page"
)

const pageUsage = `Usage: robotstxt page --agent TOKEN... [--header 'Name: value']... [--html FILE] [--robots FILE --url URL] [--tdmrep FILE] [--format text|json]

Says what a fetched page says to the crawler: whether it may index the page,
follow its links, keep a copy, how long a snippet and how large an image or
video preview it may show, whether it may index the page's images, offer a
translation, index it when embedded, until when it may show it, and whether
it may train AI on it and use it for search. The sources are the response's
X-Robots-Tag lines (--header), the HTML's robots meta tags and those named
like one of the crawler's tokens, anywhere in the document (--html), the TDM
Reservation Protocol (tdm-reservation and tdm-policy as header and meta, over
the rule of the origin's tdmrep.json for the URL, --tdmrep), the
Content-Usage header, and the site's robots.txt for the URL (--robots and
--url: its Content-Usage and Content-Signal lines; a URL it disallows has no
answer). The most restrictive directive wins, a specific one never undoing a
generic one; TDMRep's meta overrides its header, which overrides the file.
docs/SEMANTICS.md section 8 gives every rule.

The text output is one line per answer, "name: value", then what decided it
in parentheses; ai_train and search are followed by each source's own
answer, indented. It is for people and may change. --format json prints one
object with the keys index, follow, archive, image_index, translate,
index_if_embedded, noai, noimageai (booleans), snippet and video_preview
(integers, -1 no limit), image_preview (none, standard or large),
unavailable_after (RFC 3339 in UTC, or ""), ai_train and search (y, n or
unknown; "-" for a disallowed URL), ai_input (y, n or unknown), use (a
Content-Signal use= level, or ""), tdm_reservation (0, 1 or null),
tdm_policy (a URL or ""), disallowed, truncated (the HTML was longer than
15 MiB and its end was not read), decided (for each answer some source
decided, what did: "X-Robots-Tag line 2 (Googlebot)", "meta line 12") and
sources (for ai_train and search, each source's own y or n).

Flags:
  --agent TOKEN         a product token of the crawler (at least one;
                        repeatable; "" asks for directives to every crawler)
  --header LINE         a response header field line, "Name: value"
                        (repeatable, in order)
  --html FILE           the page's HTML (- for standard input)
  --robots FILE         the site's robots.txt (needs --url)
  --url URL             the page's URL (for --robots and --tdmrep)
  --tdmrep FILE         the origin's /.well-known/tdmrep.json (needs --url)
  --format F            text (default) or json

Exit status: 0 an answer was given; 2 bad usage, or a file that cannot be
read.
`

// headersFlag collects every --header, checked as it is set.
type headersFlag []string

func (h *headersFlag) String() string { return strings.Join(*h, "\n") }
func (h *headersFlag) Set(s string) error {
	name, _, ok := strings.Cut(s, ":")
	if !ok || strings.TrimSpace(name) == "" || strings.ContainsAny(strings.TrimSpace(name), " \t\r\n") || strings.ContainsAny(s, "\r\n") {
		return fmt.Errorf("want a field line Name: value")
	}
	*h = append(*h, s)
	return nil
}

func init() {
	commandUsage["page"] = pageUsage
	flagWants["header"] = "a header field line such as 'X-Robots-Tag: noindex'"
	flagWants["html"] = "an HTML file, or - for standard input"
	flagWants["url"] = "the page's URL, such as https://example.com/a"
	flagWants["tdmrep"] = "a tdmrep.json file"
}

// pageFlags are page's flags.
type pageFlags struct {
	agents                    agentsFlag
	headers                   headersFlag
	html, robots, url, tdmrep string
	format                    string
}

func runPage(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("page")
	var f pageFlags
	fs.Var(&f.agents, "agent", "")
	fs.Var(&f.headers, "header", "")
	fs.StringVar(&f.html, "html", "", "")
	fs.StringVar(&f.robots, "robots", "", "")
	fs.StringVar(&f.url, "url", "", "")
	fs.StringVar(&f.tdmrep, "tdmrep", "", "")
	fs.StringVar(&f.format, "format", "text", "")
	pos, status, done := parseFlags(fs, args, pageUsage, stdout, stderr)
	if done {
		return status
	}
	switch {
	case len(pos) > 0:
		return fail(stderr, "page: unexpected argument %s (the page is given by --header and --html; see 'robotstxt help page')", quoteArg(pos[0]))
	case len(f.agents) == 0:
		return fail(stderr, "page: --agent TOKEN is required (--agent \"\" asks for directives to every crawler; see 'robotstxt help page')")
	case f.format != "text" && f.format != "json":
		return fail(stderr, "page: --format %s: want %s", quoteArg(f.format), flagWants["format"])
	case (f.robots != "" || f.tdmrep != "") && f.url == "":
		return fail(stderr, "page: --robots and --tdmrep need --url URL, the page's URL (see 'robotstxt help page')")
	case f.url != "" && f.robots == "" && f.tdmrep == "":
		return fail(stderr, "page: --url is read with --robots or --tdmrep only (see 'robotstxt help page')")
	case f.html == "-" && f.robots == "-":
		return fail(stderr, "page: --html and --robots cannot both be standard input")
	}
	in, ok := f.input(stdin, stderr)
	if !ok {
		return exitUsage
	}
	a := page.Read(in, f.agents...)
	w := bufio.NewWriter(stdout)
	if f.format == "json" {
		b, _ := json.Marshal(pageJSONOf(a))
		w.Write(b)
		w.WriteByte('\n')
	} else {
		writePageText(w, a)
	}
	if err := w.Flush(); err != nil {
		return writeFailed(err, exitOK, stderr)
	}
	return exitOK
}

// input reads the files the flags name into a page.Input; false when one
// cannot be read (reported on stderr).
func (f *pageFlags) input(stdin io.Reader, stderr io.Writer) (page.Input, bool) {
	var in page.Input
	if len(f.headers) > 0 {
		in.Header = make(map[string][]string)
		for _, l := range f.headers {
			name, value, _ := strings.Cut(l, ":")
			key := canonicalHeaderKey(strings.TrimSpace(name))
			in.Header[key] = append(in.Header[key], strings.Trim(value, " \t"))
		}
	}
	if f.html != "" {
		b, err := readRobots(f.html, stdin, page.DefaultMaxHTMLBytes+1)
		if err != nil {
			fail(stderr, "page: cannot read the HTML: %v", err)
			return in, false
		}
		in.HTML = b
	}
	if f.robots != "" {
		r, ok := compileRobots("page", f.robots, engine.Options{}, stdin, stderr)
		if !ok {
			return in, false
		}
		in.Robots = page.RobotsFor(r.Matcher(f.agents...), f.url)
	}
	if f.tdmrep != "" {
		b, err := readRobots(f.tdmrep, stdin, page.MaxTDMRepBytes+1)
		if err == nil {
			var t *page.TDMRep
			if t, err = page.ParseTDMRep(b); err == nil {
				in.TDMFile = t.Rule(f.url)
			}
		}
		if err != nil {
			fail(stderr, "page: cannot read %s: %v", displayName(f.tdmrep), err)
			return in, false
		}
	}
	return in, true
}

// pageJSON is page's JSON output.
type pageJSON struct {
	Disallowed       bool                         `json:"disallowed"`
	Index            bool                         `json:"index"`
	Follow           bool                         `json:"follow"`
	Archive          bool                         `json:"archive"`
	Snippet          int                          `json:"snippet"`
	ImagePreview     string                       `json:"image_preview"`
	VideoPreview     int                          `json:"video_preview"`
	ImageIndex       bool                         `json:"image_index"`
	Translate        bool                         `json:"translate"`
	IndexIfEmbedded  bool                         `json:"index_if_embedded"`
	UnavailableAfter string                       `json:"unavailable_after"`
	NoAI             bool                         `json:"noai"`
	NoImageAI        bool                         `json:"noimageai"`
	AITrain          string                       `json:"ai_train"`
	Search           string                       `json:"search"`
	AIInput          string                       `json:"ai_input"`
	Use              string                       `json:"use"`
	TDMReservation   *int                         `json:"tdm_reservation"`
	TDMPolicy        string                       `json:"tdm_policy"`
	Truncated        bool                         `json:"truncated"`
	Decided          map[string]string            `json:"decided"`
	Sources          map[string]map[string]string `json:"sources"`
}

// pageJSONOf returns a in page's JSON form.
func pageJSONOf(a page.Answer) pageJSON {
	out := pageJSON{Decided: map[string]string{}, Sources: map[string]map[string]string{}}
	if a.Disallowed {
		out.Disallowed, out.AITrain, out.Search, out.AIInput = true, "-", "-", "-"
		return out
	}
	out.Index, out.Follow, out.Archive = !a.NoIndex, !a.NoFollow, !a.NoArchive
	out.Snippet, out.ImagePreview, out.VideoPreview = a.MaxSnippet, a.MaxImagePreview.String(), a.MaxVideoPreview
	out.ImageIndex, out.Translate, out.IndexIfEmbedded = !a.NoImageIndex, !a.NoTranslate, a.IndexIfEmbedded
	if !a.UnavailableAfter.IsZero() {
		out.UnavailableAfter = a.UnavailableAfter.UTC().Format(time.RFC3339Nano)
	}
	out.NoAI, out.NoImageAI = a.NoAI, a.NoImageAI
	out.AITrain, out.Search = a.AITrain.Answer.String(), a.Search.Answer.String()
	out.AIInput, out.Use = a.Signals.AIInput.String(), a.Signals.Use.String()
	if r, ok := tdmNumber(a.TDM.Reservation); ok {
		out.TDMReservation = &r
	}
	out.TDMPolicy, out.Truncated = a.TDM.Policy, a.Truncated
	for _, d := range pageAnswers(a) {
		if s := d.from.String(); s != "" {
			out.Decided[d.key] = s
		}
	}
	for key, c := range map[string]page.Category{"ai_train": a.AITrain, "search": a.Search} {
		m := map[string]string{}
		for _, v := range categoryVotes(c) {
			if v.vote.Preference != engine.UsageUnknown {
				m[v.name] = v.vote.Preference.String()
			}
		}
		out.Sources[key] = m
	}
	return out
}

func tdmNumber(r page.Reservation) (int, bool) {
	switch r {
	case page.TDMReserved:
		return 1, true
	case page.TDMNotReserved:
		return 0, true
	}
	return 0, false
}

// pageAnswer is one answer of the text and JSON outputs.
type pageAnswer struct {
	key, value string
	from       page.Origin
}

// pageAnswers returns a's answers in output order.
func pageAnswers(a page.Answer) []pageAnswer {
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	limit := func(n int) string {
		if n == page.NoLimit {
			return "-1 (no limit)"
		}
		return strconv.Itoa(n)
	}
	unavailable := ""
	if !a.UnavailableAfter.IsZero() {
		unavailable = a.UnavailableAfter.UTC().Format(time.RFC3339Nano)
	}
	tdm := "unset"
	if r, ok := tdmNumber(a.TDM.Reservation); ok {
		tdm = strconv.Itoa(r)
	}
	w := a.Why
	return []pageAnswer{
		{"index", yes(!a.NoIndex), w.NoIndex},
		{"follow", yes(!a.NoFollow), w.NoFollow},
		{"archive", yes(!a.NoArchive), w.NoArchive},
		{"snippet", limit(a.MaxSnippet), w.MaxSnippet},
		{"image_preview", a.MaxImagePreview.String(), w.MaxImagePreview},
		{"video_preview", limit(a.MaxVideoPreview), w.MaxVideoPreview},
		{"image_index", yes(!a.NoImageIndex), w.NoImageIndex},
		{"translate", yes(!a.NoTranslate), w.NoTranslate},
		{"index_if_embedded", yes(a.IndexIfEmbedded), w.IndexIfEmbedded},
		{"unavailable_after", unavailable, w.UnavailableAfter},
		{"noai", yes(a.NoAI), w.NoAI},
		{"noimageai", yes(a.NoImageAI), w.NoImageAI},
		{"ai_train", a.AITrain.Answer.String(), a.AITrain.From},
		{"search", a.Search.Answer.String(), a.Search.From},
		{"tdm_reservation", tdm, a.TDM.From},
	}
}

// namedVote is a category's source and its vote.
type namedVote struct {
	name string
	vote page.Vote
}

// categoryVotes returns c's votes by source, in the order they decide.
func categoryVotes(c page.Category) []namedVote {
	return []namedVote{
		{"content_usage", c.ContentUsage}, {"content_usage_header", c.UsageHeader},
		{"content_signal", c.ContentSignal}, {"noai", c.NoAI}, {"tdmrep", c.TDMRep},
	}
}

// writePageText writes a for people.
func writePageText(w *bufio.Writer, a page.Answer) {
	if a.Disallowed {
		w.WriteString("disallowed: robots.txt disallows the URL for the crawler, so the page says nothing to it\n")
		return
	}
	for _, d := range pageAnswers(a) {
		fmt.Fprintf(w, "%-18s %s", d.key+":", d.value)
		if s := d.from.String(); s != "" {
			fmt.Fprintf(w, " (%s)", s)
		}
		w.WriteByte('\n')
		var c *page.Category
		switch d.key {
		case "ai_train":
			c = &a.AITrain
		case "search":
			c = &a.Search
		}
		if c != nil {
			for _, v := range categoryVotes(*c) {
				if v.vote.Preference != engine.UsageUnknown {
					fmt.Fprintf(w, "  %-20s %s (%s)\n", v.name+":", v.vote.Preference, v.vote.From)
				}
			}
		}
		if d.key == "tdm_reservation" && a.TDM.Policy != "" {
			fmt.Fprintf(w, "%-18s %s\n", "tdm_policy:", a.TDM.Policy)
		}
	}
	if s := a.Signals; s.AIInput != engine.UsageUnknown {
		fmt.Fprintf(w, "%-18s %s (robots.txt Content-Signal line %d)\n", "ai_input:", s.AIInput, s.AIInputLine)
	}
	if s := a.Signals; s.Use != engine.UseUnset {
		fmt.Fprintf(w, "%-18s %s (robots.txt Content-Signal line %d)\n", "use:", s.Use, s.UseLine)
	}
	if a.Truncated {
		w.WriteString("truncated:         the HTML was longer than the limit; its end was not read\n")
	}
}

// canonicalHeaderKey returns a field name in the form net/http keeps it
// (the first letter and each after '-' upper case, the others lower
// case), as page.Input.Header wants; this program links no net/http.
func canonicalHeaderKey(name string) string {
	b := []byte(name)
	upper := true
	for i, c := range b {
		switch {
		case upper && 'a' <= c && c <= 'z':
			b[i] = c - 'a' + 'A'
		case !upper && 'A' <= c && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
		upper = c == '-'
	}
	return string(b)
}
