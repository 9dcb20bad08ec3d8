package compile

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// handler receives each line of a robots.txt as scan reads it: Parse's
// builder is one, a test's recorder another.
//
// scan calls the methods in line order, at most one of UserAgent, Rule,
// Sitemap, Extension, Usage, Blank and Unreadable per line; a comment-only line
// calls none. The diagnostics scan finds on a line are reported before that
// line's other call, so a handler that appends diagnostics keeps them sorted
// by line. The strings passed to a handler are substrings of the body as
// scan reads it: a handler copies what it keeps.
type handler interface {
	UserAgent(line int, value string)
	Rule(line int, kind RuleKind, value string) // value trimmed, comment cut; may be empty
	Sitemap(line int, value string)
	Extension(line int, key, value string) // key lower-cased
	Usage(line int, value string)          // a content-usage line (docs/SEMANTICS.md section 7)
	Blank(line int)                        // an empty or white-space-only line (comment-only lines are not blank)
	Unreadable(line int)                   // a line with text that is no directive (HTML, no key, no colon); a diagnostic said why
	Diagnostic(d Diagnostic)
}

// scanResult summarises a scan.
type scanResult struct {
	Size      int  // bytes read, at most Options.EffectiveMaxFileSize
	Truncated bool // the body was longer than the size limit
	Lines     int  // lines read; a last line without a line end counts, an empty tail after the last line end does not
	HasNUL    bool // some line holds a NUL byte
}

// maxDiagText is the number of bytes of a line kept in Diagnostic.Text. A
// diagnostic is for a reader: 256 bytes show the start of any sensible line,
// while a 16 KB line of minified HTML would drown the report.
const maxDiagText = 256

// Messages of the diagnostics scan reports: fixed strings, so that a file
// full of garbage costs no formatting.
var (
	msgLineTooLong  = "line longer than " + strconv.Itoa(MaxLineLength) + " bytes: the rest of it was ignored"
	msgNUL          = "NUL byte: the rest of the line was ignored (binary or UTF-16 file?)"
	msgNotUTF8      = "line is not valid UTF-8"
	msgHTML         = "line looks like HTML: the server probably sent a web page, not a robots.txt"
	msgNoKey        = "nothing before the colon: not a directive"
	msgOneWord      = "no colon: not a directive"
	msgManyWords    = "no colon and more than two words: not a directive"
	msgMissingColon = "no colon: read as \"key value\""
	msgUnknownKey   = "unknown key: kept as an extension, never a rule"
)

// directive is what a key is recognised as.
type directive uint8

const (
	dirOther directive = iota // an extension or unknown key
	dirUserAgent
	dirAllow
	dirDisallow
	dirSitemap
)

// keyword is a key prefix that names a directive.
type keyword struct {
	prefix    string // lower case
	dir       directive
	canonical bool // the key itself, not a typo
}

// keywords are the key prefixes Google's library accepts, with its typos, in
// the order it tests them. A key is recognised when it starts with a prefix,
// ignoring case ("disallowed" is disallow); it is a typo unless it is exactly
// a canonical prefix.
var keywords = [...]keyword{
	{"user-agent", dirUserAgent, true},
	{"useragent", dirUserAgent, false},
	{"user agent", dirUserAgent, false},
	{"allow", dirAllow, true},
	{"disallow", dirDisallow, true},
	{"dissallow", dirDisallow, false},
	{"dissalow", dirDisallow, false},
	{"disalow", dirDisallow, false},
	{"diasllow", dirDisallow, false},
	{"disallaw", dirDisallow, false},
	{"sitemap", dirSitemap, true},
	{"site-map", dirSitemap, false},
}

// knownExtensions are the extension keys with a well-known meaning. They are
// not reported as unknown, and their lower-case key costs no allocation.
var knownExtensions = [...]string{
	"crawl-delay", "request-rate", "visit-time", "host", "clean-param",
	"noindex", "noarchive", "nofollow", "content-signal", usageKey,
}

// usageKey is the key of a content-usage line: extensionKey knows it, and
// the line is given to the handler's Usage, not Extension.
const usageKey = "content-usage"

// classifyKey returns the directive key stands for and whether key is a
// typo (or an extension) of the canonical key rather than the key itself.
func classifyKey(key string) (dir directive, typo bool) {
	switch key { // the usual spellings, compared in a few instructions
	case "Disallow", "disallow", "DISALLOW":
		return dirDisallow, false
	case "Allow", "allow", "ALLOW":
		return dirAllow, false
	case "User-agent", "user-agent", "User-Agent", "USER-AGENT":
		return dirUserAgent, false
	case "Sitemap", "sitemap", "SITEMAP", "SiteMap":
		return dirSitemap, false
	}
	for _, k := range keywords {
		if hasPrefixFold(key, k.prefix) {
			return k.dir, !k.canonical || len(key) != len(k.prefix)
		}
	}
	return dirOther, false
}

