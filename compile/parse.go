package compile

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/seed-275a9bd5/robotstxt/internal/bytesearch"
)

// handler receives each line of a robots.txt as scan reads it. Parse's
// builder is the handler, the one place that groups lines; the File it
// builds keeps what a linter needs besides the rules (the empty rules of
// each group, the lines that joined user-agent lines), so a linter reads
// the File and never scans the body again.
//
// scan calls the methods in line order, at most one of UserAgent, Rule,
// Sitemap, Extension, Blank and Unreadable per line; a comment-only line
// calls none. The diagnostics scan finds on a line are reported before that
// line's other call, so a handler that appends diagnostics keeps them sorted
// by line. The strings passed to a handler are substrings of the body as
// scan reads it: Parse reads the caller's bytes without copying them and
// copies out what it keeps; scan (for tests and benchmarks) reads a copy.
type handler interface {
	UserAgent(line int, value string)
	Rule(line int, kind RuleKind, value string) // value trimmed, comment cut; may be empty
	Sitemap(line int, value string)
	Extension(line int, key, value string) // key lower-cased
	Blank(line int)                        // an empty or white-space-only line (comment-only lines are not blank)
	Unreadable(line int)                   // a line with text that is no directive (HTML, no key, no colon); a diagnostic said why
	Diagnostic(d Diagnostic)
}

// scanResult summarises a scan.
type scanResult struct {
	Size      int  // bytes read, at most Options.EffectiveMaxFileSize
	Truncated bool // the body was longer than the size limit
	Lines     int  // lines read; a last line without a line end counts, an empty tail after the last line end does not
}

// maxDiagText is the number of bytes of a line kept in Diagnostic.Text. A
// diagnostic is for a reader: 256 bytes show the start of any sensible line,
// while a 16 KB line of minified HTML would drown the report.
const maxDiagText = 256