// extensionKey returns key in lower case and whether it is a well-known
// extension. It allocates only for unknown keys with upper-case letters.
func extensionKey(key string) (string, bool) {
	for _, k := range knownExtensions {
		if len(k) == len(key) && hasPrefixFold(key, k) {
			return k, true
		}
	}
	return strings.ToLower(key), false
}

// hasPrefixFold reports whether s starts with prefix, ignoring ASCII case.
// prefix must be lower case and made of letters, '-' and ' '.
//
// It compares s[i]|0x20 with prefix[i]: for a letter that is exactly "the
// same letter in either case"; for '-' (0x2D) it also accepts CR (0x0D) and
// for ' ' (0x20) NUL, neither of which can be in a key (CR ends a line and
// NUL ends its content).
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if s[i]|0x20 != prefix[i] {
			return false
		}
	}
	return true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// indexSpace returns the index of the first space or tab in s, or -1.
func indexSpace(s string) int { return strings.IndexAny(s, " \t") }

func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// cutText returns the start of line for Diagnostic.Text: at most maxDiagText
// bytes, not cutting a UTF-8 sequence in two.
func cutText(line string) string {
	if len(line) <= maxDiagText {
		return line
	}
	n := maxDiagText
	for k := 0; k < utf8.UTFMax-1 && n > 0 && !utf8.RuneStart(line[n]); k++ {
		n--
	}
	return line[:n]
}

// bom is the UTF-8 byte-order mark.
const bom = "\xEF\xBB\xBF"

// bomLen returns the length of the byte-order mark at the start of s: 3, or
// 1 or 2 for a truncated mark (as Google's library skips it), or 0.
func bomLen(s string) int {
	n := 0
	for n < len(bom) && n < len(s) && s[n] == bom[n] {
		n++
	}
	return n
}

// scan reads body line by line and reports every line to h
// (docs/SEMANTICS.md section 1). Only the first opts.EffectiveMaxFileSize()
// bytes are read. Parse is scan with the builder as h.
//
// scan never fails and never panics: a line that is not fully understood is
// reported as a Diagnostic and skipped or read as best it can. It runs in
// time linear in the bytes read, each byte looked at once by the line
// loop and at most once more where a line needs it (a value, a line that
// is not ASCII).
func scan(body []byte, opts Options, h handler) scanResult {
	s, truncated := view(body, opts)
	return scanText(s, truncated, h)
}

// view returns the bytes of body that are read (at most the size limit) as
// a string that shares body's memory, and whether body is longer. Nothing
// may keep a substring of it (every handler copies what it keeps): the
// caller's bytes may change once Parse returns.
func view(body []byte, opts Options) (s string, truncated bool) {
	n := min(len(body), opts.EffectiveMaxFileSize())
	if n == 0 {
		return "", false
	}
	return unsafe.String(&body[0], n), len(body) > n
}

// scanText is scan over the bytes read, s.
func scanText(s string, truncated bool, h handler) scanResult {
	sc := scanner{h: h, s: s}
	return sc.scan(truncated)
}

type scanner struct {
	h handler
	s string
	// What the body holds, looked for once in it (strings.IndexByte and
	// utf8.ValidString are vectorised): a line is searched for a NUL only
	// when the body has one, and checked for UTF-8 only when the body is
	// not valid UTF-8.
	hasNUL, hasCR, notUTF8 bool
	// quiet: nobody reads diagnostics or warnings (ParseFor), so lines
	// are not checked for UTF-8.
	quiet bool
	// nextHash is the index of the next '#' in s (len(s): none), searched
	// again only once a line passes it: most lines have none.
	nextHash int
	// s[at:at+n] is the line being read, cut to MaxLineLength and at a
	// NUL: offsets, not a string, so that the builder (on the heap) takes
	// no write barrier a line.
	at, n int
	// searched counts the bytes the searches for line ends and '#' read:
	// each reads a part of s that no other search for its byte read, so
	// it stays under 3*len(s) (TestScan_Linear).
	searched int
}

// content returns the line being read (see scanner.at).
func (sc *scanner) content() string { return sc.s[sc.at : sc.at+sc.n] }