// Messages of the diagnostics Scan reports: fixed strings, so that a file
// full of garbage costs no formatting.
var (
	msgLineTooLong   = "line longer than " + strconv.Itoa(MaxLineLength) + " bytes: the rest of it was ignored"
	msgNUL           = "NUL byte: the rest of the line was ignored (binary or UTF-16 file?)"
	msgNotUTF8       = "line is not valid UTF-8"
	msgHTML          = "line looks like HTML: the server probably sent a web page, not a robots.txt"
	msgNoKey         = "nothing before the colon: not a directive"
	msgOneWord       = "no colon: not a directive"
	msgManyWords     = "no colon and more than two words: not a directive"
	msgMissingColon  = "no colon: read as \"key value\""
	msgUnknownKey    = "unknown key: kept as an extension, never a rule"
	msgTypoUserAgent = "key read as user-agent"
	msgTypoAllow     = "key read as allow"
	msgTypoDisallow  = "key read as disallow"
	msgTypoSitemap   = "key read as sitemap"
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

// keywordsByLetter holds the keywords by their first letter ('a' is 0), so
// that a key is compared with at most the six that could match.
var keywordsByLetter = func() (t [26][]keyword) {
	for _, k := range keywords {
		i := k.prefix[0] - 'a'
		t[i] = append(t[i], k)
	}
	return t
}()

// knownExtensions are the extension keys with a well-known meaning. They are
// not reported as unknown, and their lower-case key costs no allocation.
var knownExtensions = [...]string{
	"crawl-delay", "request-rate", "visit-time", "host", "clean-param",
	"noindex", "noarchive", "nofollow", "content-signal", "content-usage",
}

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
	c := key[0] | 0x20 // ASCII lower case for letters
	if c < 'a' || c > 'z' {
		return dirOther, false
	}
	for _, k := range keywordsByLetter[c-'a'] {
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
	return asciiLower(key), false
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

// asciiLower returns s with ASCII upper-case letters lowered; other bytes,
// also invalid UTF-8, are kept as they are. It returns s itself when there is
// nothing to lower.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// hasAngle reports whether s has a '<' or a '>'.
func hasAngle(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '<' || s[i] == '>' {
			return true
		}
	}
	return false
}

// indexSpace returns the index of the first space or tab in s, or -1.
func indexSpace(s string) int {
	for i := 0; i < len(s); i++ {
		if isSpace(s[i]) {
			return i
		}
	}
	return -1
}

func trimLeft(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	return s
}

func trimRight(s string) string {
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
// time linear in the bytes read and allocates one copy of them (plus the
// lower-cased keys of unknown extensions that have upper-case letters).
// Parse does what scan does, on the caller's bytes.
func scan(body []byte, opts Options, h handler) scanResult {
	s, truncated := view(body, opts)
	sc := scanner{h: h}
	return sc.run(strings.Clone(s), truncated) // h may keep what it is given
}

// view returns the bytes of body that are read (at most the size limit) as
// a string that shares body's memory, and whether body is longer. Nothing
// may keep a substring of it: the caller's bytes may change once the parse
// returns.
func view(body []byte, opts Options) (s string, truncated bool) {
	n := min(len(body), opts.EffectiveMaxFileSize())
	if n == 0 {
		return "", false
	}
	return unsafe.String(unsafe.SliceData(body), n), len(body) > n
}

// scanner holds what scan knows about the whole body, so that per-line work
// is skipped when the body has no CR, no NUL and is valid UTF-8 (the usual
// case).
type scanner struct {
	h         handler
	s         string // the body
	nextHash  int    // the index of the next '#' in s, or len(s)
	hasNUL    bool
	checkUTF8 bool
	content   string // the line being read, cut to MaxLineLength and at a NUL
}

func (sc *scanner) run(s string, truncated bool) scanResult {
	sc.s, sc.nextHash = s, -1
	sc.hasNUL = strings.IndexByte(s, 0) >= 0
	sc.checkUTF8 = !utf8.ValidString(s)
	hasCR := strings.IndexByte(s, '\r') >= 0

	// nextLF and nextCR are the positions of the next LF and CR at or after
	// i (len(s) if none). They are searched again only once i has passed
	// them, so a file of lone CRs is still scanned in linear time.
	i := bomLen(s)
	nextLF, nextCR := -1, -1
	if !hasCR {
		nextCR = len(s)
	}
	lines := 0
	terminated := true // the last line read ended with a line end
	for i < len(s) {
		if nextLF < i {
			nextLF = indexFrom(s, i, '\n')
		}
		if nextCR < i {
			nextCR = indexFrom(s, i, '\r')
		}
		end := min(nextLF, nextCR)
		next := end + 1
		switch {
		case end == len(s):
			next = end
			terminated = false
		case end == nextCR && next < len(s) && s[next] == '\n':
			next++ // CR LF
		}
		lines++
		sc.line(lines, i, end)
		i = next
	}
	if truncated {
		at := lines
		if terminated {
			at++
		}
		sc.h.Diagnostic(Diagnostic{
			Line:    at,
			Kind:    DiagTruncated,
			Message: "file longer than " + strconv.Itoa(len(s)) + " bytes: the rest was ignored",
		})
	}
	return scanResult{Size: len(s), Truncated: truncated, Lines: lines}
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
			content = content[:k]
			cut = true
			sc.diag(num, DiagNotUTF8, content, msgNUL)
		}
	}
	sc.content = content
	if sc.checkUTF8 && !utf8.ValidString(content) {
		sc.diag(num, DiagNotUTF8, content, msgNotUTF8)
	}

	// The next '#' is searched in the whole body and remembered: most
	// lines have none, and one search that jumps many lines is cheaper
	// than a search per line.
	if sc.nextHash < start {
		sc.nextHash = indexFrom(sc.s, start, '#')
	}
	text := content
	comment := false
	if k := sc.nextHash - start; k < len(content) {
		text = text[:k]
		comment = true
	}
	text = trimRight(trimLeft(text))
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
		key, value = trimRight(text[:c]), trimLeft(text[c+1:])
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
		key, value = text[:sp], trimLeft(text[sp:])
		if indexSpace(value) >= 0 {
			sc.diag(num, DiagMissingColon, content, msgManyWords)
			sc.h.Unreadable(num)
			return
		}
		missingColon = true
	}
	dir, typo := classifyKey(key)
	if (dir == dirOther || typo) && hasAngle(key) { // a canonical key has none
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
		k, known := extensionKey(key)
		if !known {
			sc.diag(num, DiagUnknownKey, content, msgUnknownKey)
		}
		sc.h.Extension(num, k, value)
	}
}