// scan reads sc.s, which was cut at the size limit when truncated.
func (sc *scanner) scan(truncated bool) scanResult {
	res := sc.run()
	res.Truncated = truncated
	if truncated {
		s, at := sc.s, res.Lines
		if s[len(s)-1] == '\n' || s[len(s)-1] == '\r' {
			at++
		}
		sc.h.Diagnostic(Diagnostic{
			Line:    at,
			Kind:    DiagTruncated,
			Message: "file longer than " + strconv.Itoa(len(s)) + " bytes: the rest was ignored",
		})
	}
	return res
}

// run reads every line of sc.s.
func (sc *scanner) run() scanResult {
	s := sc.s
	sc.hasNUL = strings.IndexByte(s, 0) >= 0
	sc.hasCR = strings.IndexByte(s, '\r') >= 0
	sc.notUTF8 = !sc.quiet && !utf8.ValidString(s)
	sc.nextHash = -1
	// nextLF and nextCR are the positions of the next LF and CR at or after
	// i (len(s) if none). They are searched again only once i has passed
	// them, so a file of lone CRs is still read in linear time.
	i, lines := bomLen(s), 0
	nextLF, nextCR := -1, len(s)
	if sc.hasCR {
		nextCR = -1
	}
	for i < len(s) {
		if nextLF < i {
			nextLF = indexFrom(s, i, '\n')
			sc.searched += nextLF - i
		}
		if nextCR < i {
			nextCR = indexFrom(s, i, '\r')
			sc.searched += nextCR - i
		}
		end := min(nextLF, nextCR)
		lines++
		sc.line(lines, i, end)
		if end < len(s) && s[end] == '\r' && end+1 < len(s) && s[end+1] == '\n' {
			end++ // CR LF
		}
		i = end + 1
	}
	return scanResult{Size: len(s), Lines: lines, HasNUL: sc.hasNUL}
}

// indexFrom returns the index of c in s at or after i, or len(s).
func indexFrom(s string, i int, c byte) int {
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return len(s)
}

func (sc *scanner) diag(line int, kind DiagKind, text, msg string) {
	sc.h.Diagnostic(Diagnostic{Line: line, Kind: kind, Text: cutText(text), Message: msg})
}

// line reads the line s[start:end] (without its line end) and reports it.
func (sc *scanner) line(num, start, end int) {
	content := sc.s[start:end]
	if len(content) > MaxLineLength {
		content = content[:MaxLineLength]
		sc.diag(num, DiagLineTooLong, content, msgLineTooLong)
	}
	cut := false // the content was cut at a NUL
	if sc.hasNUL {
		if k := strings.IndexByte(content, 0); k >= 0 {
			content, cut = content[:k], true
			sc.diag(num, DiagNotUTF8, content, msgNUL)
		}
	}
	sc.at, sc.n = start, len(content)
	if sc.notUTF8 && !utf8.ValidString(content) {
		sc.diag(num, DiagNotUTF8, content, msgNotUTF8)
	}
	if sc.nextHash < start {
		sc.nextHash = indexFrom(sc.s, start, '#')
		sc.searched += sc.nextHash - start
	}
	text, comment := content, false
	if k := sc.nextHash - start; k < len(content) {
		text, comment = content[:k], true
	}
	text = trimSpace(text)
	if text == "" {
		if !comment && !cut { // only spaces and tabs
			sc.h.Blank(num)
		}
		return
	}
	if text[0] == '<' {
		sc.diag(num, DiagHTML, content, msgHTML)
		sc.h.Unreadable(num)
		return
	}

	// key : value, split at the first colon; or "key value" without one.
	var key, value string
	missingColon := false
	if c := strings.IndexByte(text, ':'); c >= 0 {
		key, value = trimSpace(text[:c]), trimSpace(text[c+1:])
		if key == "" {
			sc.diag(num, DiagMissingColon, content, msgNoKey)
			sc.h.Unreadable(num)
			return
		}
	} else {
		sp := indexSpace(text)
		if sp < 0 {
			sc.diag(num, DiagMissingColon, content, msgOneWord)
			sc.h.Unreadable(num)
			return
		}
		key, value = text[:sp], trimSpace(text[sp:])
		if indexSpace(value) >= 0 {
			sc.diag(num, DiagMissingColon, content, msgManyWords)
			sc.h.Unreadable(num)
			return
		}
		missingColon = true
	}
	dir, typo := classifyKey(key)
	if (dir == dirOther || typo) && strings.ContainsAny(key, "<>") { // a canonical key has none
		sc.diag(num, DiagHTML, content, msgHTML)
		sc.h.Unreadable(num)
		return
	}
	if missingColon {
		sc.diag(num, DiagMissingColon, content, msgMissingColon)
	}
	if typo {
		sc.diag(num, DiagTypo, content, typoMessage(dir))
	}
	switch dir {
	case dirUserAgent:
		sc.h.UserAgent(num, value)
	case dirAllow:
		sc.h.Rule(num, Allow, value)
	case dirDisallow:
		sc.h.Rule(num, Disallow, value)
	case dirSitemap:
		sc.h.Sitemap(num, value)
	default:
		sc.other(num, content, key, value)
	}
}

// other gives the handler a line whose key is no directive: a
// content-usage line, or an extension (an unknown key is reported).
func (sc *scanner) other(num int, content, key, value string) {
	k, known := extensionKey(key)
	if k == usageKey {
		sc.h.Usage(num, value)
		return
	}
	if !known {
		sc.diag(num, DiagUnknownKey, content, msgUnknownKey)
	}
	sc.h.Extension(num, k, value)
}

// typoMessage is the message of a key read as directive d by a typo.
func typoMessage(d directive) string { return typoMessages[d] }

var typoMessages = [...]string{
	dirUserAgent: "key read as user-agent",
	dirAllow:     "key read as allow",
	dirDisallow:  "key read as disallow",
	dirSitemap:   "key read as sitemap",
}

// Parse reads a robots.txt body into a File, grouping lines as
// docs/SEMANTICS.md sections 2 and 6 say for opts.Semantics. It never fails
// and never panics; with opts.Diagnostics, what it cannot read is reported
// in File.Diagnostics, sorted by line.
//
// Parse runs in time linear in the bytes read. It reads body without
// copying it, so body must not change while Parse runs, and keeps nothing
// of it: the values the File holds are copied into one string of their own
// (and a pattern that normalising rewrote after its value), and the
// comments, keys and white space around them, about 40% of a real
// robots.txt, are not kept.
func Parse(body []byte, opts Options) *File {
	f := new(File)
	ParseInto(f, body, opts)
	return f
}

// ParseInto is Parse into *f, for a caller that keeps the File inside a
// struct of its own, which saves an allocation (engine.Compile does). It
// replaces all of *f: f may be the zero File or one parsed before, and
// holds what Parse(body, opts) would return. What was read from f before
// (a Selection, a Group's views) reads f's new lines afterwards, so it
// must not be used once ParseInto starts, and no one may read f while it
// runs.
func ParseInto(f *File, body []byte, opts Options) { parseInto(f, body, opts, nil) }

// ParseFor is ParseInto for one crawler, whose product tokens are known
// before the bytes: the File keeps only what f.Select(tokens...) can
// select and what a matcher of it reads. That is the groups that name one
// of the tokens and, until the first of them, the "*" groups, each with
// its rules, extension and content-usage lines, and the file's sitemaps.
// Other groups are followed, so that the grouping is the one Parse
// finds, but nothing of them is copied, normalised or kept. Select on the
// File then gives the same rules, extensions and usage lines, in the same
// order, as on Parse's File. ParseFor returns the index in the whole file
// of each of f.Groups, or nil when that is its index in f (the groups
// before the last one kept were all kept, as in most files). It keeps no
// diagnostics, Joins or Warnings (opts.Diagnostics is ignored): a linter
// or an explanation reads Parse's File. Like ParseInto, it replaces all
// of *f, which may have been parsed before.
func ParseFor(f *File, body []byte, opts Options, tokens []string) (groups []int) {
	opts.Diagnostics = false
	if tokens == nil {
		tokens = []string{}
	}
	return parseInto(f, body, opts, tokens)
}

// parseInto is ParseInto, or ParseFor when tokens is not nil.
func parseInto(f *File, body []byte, opts Options, tokens []string) (groups []int) {
	b := builderPool.Get().(*builder)
	defer b.reset()
	*f = File{Semantics: opts.Semantics}
	b.f, b.sem, b.keepDiags = f, opts.Semantics, opts.Diagnostics
	b.filter, b.tokens = tokens != nil, tokens
	s, truncated := view(body, opts)
	b.sc = scanner{h: b, s: s, quiet: b.filter}
	// Values are most of a file that is not comments: room for all of it
	// (the pooled array has it, but for a large file).
	if cap(b.text) < len(s) {
		b.text = make([]byte, 0, len(s))
	}
	res := b.sc.scan(truncated)
	b.closeGroup()
	f.Size, f.Truncated, f.Lines = res.Size, res.Truncated, res.Lines
	b.flushTooMany()
	b.finish()
	if !b.filter {
		f.Warnings = fileWarnings(s, res.HasNUL, f, &b.seen)
	}
	for i, g := range b.origin {
		if g != i {
			return append([]int(nil), b.origin...)
		}
	}
	return nil
}