func typoMessage(d directive) string {
	switch d {
	case dirUserAgent:
		return msgTypoUserAgent
	case dirAllow:
		return msgTypoAllow
	case dirDisallow:
		return msgTypoDisallow
	}
	return msgTypoSitemap
}

// Parse reads a robots.txt body into a File, grouping lines as
// docs/SEMANTICS.md sections 2 and 6 say for opts.Semantics. It never fails
// and never panics; what it cannot read is reported in File.Diagnostics,
// sorted by line.
//
// Parse runs in time linear in the bytes read. It reads body without
// copying it, so body must not change while Parse runs, and keeps nothing
// of it: the values the File holds are copied into one string of their own
// (and a pattern that normalising rewrote after its value), and the
// comments, keys and white space around them, about 40% of a real
// robots.txt, are not kept. A line costs no allocation of its own, and
// 12 bytes in the File besides its text (see Rules).
func Parse(body []byte, opts Options) *File {
	f := new(File)
	ParseInto(f, body, opts)
	return f
}

// ParseInto is Parse into *f, for a caller that keeps the File inside a
// struct of its own, which saves an allocation (engine.Compile does). f
// must be a File that no parse filled: the zero File, or one with only its
// exported fields set, which ParseInto replaces. It panics when f was
// parsed into before, since what was read from it (a Selection, a Group's
// views) would then read the new file's lines.
func ParseInto(f *File, body []byte, opts Options) {
	if f.parsed() {
		panic("compile: ParseInto into a File that was parsed before")
	}
	// s views body without copying it: every string the File keeps is
	// copied out of it by keep, and nothing else of s outlives Parse.
	s, truncated := view(body, opts)
	// The builder is scratch, and the scanner's handler would move it to
	// the heap: one comes from builderPool, and goes back holding nothing.
	b := builderPool.Get().(*builder)
	defer b.reset()
	*f = File{Semantics: opts.Semantics}
	b.f, b.sem = f, opts.Semantics
	b.sc = scanner{h: b}
	// Values are most of a file that is not comments: room for 5/8 of it
	// at first (the pooled array has it, but for a large file).
	if need := len(s)*5/8 + 64; cap(b.text) < need {
		b.text = make([]byte, 0, need)
	}
	res := b.sc.run(s, truncated)
	b.closeGroup()
	b.f.Size, b.f.Truncated, b.f.Lines = res.Size, res.Truncated, res.Lines
	b.flushTooMany()
	b.finishData()
	b.f.Warnings = fileWarnings(s, b.sc.hasNUL, b.f, b.notUTF8, b.outsideRules, b.outsideExts)
}

// parsed reports whether a parse filled f: finishData points its Sitemaps
// at its records, whatever it read.
func (f *File) parsed() bool { return f.Sitemaps.d != nil }

// maxPooledBytes is the largest array of each kind a pooled builder keeps
// for the next parse: a real file's values are a few KB, its records a few
// hundred. A builder keeps at most seven (its text and six kinds of
// record), each within its size: more than a real file needs, and bounded
// whatever the files parsed were.
const maxPooledBytes = 256 << 10

// reset empties b for the next parse and puts it back in builderPool. It
// keeps the arrays of its scratch records and text, unless a large file
// made them large, but nothing they held: nothing of the File views them
// (finishData copies them out), and the strings the records hold must not
// keep their texts alive.
func (b *builder) reset() {
	clear(b.groups)
	clear(b.diags)
	*b = builder{
		text:     pooled(b.text),
		rules:    pooled(b.rules),
		agents:   pooled(b.agents),
		exts:     pooled(b.exts),
		groups:   pooled(b.groups),
		sitemaps: pooled(b.sitemaps),
		diags:    pooled(b.diags),
		values:   pooled(b.values),
	}
	builderPool.Put(b)
}

// pooled returns s emptied, or nil when its array is over maxPooledBytes.
func pooled[T any](s []T) []T {
	var x T
	if cap(s)*int(unsafe.Sizeof(x)) > maxPooledBytes {
		return nil
	}
	return s[:0]
}

// push appends v to s, doubling its array when it is full: append grows
// a large array by a quarter, which for a file of short records (500 KiB
// of user-agent lines is 128,000 of them) costs five times the final
// array in the copies, where doubling costs twice.
func push[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		grown := make([]T, len(s), max(2*len(s), 8))
		copy(grown, s)
		s = grown
	}
	return append(s, v)
}

// copyOf returns a copy of s in an array of its size, or nil when it is
// empty.
func copyOf[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// keep appends x, a substring of the body, to the text, and returns a
// string that views it there, until finishData points it into the File's
// own text.
func (b *builder) keep(x string) string {
	if len(x) == 0 {
		return ""
	}
	b.room(len(x))
	at := len(b.text)
	b.text = append(b.text, x...)
	return unsafe.String(&b.text[at], len(x))
}

// room makes room for n more bytes of text. When the text does not have
// it, a new array of twice the size holds it; the strings keep returned
// before then view the old one (whose bytes do not change), which olds
// keeps for finishData.
func (b *builder) room(n int) {
	if cap(b.text)-len(b.text) >= n {
		return
	}
	if len(b.text) > 0 {
		b.olds = append(b.olds, b.text)
	}
	t := make([]byte, len(b.text), max(2*cap(b.text), len(b.text)+n))
	copy(t, b.text)
	b.text = t
}

// finishData copies the records of the scratch slices and the text into
// one array of their size, the File's (a parsed file is kept, in a
// crawler's cache, far longer than parsing takes): the rules, agents,
// extensions and sitemaps, each kind's records in file order, then the
// text. It points each view at its records there, and every string keep
// returned (a diagnostic's text, a join's key) into the text. Nothing of
// the File views the builder's arrays afterwards: the next parse reuses
// them (TestParse_OneText and TestParse_SharesNothingWithTheNextParse
// check both).
func (b *builder) finishData() {
	f := b.f
	f.Diagnostics = copyOf(b.diags)
	nr, na, ne, ns := len(b.rules), len(b.agents), len(b.exts), len(b.sitemaps)
	n := nr + na + ne + ns
	t := b.text
	var text string
	if n+len(t) > 0 {
		// Lines only grow, and so does a rule's line<<2 | kind: the last
		// record of each kind has the largest line, and every offset is
		// within the text.
		kinds := [...][]rec{b.rules, b.agents, b.exts, b.sitemaps}
		narrow := len(t) < 1<<16
		for _, rs := range kinds {
			if len(rs) > 0 {
				narrow = narrow && rs[len(rs)-1].fitsNarrow()
			}
		}
		d := &f.data
		d.narrow = narrow
		s := int(d.stride())
		// The text takes whole words' room after the records: the array
		// holds no pointer, and a string may view any part of it.
		all := make([]uint32, s*n+(len(t)+3)/4)
		k := 0
		for _, rs := range kinds {
			for _, r := range rs {
				put(all, narrow, k, r)
				k++
			}
		}
		if len(t) > 0 {
			tb := unsafe.Slice((*byte)(unsafe.Pointer(&all[s*n])), len(t))
			copy(tb, t)
			text = unsafe.String(&tb[0], len(tb))
		}
		d.text, d.words = text, all[:s*n:s*n]
	}
	d := &f.data
	// A group's views hold the offsets of its parts in each kind's
	// scratch slice (see closeGroup).
	f.Groups = copyOf(b.groups)
	for i := range f.Groups {
		g := &f.Groups[i]
		g.Rules.d, g.Agents.d, g.Extensions.d = d, d, d
		g.Agents.at += uint32(nr)
		g.Extensions.at += uint32(nr + na)
	}
	f.Sitemaps = Sitemaps{run{d: d, at: uint32(nr + na + ne), n: uint32(ns)}}
	if len(t) == 0 {
		return
	}
	arrays := append(b.olds, t)
	f.mapStrings(func(x string) string {
		if len(x) == 0 {
			return x
		}
		p := uintptr(unsafe.Pointer(unsafe.StringData(x)))
		for _, a := range arrays {
			if off := p - uintptr(unsafe.Pointer(&a[0])); off < uintptr(len(a)) {
				return text[off : int(off)+len(x)]
			}
		}
		return x
	})
}

// mapStrings replaces every string of f that keep may have returned, but
// for the records', by fn's result.
func (f *File) mapStrings(fn func(string) string) {
	for i := range f.Diagnostics {
		f.Diagnostics[i].Text = fn(f.Diagnostics[i].Text)
	}
	for i := range f.Joins {
		f.Joins[i].Key = fn(f.Joins[i].Key)
	}
}

// builder is the handler Parse uses to build a File.
//
// The records of all groups are appended to scratch slices that a pooled
// builder keeps, a group's parts after the one before's (groups never
// interleave); the File gets a copy of them all, with its text, of their
// size. A parse allocates no more for its records than the File keeps,
// and does not need to know their number first.
var builderPool = sync.Pool{New: func() any { return new(builder) }}

type builder struct {
	f   *File
	sem Semantics
	sc  scanner // for the text of the line being read

	open      bool // a group is open: rules and extensions go to it
	sawRule   bool // a rule line (allow or disallow) came since the last user-agent line
	sawAgent  bool // a user-agent line came before
	emptyRule int  // the open group's first empty rule line, or 0
	// joiner is the first sitemap, extension or unreadable line since the
	// last user-agent line, while no rule came (joiner.Line 0: none): the
	// Join of the next user-agent line.
	joiner Join

	// outsideRules and outsideExts count the rules and extension lines
	// that belonged to no group, and notUTF8 the lines that are not UTF-8
	// (lastNotUTF8 the last of them), for the file's warnings.
	outsideRules, outsideExts int
	notUTF8, lastNotUTF8      int
	// tooMany counts the diagnostics not kept (MaxDiagnostics), from
	// tooManyLine on.
	tooMany, tooManyLine int

	// The records, in scratch slices that the builder keeps from parse to
	// parse (see reset); finishData copies them into the File's. A
	// group's parts are contiguous in each, in group order.
	agents   []rec
	rules    []rec
	exts     []rec
	sitemaps []rec
	groups   []Group
	diags    []Diagnostic
	// text is what the File keeps of the body: the values, a rule's
	// followed by its pattern when normalising rewrote it, an extension's
	// after its key (see rec). Records hold offsets into it, so it may
	// move as it grows, and the strings keep returned view it; olds are
	// the arrays it moved from (see keep). finishData copies it into the
	// File's.
	text []byte
	olds [][]byte
	// The open group is agents[agent0:], rules[rule0:], exts[ext0:].
	agent0, rule0, ext0 int
	// The rules of the last group that had some are rules[last0:rule0]
	// (see Rule).
	last0 int
	// values finds a rule whose value is that of the rule being read, once
	// a second group has rules (see sameValue): open addressing over the
	// hashes of the values, the index in rules +1 of the first rule with
	// each, 0 empty; nValues are in it. Built when first needed.
	values  []uint32
	nValues int
}

func (b *builder) closeGroup() {
	if !b.open {
		return
	}
	// The group's views hold the offsets of its parts in the scratch
	// slices until finishData points them into the File's records.
	span := func(at, end int) run { return run{at: uint32(at), n: uint32(end - at)} }
	b.groups = push(b.groups, Group{
		Agents:        Agents{span(b.agent0, len(b.agents))},
		Rules:         Rules{span(b.rule0, len(b.rules))},
		Extensions:    Extensions{span(b.ext0, len(b.exts))},
		EmptyRuleLine: b.emptyRule,
	})
	if len(b.rules) > b.rule0 {
		b.last0 = b.rule0
	}
	b.agent0, b.rule0, b.ext0 = len(b.agents), len(b.rules), len(b.exts)
	b.open = false
	b.emptyRule = 0
}

func (b *builder) diag(line int, kind DiagKind, msg string) {
	b.Diagnostic(Diagnostic{Line: line, Kind: kind, Text: cutText(b.sc.content), Message: msg})
}

func (b *builder) UserAgent(line int, value string) {
	if !b.open || b.sawRule {
		b.closeGroup()
		b.open = true
		b.sawRule = false
	} else if b.joiner.Line != 0 {
		// This line joins the open group across a line that does not
		// end it (docs/SEMANTICS.md section 2.1).
		j := b.joiner
		j.Group, j.Agent = len(b.groups), len(b.agents)-b.agent0
		b.f.Joins = append(b.f.Joins, j)
	}
	b.joiner = Join{}
	b.sawAgent = true
	at := len(b.text)
	value = b.keep(value)
	name := AgentName(value)
	switch {
	case value == "":
		b.diag(line, DiagInvalidValue, "empty user-agent: it matches no crawler")
	case name == "":
		b.diag(line, DiagInvalidValue, "user-agent names no product token ([A-Za-z_-]+ or *): it matches no crawler")
	}
	b.agents = push(b.agents, agentRec(at, line, value, name))
}

func (b *builder) Rule(line int, kind RuleKind, value string) {
	if !b.open {
		b.outsideRules++
		b.diag(line, DiagRuleOutsideGroup, kind.String()+b.outside()+": ignored")
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
	if r, ok := b.earlierValue(value); ok {
		b.rules = push(b.rules, ruleRec(int(r.at), line, kind, int(r.a), int(r.b)))
		return
	}
	// The pattern (NormalizePattern's) follows the value in the text when
	// normalising rewrites it: written there, not made and copied.
	at := len(b.text)
	m := patternMode(b.sem)
	if first := firstChange(value, m); first < 0 {
		b.rules = push(b.rules, ruleRec(at, line, kind, len(value), 0))
		b.keep(value)
	} else {
		b.room(len(value) + first + 3*(len(value)-first))
		b.text = append(b.text, value...)
		b.text = appendCanonical(b.text, value, first, m)
		b.rules = push(b.rules, ruleRec(at, line, kind, len(value), len(b.text)-at-len(value)))
	}
	if b.hashed(value) {
		b.addValue(len(b.rules) - 1)
	}
}

// hashed reports whether a rule of value is looked for, and then kept, in
// b.values: in a group after the first with rules, and minSharedValue
// bytes or longer.
func (b *builder) hashed(value string) bool { return b.rule0 > 0 && len(value) >= minSharedValue }

// earlierValue returns the record of a rule before the open group whose
// value is value, whose text the rule shares, and false if it finds none.
// Files often give several groups the same rules in the same order: the
// rule at its place in the last group with rules is looked at first (a
// sixth of the corpus's rule text is such a copy); then any rule before
// the group, found by its value's hash, but for short values, which would
// save little text for their hashing.
func (b *builder) earlierValue(value string) (rec, bool) {
	if k := b.last0 + len(b.rules) - b.rule0; k < b.rule0 {
		if r := b.rules[k]; b.valueOf(r) == value {
			return r, true
		}
	}
	if b.hashed(value) {
		return b.sameValue(value)
	}
	return rec{}, false
}

// valueOf returns the value of a rule's record r, a view of b.text (valid
// until it grows).
func (b *builder) valueOf(r rec) string {
	return unsafe.String(unsafe.SliceData(b.text[r.at:]), int(r.a))
}

// minSharedValue is the shortest value builder.values holds.
const minSharedValue = 8

// valueHash hashes a rule's value of at least minSharedValue bytes for
// builder.values: its length and its first and last eight bytes. Values
// that share them all collide; a file may be made of such values, so a
// search stops after maxValueProbes entries (the rule then keeps its own
// text).
func valueHash(s string) uint64 {
	h := (bytesearch.Load64(s)*0x9e3779b97f4a7c15 ^ bytesearch.Load64(s[len(s)-8:]) ^ uint64(len(s))) * 0xff51afd7ed558ccd
	return h ^ h>>29
}

// maxValueProbes bounds the entries of builder.values one search reads:
// each may compare a value of up to MaxLineLength bytes.
const maxValueProbes = 8

// sameValue returns the record of a rule read before whose value is value
// (of at least minSharedValue bytes), and false if there is none. It makes b.values on its first call in a
// file, from the rules read so far.
func (b *builder) sameValue(value string) (rec, bool) {
	if len(b.values) == 0 {
		b.growValues()
	}
	h := valueHash(value)
	for j := range maxValueProbes {
		k := b.values[b.valueSlot(h, j)]
		if k == 0 {
			break
		}
		if r := b.rules[k-1]; b.valueOf(r) == value {
			return r, true
		}
	}
	return rec{}, false
}

// addValue adds the rule at index k of b.rules, whose value is none of
// those before it, to b.values.
func (b *builder) addValue(k int) {
	if 2*(b.nValues+1) > len(b.values) {
		b.growValues()
		return // growValues added it
	}
	b.insertValue(k)
}

// growValues makes b.values twice as large (at least 64 entries), with
// every rule's value that is none of those before it.
func (b *builder) growValues() {
	n := max(64, 2*len(b.values))
	for n < 4*len(b.rules) {
		n *= 2
	}
	if cap(b.values) >= n {
		b.values = b.values[:n]
		clear(b.values)
	} else {
		b.values = make([]uint32, n)
	}
	b.nValues = 0
	// The text only grows: a rule whose value starts before the end of
	// those before it shares the text of one of them.
	end := uint32(0)
	for k, r := range b.rules {
		if r.at < end {
			continue
		}
		if r.a >= minSharedValue {
			b.insertValue(k)
		}
		end = r.at + uint32(r.a) + uint32(r.b)
	}
}

// insertValue puts the rule at index k of b.rules in b.values, within
// maxValueProbes entries of its hash's.
func (b *builder) insertValue(k int) {
	h := valueHash(b.valueOf(b.rules[k]))
	for j := range maxValueProbes {
		if i := b.valueSlot(h, j); b.values[i] == 0 {
			b.values[i] = uint32(k) + 1
			b.nValues++
			return
		}
	}
	// Past the searches' reach: the rule is left out.
}

// valueSlot returns the j-th entry of b.values a search for a value of
// hash h reads (j < maxValueProbes): the one its hash picks, then those
// after it, around the end.
func (b *builder) valueSlot(h uint64, j int) uint64 {
	return (h + uint64(j)) & uint64(len(b.values)-1)
}

// outside says why a line is outside every group.
func (b *builder) outside() string {
	if b.sawAgent {
		return " after a blank line ended the record (Koster 1996)"
	}
	return " before any user-agent line"
}

// mayJoin notes a line that does not end the open group's user-agent lines
// and is not blank or a comment: if a user-agent line comes next, it is
// that line's Join.
func (b *builder) mayJoin(line int, key string) {
	if b.open && !b.sawRule && b.joiner.Line == 0 {
		b.joiner = Join{Line: line, Key: key}
	}
}

func (b *builder) Sitemap(line int, value string) {
	b.mayJoin(line, "sitemap")
	b.sitemaps = push(b.sitemaps, sitemapRec(len(b.text), line, value))
	b.keep(value)
}

func (b *builder) Extension(line int, key, value string) {
	if key == "crawl-delay" {
		if _, ok := ParseCrawlDelay(value); !ok {
			b.diag(line, DiagInvalidValue, "crawl-delay is not a number of seconds")
		}
	}
	if !b.open {
		b.outsideExts++
		b.diag(line, DiagRuleOutsideGroup, key+b.outside()+": it belongs to no group")
		return
	}
	b.exts = push(b.exts, extRec(len(b.text), line, key, value))
	key = b.keep(key)
	b.mayJoin(line, key)
	b.keep(value)
}

func (b *builder) Unreadable(line int) { b.mayJoin(line, "") }

// Blank ends the record in Koster1996 (a blank line separates records in
// the 1996 draft). A record that has user-agent lines but no rule and no
// extension yet is dropped, as Python's urllib.robotparser drops it.
func (b *builder) Blank(line int) {
	if b.sem != Koster1996 || !b.open {
		return
	}
	if !b.sawRule && len(b.exts) == b.ext0 {
		first := int(b.agents[b.agent0].line)
		b.agents = b.agents[:b.agent0]
		b.open = false
		// The record's Joins (by sitemap or unreadable lines) go with it.
		j := len(b.f.Joins)
		for j > 0 && b.f.Joins[j-1].Group == len(b.groups) {
			j--
		}
		b.f.Joins = b.f.Joins[:j]
		b.diag(line, DiagRuleOutsideGroup,
			"blank line ends the record of the user-agent line "+strconv.Itoa(first)+" before any rule: the record is dropped (Koster 1996)")
		return
	}
	b.closeGroup()
}

// Diagnostic keeps d, or counts it when the File holds MaxDiagnostics
// already (flushTooMany says how many were not kept); a DiagTruncated,
// which ends a scan, is always kept. It counts the lines that are not
// UTF-8 whether or not it keeps their diagnostics: the file's warnings
// need them all.
func (b *builder) Diagnostic(d Diagnostic) {
	if d.Kind == DiagNotUTF8 && d.Line != b.lastNotUTF8 {
		b.notUTF8, b.lastNotUTF8 = b.notUTF8+1, d.Line
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
	d.Text = b.keep(d.Text)
	b.diags = push(b.diags, d)
}

// flushTooMany adds the DiagTooMany that says how many diagnostics were
// not kept, if any were not.
func (b *builder) flushTooMany() {
	if b.tooMany == 0 {
		return
	}
	b.diags = push(b.diags, Diagnostic{
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

// groupsWhere appends to out the indexes of f's groups for which pick is
// true, and returns it.
func (f *File) groupsWhere(out []int, pick func(*Group) bool) []int {
	for i := range f.Groups {
		if pick(&f.Groups[i]) {
			out = append(out, i)
		}
	}
	return out
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

// Select returns the merged rules that apply to a crawler with the given
// product tokens (docs/SEMANTICS.md sections 2.3 and 2.4): every group that
// names one of the tokens (Group.Names: a user-agent line whose name equals
// the token, ignoring case) is selected (MatchSpecific); if there is none,
// every "*" group (MatchGlobal); if there is none either, nothing
// (MatchNone: everything allowed). Tokens that are not valid product tokens
// name no group. Select is the one place where groups are merged.
//
// Rules and Extensions are in file order. They may share memory with f and
// must not be modified. Select is safe for concurrent use.
func (f *File) Select(tokens ...string) Selection { return f.SelectInto(nil, tokens...) }

// SelectInto is Select, the indexes of the selected groups appended to
// buf[:0] (Selection.Groups; nil when none is selected): a caller that
// keeps the Selection in a struct of its own with room for a group saves
// an allocation (engine.Matcher does).
func (f *File) SelectInto(buf []int, tokens ...string) Selection {
	sel := Selection{Match: MatchSpecific}
	sel.Groups = f.groupsWhere(buf[:0], func(g *Group) bool {
		for _, t := range tokens {
			if g.Names(t) {
				return true
			}
		}
		return false
	})
	if len(sel.Groups) == 0 {
		sel.Groups, sel.Match = f.groupsWhere(buf[:0], (*Group).IsGlobal), MatchGlobal
	}
	switch len(sel.Groups) {
	case 0:
		sel.Groups, sel.Match = nil, MatchNone
	case 1:
		g := &f.Groups[sel.Groups[0]]
		sel.Rules, sel.Extensions = g.Rules, g.Extensions
	default:
		// Groups never interleave: concatenating them in group order is
		// file order. Their records, rules then extensions, share the
		// file's text.
		var nr, ne uint32
		for _, i := range sel.Groups {
			nr, ne = nr+f.Groups[i].Rules.n, ne+f.Groups[i].Extensions.n
		}
		if nr+ne == 0 {
			break
		}
		d := &records{text: f.data.text, narrow: f.data.narrow}
		d.words = make([]uint32, 0, d.stride()*(nr+ne))
		for _, i := range sel.Groups {
			d.words = append(d.words, f.Groups[i].Rules.words()...)
		}
		for _, i := range sel.Groups {
			d.words = append(d.words, f.Groups[i].Extensions.words()...)
		}
		sel.Rules = Rules{run{d: d, n: nr}}
		sel.Extensions = Extensions{run{d: d, at: nr, n: ne}}
	}
	return sel
}