// maxPooledBytes is the largest array of each kind a pooled builder keeps
// for the next parse: a real file's values are a few KB, its records a few
// hundred; the largest real files read to the default limit hold a few
// hundred KB of either.
const maxPooledBytes = 1 << 20

var builderPool = sync.Pool{New: func() any { return new(builder) }}

// builder is the handler Parse uses to build a File. The records of all
// groups are appended to scratch slices that a pooled builder keeps, a
// group's parts after the one before's (groups never interleave); finish
// copies them, and the text, into arrays of their size: a parse allocates
// no more for its records than the File keeps.
type builder struct {
	f         *File
	sem       Semantics
	keepDiags bool
	sc        scanner // for the text of the line being read

	open      bool // a group is open: rules and extensions go to it
	sawRule   bool // a rule line (allow or disallow) came since the last user-agent line
	sawExt    bool // an extension or content-usage line came in the open group
	sawAgent  bool // a user-agent line came before
	emptyRule int  // the open group's first empty rule line, or 0
	// joiner is the first sitemap, extension or unreadable line since the
	// last user-agent line, while no rule came (joiner.Line 0: none): the
	// Join of the next user-agent line.
	joiner Join

	seen seen // what the file's warnings need to know
	// tooMany counts the diagnostics not kept (MaxDiagnostics), from
	// tooManyLine on.
	tooMany, tooManyLine int

	// The scratch records, a group's parts contiguous in each, in group
	// order; the open group is agents[agent0:], rules[rule0:],
	// exts[ext0:], usages[usage0:]. The last group with rules before it had
	// rules[last0:lastEnd].
	agents, rules, exts, usages, sitemaps []rec
	groups                                []Group
	diags                                 []Diagnostic
	agent0, rule0, ext0, usage0           int
	last0, lastEnd                        int
	// ParseFor's crawler: with filter set, the open group's lines are kept
	// only when it names one of tokens (named), or is a "*" group
	// (global) and no group kept before named one (specific). groupN
	// counts the groups, kept or not; openText and openSitemaps are where
	// the text and the sitemaps stood when the open group began, so that
	// a group not kept gives its user-agent values back.
	filter, named, global, specific bool
	tokens                          []string
	groupN, openText, openSitemaps  int
	origin                          []int // ParseFor's result, before it is copied
	// text is what the File keeps of the body: the values, a rule's
	// followed by its pattern when normalising rewrote it, an extension's
	// after its key (see rec).
	text []byte
}

// seen is what a parse noticed for the file's warnings: the first line of
// each kind of trouble (0: none) and counts.
type seen struct {
	notUTF8, lastNotUTF8      int // lines that are not UTF-8, and the last of them
	firstNotUTF8, firstNUL    int
	firstHTML, firstOutside   int
	truncatedAt               int
	outsideRules, outsideExts int // rules and extension lines in no group
}

// reset empties b for the next parse and puts it back in builderPool,
// keeping its scratch arrays unless a large file made them large.
func (b *builder) reset() {
	clear(b.groups)
	clear(b.diags)
	*b = builder{
		text:     pooled(b.text, 1),
		rules:    pooled(b.rules, sizeofRec),
		agents:   pooled(b.agents, sizeofRec),
		exts:     pooled(b.exts, sizeofRec),
		usages:   pooled(b.usages, sizeofRec),
		groups:   pooled(b.groups, sizeofGroup),
		sitemaps: pooled(b.sitemaps, sizeofRec),
		origin:   pooled(b.origin, 8),
		diags:    pooled(b.diags, sizeofDiag),
	}
	builderPool.Put(b)
}

// pooled returns s, whose elements are size bytes, emptied, or nil when its
// array is over maxPooledBytes.
func pooled[T any](s []T, size int) []T {
	if cap(s)*size > maxPooledBytes {
		return nil
	}
	return s[:0]
}

// keep appends x to the text and returns its offset there.
func (b *builder) keep(x string) int {
	at := len(b.text)
	b.text = append(b.text, x...)
	return at
}

// finish makes the File's data: its text, and its records (rules, agents,
// extensions, sitemaps, each kind in file order) in one array; it points
// the groups' and sitemaps' views at them. Nothing of the File views the
// builder's arrays afterwards: the next parse reuses them.
func (b *builder) finish() {
	f := b.f
	if len(b.diags) > 0 {
		f.Diagnostics = append([]Diagnostic(nil), b.diags...)
	}
	nr, na, ne, nu := len(b.rules), len(b.agents), len(b.exts), len(b.usages)
	d := &f.data
	if n := nr + na + ne + nu + len(b.sitemaps); n > 0 {
		d.recs = make([]rec, 0, n)
		d.recs = append(append(append(append(append(d.recs, b.rules...), b.agents...), b.exts...), b.usages...), b.sitemaps...)
	}
	if cap(b.text) > maxPooledBytes && len(b.text) >= cap(b.text)/2 {
		// The pool would drop this array, and the text fills most of
		// it: the File takes it, and the builder forgets it, rather
		// than copy megabytes.
		d.text = unsafe.String(unsafe.SliceData(b.text), len(b.text))
		b.text = nil
	} else {
		d.text = string(b.text)
	}
	if len(b.groups) > 0 {
		f.Groups = append([]Group(nil), b.groups...)
	}
	for i := range f.Groups {
		g := &f.Groups[i]
		g.Rules.d, g.Agents.d, g.Extensions.d = d, d, d
		g.Agents.at += uint32(nr)
		g.Extensions.at += uint32(nr + na)
	}
	f.usageAt, f.usages = uint32(nr+na+ne), uint32(nu)
	f.Sitemaps = Sitemaps{run{d: d, at: uint32(nr + na + ne + nu), n: uint32(len(b.sitemaps))}}
}

// closeGroup ends the open group. Its views hold the offsets of its parts
// in the scratch slices until finish points them into the File's records.
// ParseFor's builder drops a group it does not keep (dropOpen).
func (b *builder) closeGroup() {
	if !b.open {
		return
	}
	empty := b.emptyRule
	b.open = false
	b.emptyRule = 0
	n := b.groupN
	b.groupN++
	if b.filter {
		if !b.keeps() {
			b.dropOpen()
			return
		}
		b.specific = b.specific || b.named
		b.origin = append(b.origin, n)
	}
	span := func(at, end int) run { return run{at: uint32(at), n: uint32(end - at)} }
	b.groups = append(b.groups, Group{
		Agents:        Agents{span(b.agent0, len(b.agents))},
		Rules:         Rules{span(b.rule0, len(b.rules))},
		Extensions:    Extensions{span(b.ext0, len(b.exts))},
		EmptyRuleLine: empty,
	})
	if len(b.rules) > b.rule0 {
		b.last0, b.lastEnd = b.rule0, len(b.rules)
	}
	b.agent0, b.rule0, b.ext0, b.usage0 = len(b.agents), len(b.rules), len(b.exts), len(b.usages)
}

// dropOpen forgets the open group's lines (a group ParseFor does not
// keep, a record Koster1996 drops), and gives back the text of its
// user-agent values when no sitemap came after them.
func (b *builder) dropOpen() {
	b.agents = b.agents[:b.agent0]
	b.exts, b.usages = b.exts[:b.ext0], b.usages[:b.usage0]
	if len(b.sitemaps) == b.openSitemaps {
		b.text = b.text[:b.openText]
	}
}

// keeps reports whether the open group's lines are kept: always by Parse,
// and by ParseFor when Select may select the group (see builder.filter).
func (b *builder) keeps() bool { return !b.filter || b.named || b.global && !b.specific }

// mayKeep reports whether a line of the open group that is no rule is
// kept for now: while no rule has ended its user-agent lines, a later one
// may name a token (docs/SEMANTICS.md section 2.1), so an extension or a
// content-usage line is kept until closeGroup knows.
func (b *builder) mayKeep() bool { return b.keeps() || !b.sawRule }

// note is a diagnostic the builder finds itself (not the scanner), on the
// line being read.
func (b *builder) note(line int, kind DiagKind, msg string) {
	b.Diagnostic(Diagnostic{Line: line, Kind: kind, Text: cutText(b.sc.content()), Message: msg})
}

func (b *builder) UserAgent(line int, value string) {
	if !b.open || b.sawRule {
		b.closeGroup()
		b.open = true
		b.sawRule, b.sawExt = false, false
		b.named, b.global = false, false
		b.openText, b.openSitemaps = len(b.text), len(b.sitemaps)
	} else if b.joiner.Line != 0 && !b.filter {
		// This line joins the open group across a line that does not
		// end it (docs/SEMANTICS.md section 2.1).
		j := b.joiner
		j.Group, j.Agent = len(b.groups), len(b.agents)-b.agent0
		b.f.Joins = append(b.f.Joins, j)
	}
	b.joiner = Join{}
	b.sawAgent = true
	name := AgentName(value)
	switch {
	case value == "":
		b.note(line, DiagInvalidValue, "empty user-agent: it matches no crawler")
	case name == "":
		b.note(line, DiagInvalidValue, "user-agent names no product token ([A-Za-z_-]+ or *): it matches no crawler")
	}
	if b.filter {
		a := Agent{Name: name}
		b.global = b.global || a.IsGlobal()
		for _, t := range b.tokens {
			b.named = b.named || a.Names(t)
		}
	}
	b.agents = append(b.agents, agentRec(b.keep(value), line, value, name))
}

func (b *builder) Rule(line int, kind RuleKind, value string) {
	if !b.open {
		b.seen.outsideRules++
		b.outside(line, kind.String(), ": ignored")
		return
	}
	b.sawRule = true
	if value == "" {
		// It allows nothing and disallows nothing, but ends the user-agent
		// lines.
		if b.emptyRule == 0 {
			b.emptyRule = line
		}
		return
	}
	if !b.keeps() {
		return
	}
	// Files often give several groups the same rules in the same order:
	// such a rule shares the text of the one at its place in the last
	// group with rules.
	if k := b.last0 + len(b.rules) - b.rule0; k < b.lastEnd {
		if r := b.rules[k]; string(b.text[r.at:r.at+uint32(r.a)]) == value {
			b.rules = append(b.rules, ruleRec(int(r.at), line, kind, int(r.a), int(r.b)))
			return
		}
	}
	// The pattern (NormalizePattern's) follows the value in the text when
	// normalising rewrites it: written there, not made and copied.
	at := b.keep(value)
	n := 0
	m := patternMode(b.sem)
	if first := firstChange(value, m); first >= 0 {
		b.text = appendCanonical(b.text, value, first, m)
		n = len(b.text) - at - len(value)
	}
	b.rules = append(b.rules, ruleRec(at, line, kind, len(value), n))
}

// outside notes a line that belongs to no group: a rule or an extension
// (what), and what becomes of it.
func (b *builder) outside(line int, what, effect string) {
	if b.seen.firstOutside == 0 {
		b.seen.firstOutside = line
	}
	if !b.keepDiags {
		return
	}
	why := " before any user-agent line"
	if b.sawAgent {
		why = " after a blank line ended the record (Koster 1996)"
	}
	b.note(line, DiagRuleOutsideGroup, what+why+effect)
}

// mayJoin notes a line that does not end the open group's user-agent lines
// and is not blank or a comment: if a user-agent line comes next, it is
// that line's Join.
func (b *builder) mayJoin(line int, key string) {
	if b.open && !b.sawRule && b.joiner.Line == 0 && !b.filter {
		b.joiner = Join{Line: line, Key: strings.Clone(key)}
	}
}

func (b *builder) Sitemap(line int, value string) {
	b.mayJoin(line, "sitemap")
	b.sitemaps = append(b.sitemaps, sitemapRec(b.keep(value), line, value))
}

func (b *builder) Extension(line int, key, value string) {
	if key == "crawl-delay" {
		if _, ok := ParseCrawlDelay(value); !ok {
			b.note(line, DiagInvalidValue, "crawl-delay is not a number of seconds")
		}
	}
	if !b.open {
		b.seen.outsideExts++
		b.outside(line, key, ": it belongs to no group")
		return
	}
	b.sawExt = true
	b.mayJoin(line, key)
	if !b.mayKeep() {
		return
	}
	at := b.keep(key)
	b.keep(value)
	b.exts = append(b.exts, extRec(at, line, key, value))
}

// Usage keeps a content-usage line in the open group. In RFC9309 it is a
// rule, as the attach draft's ABNF extends RFC 9309's rule: it ends the
// group's user-agent lines. In Google and Koster1996 it is a key that is
// no rule, as an extension's (docs/SEMANTICS.md section 7).
func (b *builder) Usage(line int, value string) {
	if !b.open {
		b.seen.outsideExts++
		b.outside(line, usageKey, ": it belongs to no group")
		return
	}
	b.sawExt = true
	if b.sem == RFC9309 {
		b.sawRule = true
	} else {
		b.mayJoin(line, usageKey)
	}
	if !b.mayKeep() {
		return
	}
	// The path's pattern follows the value in the text when normalising
	// rewrites it, as a rule's does.
	at := b.keep(value)
	n := 0
	if path := usagePath(value); path != "" {
		m := patternMode(b.sem)
		if first := firstChange(path, m); first >= 0 {
			b.text = appendCanonical(b.text, path, first, m)
			n = len(b.text) - at - len(value)
		}
	}
	b.usages = append(b.usages, usageRec(at, line, len(value), n))
}

func (b *builder) Unreadable(line int) { b.mayJoin(line, "") }

// Blank ends the record in Koster1996 (a blank line separates records in
// the 1996 draft). A record that has user-agent lines but no rule and no
// extension yet is dropped, as Python's urllib.robotparser drops it.
func (b *builder) Blank(line int) {
	if b.sem != Koster1996 || !b.open {
		return
	}
	if !b.sawRule && !b.sawExt {
		first := b.agents[b.agent0].lineOf()
		b.dropOpen()
		b.open = false
		// The record's Joins (by sitemap or unreadable lines) go with it.
		j := len(b.f.Joins)
		for j > 0 && b.f.Joins[j-1].Group == len(b.groups) {
			j--
		}
		b.f.Joins = b.f.Joins[:j]
		if b.seen.firstOutside == 0 {
			b.seen.firstOutside = line
		}
		b.note(line, DiagRuleOutsideGroup,
			"blank line ends the record of the user-agent line "+strconv.Itoa(first)+" before any rule: the record is dropped (Koster 1996)")
		return
	}
	b.closeGroup()
}

// Diagnostic notes what the file's warnings need of d, and keeps d when
// diagnostics are asked for (Options.Diagnostics), or counts it when the
// File holds MaxDiagnostics already (flushTooMany says how many were not
// kept); a DiagTruncated, which ends a scan, is always kept then.
func (b *builder) Diagnostic(d Diagnostic) {
	b.seen.notice(d)
	if !b.keepDiags {
		return
	}
	switch {
	case d.Kind == DiagTruncated:
		b.flushTooMany()
	case len(b.diags) >= MaxDiagnostics:
		if b.tooMany == 0 {
			b.tooManyLine = d.Line
		}
		b.tooMany++
		return
	}
	d.Text = strings.Clone(d.Text)
	b.diags = append(b.diags, d)
}

// notice notes the first line of each kind of trouble the warnings name.
func (s *seen) notice(d Diagnostic) {
	first := func(at *int) {
		if *at == 0 {
			*at = d.Line
		}
	}
	switch d.Kind {
	case DiagNotUTF8:
		if d.Message == msgNUL {
			first(&s.firstNUL)
		}
		first(&s.firstNotUTF8)
		if d.Line != s.lastNotUTF8 {
			s.notUTF8, s.lastNotUTF8 = s.notUTF8+1, d.Line
		}
	case DiagHTML:
		first(&s.firstHTML)
	case DiagTruncated:
		s.truncatedAt = d.Line
	}
}

// flushTooMany adds the DiagTooMany that says how many diagnostics were
// not kept, if any were not.
func (b *builder) flushTooMany() {
	if b.tooMany == 0 {
		return
	}
	b.diags = append(b.diags, Diagnostic{
		Line:    b.tooManyLine,
		Kind:    DiagTooMany,
		Message: strconv.Itoa(b.tooMany) + " more diagnostics from here on were not kept: a parsed file keeps " + strconv.Itoa(MaxDiagnostics),
	})
	b.tooMany = 0
}

// AgentName returns the product token a user-agent value names
// (docs/SEMANTICS.md section 2.2): "*" for "*" alone or followed by white
// space (a space, tab, vertical tab or form feed), else the leading run of
// [A-Za-z_-] ("Googlebot/2.1" names "Googlebot"), possibly "". The result
// is a substring of value.
func AgentName(value string) string {
	if value != "" && value[0] == '*' {
		if len(value) == 1 || isStarSpace(value[1]) {
			return "*"
		}
		return ""
	}
	n := 0
	for n < len(value) && isTokenByte(value[n]) {
		n++
	}
	return value[:n]
}

// isStarSpace reports whether c, just after a user-agent value's '*',
// leaves it the global "*": white space as C's isspace has it, which is
// what Google's library tests there, less the line ends, which no value
// holds. A vertical tab or form feed counts, though nowhere else in a line
// does (section 1 trims spaces and tabs only).
func isStarSpace(c byte) bool { return isSpace(c) || c == '\v' || c == '\f' }

func isTokenByte(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || c == '-' || c == '_'
}

// ValidToken reports whether tok is a product token: one or more of [A-Za-z_-].
func ValidToken(tok string) bool {
	if tok == "" {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if !isTokenByte(tok[i]) {
			return false
		}
	}
	return true
}
