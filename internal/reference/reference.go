package reference

import (
	"sort"
	"strconv"
	"strings"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
)

// This file is the reference matcher (the oracle). It is test support, not
// for production: slow, allocating, naive on purpose.
//
// It shares no code with the engine that decides: it reads the file into
// groups itself (parse.go, docs/SEMANTICS.md sections 1 and 2.1), and
// everything after that is written here again, from docs/SEMANTICS.md,
// without calling compile or engine: the name a user-agent line gives and
// which groups a crawler obeys (sections 2.2-2.4), how a URL becomes a path
// (3.3), how patterns and paths are percent-normalised (3.1, 3.2), how a
// pattern matches (3.1) and which rule decides (4). From compile it takes
// only the names of the semantics and of the rule kinds.
//
// One function of the engine is used: engine.ProductTokens, which reads a
// User-Agent header into product tokens, for a caller's agent that is not a
// product token (section 2.3). Reading a header is no part of selecting,
// matching or normalising, and ProductTokens has a table of its own
// (testdata/useragents/headers.tsv); the reference checks, on its own, in
// which semantics and for which strings it applies.

// Reasons a Result gives for its decision.
const (
	ReasonRule      = "rule"       // a rule of the file decided
	ReasonNoMatch   = "no-match"   // no rule matched: allowed
	ReasonRobotsTxt = "robots.txt" // RFC9309: /robots.txt is always allowed
	ReasonIndexHTM  = "index.htm"  // Google: an allow rule ending in /index.htm* allowed its directory
)

// Result is the reference matcher's decision for one URL.
type Result struct {
	Allowed bool
	// Line is the deciding rule's line; 0 when no rule decided.
	Line int
	// Kind is the kind of the deciding rule; compile.NoRule when Line is 0.
	Kind compile.RuleKind
	// Pattern is the deciding rule's pattern as the reference normalises it
	// ("" when none). For ReasonIndexHTM it is the synthetic pattern ("/d/$").
	Pattern string
	// Reason is one of ReasonRule, ReasonNoMatch, ReasonRobotsTxt, ReasonIndexHTM.
	Reason string
}

// Decide parses body for sem and decides rawURL for a crawler with the given
// product tokens. It is the reference: slow, naive, obviously correct; not
// for production. It shares no parsing, selection, matching, path or
// normalisation code with the engine (see the package doc).
func Decide(body []byte, agents []string, rawURL string, sem compile.Semantics) Result {
	return DecideFile(Parse(body, sem), agents, rawURL)
}

// DecideFile is Decide on a file Parse read; the semantics are the file's.
// rawURL is anything engine.Matcher.Decide accepts (docs/SEMANTICS.md
// section 3.3).
func DecideFile(f *File, agents []string, rawURL string) Result {
	return decide(f, agents, ExtractPath(rawURL, f.Semantics))
}

// DecidePath is DecideFile for a path already extracted from its URL, as
// engine.Matcher.DecidePath takes it: a '#' ends it, a '/' is put in front
// when it does not start with one, and it is then normalised for
// f.Semantics like any extracted path (no URL extraction is applied).
func DecidePath(f *File, agents []string, path string) Result {
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path = path[:i]
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	return decide(f, agents, path)
}

// candidate is a rule as the priority sees it: its line and kind, its
// pattern as normalised here, and whether it is Google's synthetic
// "directory$" allow of an index.htm rule.
type candidate struct {
	line      int
	kind      compile.RuleKind
	pattern   string
	synthetic bool
}

// decide decides an extracted path (it starts with '/', no fragment).
func decide(f *File, agents []string, path string) Result {
	sem := f.Semantics
	path = NormalizedPath(path, sem)
	rules := selectRules(f, agents)
	var cands []candidate
	for _, r := range rules {
		c := candidate{line: r.Line, kind: r.Kind, pattern: NormalizedPattern(r.Value, sem)}
		cands = append(cands, c)
		if sem == compile.Google {
			if syn, ok := indexHTM(c); ok {
				cands = append(cands, syn)
			}
		}
	}
	switch sem {
	case compile.Koster1996:
		return firstMatch(cands, path)
	case compile.Google:
		return longestMatch(cands, path)
	default: // RFC9309
		if path == "/robots.txt" {
			return Result{Allowed: true, Reason: ReasonRobotsTxt}
		}
		return longestMatch(cands, path)
	}
}

// ---- Which rules apply (docs/SEMANTICS.md sections 2.2-2.4) ----

// selectRules returns the rules that apply to a crawler with the given
// product tokens, merged, in file order: every group naming one of the
// valid tokens; if there is none, every "*" group; if there is none either,
// no rules.
func selectRules(f *File, agents []string) []Rule {
	var rules []Rule
	for _, g := range selectGroups(f, agents) {
		rules = append(rules, g.Rules...)
	}
	// File order across merged groups (it already is, if the groups are in
	// file order; the sort says what the order means).
	sort.SliceStable(rules, func(i, j int) bool { return rules[i].Line < rules[j].Line })
	return rules
}

// selectGroups returns the groups that apply to a crawler with the given
// product tokens: every group naming one of the valid tokens; if there is
// none, every "*" group; if there is none either, none.
func selectGroups(f *File, agents []string) []Group {
	agents = readAgents(f.Semantics, agents)
	var specific, global []Group
	for _, g := range f.Groups {
		if namesAnyAgent(g, agents) {
			specific = append(specific, g)
		}
		if isGlobalGroup(g) {
			global = append(global, g)
		}
	}
	if len(specific) > 0 {
		return specific
	}
	return global
}

// readAgents returns what the caller's agents stand for (section 2.3): a
// product token, "" and "*" stand for themselves; any other string stands
// for itself in Google (and so names no group), and for the product tokens
// of the User-Agent header it is read as in RFC9309 and Koster1996.
func readAgents(sem compile.Semantics, agents []string) []string {
	var out []string
	for _, a := range agents {
		if sem == compile.Google || a == "" || a == "*" || isProductToken(a) {
			out = append(out, a)
			continue
		}
		out = append(out, engine.ProductTokens(a)...)
	}
	return out
}

// AgentName returns the name a user-agent line's value gives (section
// 2.2): "*" for a '*' alone or followed by a space, tab, vertical tab or
// form feed, otherwise the leading run of letters, '-' and '_' (possibly
// "", which names no crawler).
func AgentName(value string) string {
	if strings.HasPrefix(value, "*") {
		if value == "*" || strings.IndexByte(" \t\v\f", value[1]) >= 0 {
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

// namesAnyAgent reports whether one of g's user-agent lines names one of the
// agents that is a valid product token, ignoring case.
func namesAnyAgent(g Group, agents []string) bool {
	for _, a := range g.Agents {
		name := AgentName(a.Value)
		if name == "" || name == "*" {
			continue
		}
		for _, agent := range agents {
			if isProductToken(agent) && strings.EqualFold(name, agent) {
				return true
			}
		}
	}
	return false
}

// isGlobalGroup reports whether one of g's user-agent lines names "*".
func isGlobalGroup(g Group) bool {
	for _, a := range g.Agents {
		if AgentName(a.Value) == "*" {
			return true
		}
	}
	return false
}

// isProductToken reports whether tok is one or more of [A-Za-z_-].
func isProductToken(tok string) bool {
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

func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-'
}

// ---- From a URL to its path (docs/SEMANTICS.md section 3.3) ----

// ExtractPath returns the path + ";params" + "?query" of rawURL, as written
// (nothing decoded), as the reference reads URLs for sem: always a string
// that starts with '/', without the fragment.
//
//   - A path that starts with '/' but not "//" is used as it is.
//   - RFC9309 and Koster1996: a URL with an RFC 3986 scheme followed by
//     "//", or a text starting with "//", has an authority that ends at the
//     first '/', '?' or '#'; the path is what follows.
//   - Anything else, and every input in Google, is read as Google's
//     library's GetPathParamsQuery reads it (robots.cc).
func ExtractPath(rawURL string, sem compile.Semantics) string {
	if sem == compile.Google {
		return googlePath(rawURL)
	}
	u := rawURL
	var rest string
	switch {
	case strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//"):
		rest = u
	case strings.HasPrefix(u, "//"):
		rest = afterAuthority(u[2:])
	case hasScheme(u) && strings.HasPrefix(u[strings.IndexByte(u, ':')+1:], "//"):
		rest = afterAuthority(u[strings.IndexByte(u, ':')+3:])
	default:
		return googlePath(u)
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	if !strings.HasPrefix(rest, "/") {
		rest = "/" + rest // "" (no path) and "?query"
	}
	return rest
}

// hasScheme reports whether u starts with an RFC 3986 scheme and its ':':
// a letter, then letters, digits, '+', '-' or '.'.
func hasScheme(u string) bool {
	colon := strings.IndexByte(u, ':')
	if colon < 1 {
		return false
	}
	for i := 0; i < colon; i++ {
		c := u[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if i == 0 && !letter {
			return false
		}
		if !letter && !('0' <= c && c <= '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// afterAuthority returns s, the text after "//", from the end of the
// authority on: from its first '/', '?' or '#', or "" when it has none.
func afterAuthority(s string) string {
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		return s[i:]
	}
	return ""
}

// googlePath is Google's robots.cc GetPathParamsQuery, transcribed
// statement by statement: skip a leading "//"; "://" marks the end of a
// scheme only when no '/', '?' or ';' comes before it; the path starts at
// the first '/', '?' or ';' after that (so without a scheme the first
// segment is a host); a '#' before that start gives "/"; the path ends at
// '#'; a '/' is put in front of a path that starts with '?' or ';'; no path
// gives "/".
func googlePath(url string) string {
	searchStart := 0
	if strings.HasPrefix(url, "//") {
		searchStart = 2
	}
	earlyPath := indexAnyFrom(url, "/?;", searchStart)
	protocolEnd := indexFrom(url, "://", searchStart)
	if earlyPath >= 0 && (protocolEnd < 0 || earlyPath < protocolEnd) {
		protocolEnd = -1 // the path, params or query start before "://"
	}
	if protocolEnd < 0 {
		protocolEnd = searchStart
	} else {
		protocolEnd += 3
	}
	pathStart := indexAnyFrom(url, "/?;", protocolEnd)
	if pathStart < 0 {
		return "/"
	}
	hashPos := indexFrom(url, "#", searchStart)
	if hashPos >= 0 && hashPos < pathStart {
		return "/"
	}
	pathEnd := len(url)
	if hashPos >= 0 {
		pathEnd = hashPos
	}
	path := url[pathStart:pathEnd]
	if url[pathStart] != '/' {
		return "/" + path
	}
	return path
}

// indexFrom is strings.Index(s[from:], sub) as an index into s, or -1.
func indexFrom(s, sub string, from int) int {
	if i := strings.Index(s[from:], sub); i >= 0 {
		return from + i
	}
	return -1
}

// indexAnyFrom is strings.IndexAny(s[from:], chars) as an index into s, or -1.
func indexAnyFrom(s, chars string, from int) int {
	if i := strings.IndexAny(s[from:], chars); i >= 0 {
		return from + i
	}
	return -1
}

// ---- Percent-encoding (docs/SEMANTICS.md sections 3.1 and 3.2) ----

// piece is one unit of a value or a path as written: a byte written as
// itself, or a valid escape "%xy" (x and y hex digits) standing for a byte.
type piece struct {
	b      byte // the byte; for an escape, the byte it stands for
	escape bool // written as "%xy"
}

// split cuts s into pieces, left to right: "%xy" with two hex digits is one
// escape; every other byte, a '%' without two hex digits after it
// included, is a piece of its own.
func split(s string) []piece {
	var out []piece
	for i := 0; i < len(s); {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				panic("fuzz: split: " + err.Error())
			}
			out = append(out, piece{b: byte(v), escape: true})
			i += 3
			continue
		}
		out = append(out, piece{b: s[i]})
		i++
	}
	return out
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isUnreserved reports whether c is an RFC 3986 unreserved character.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// appendEscape appends "%HH" (upper-case hex) for c.
func appendEscape(out []byte, c byte) []byte {
	const hex = "0123456789ABCDEF"
	return append(out, '%', hex[c>>4], hex[c&15])
}

// endsInBrokenEscape reports whether out, a canonical form being written,
// ends with a '%' or with a '%' and one hex digit: writing a hex digit
// next would make a valid escape that was not written as one, and a second
// normalisation would read it as one (docs/SEMANTICS.md section 3.2, "so
// that normalising twice gives what normalising once did"). A '%' in the
// output that is not the start of a whole "%HH" just written is always a
// '%' of the input that started no valid escape.
func endsInBrokenEscape(out []byte) bool {
	n := len(out)
	return n >= 1 && out[n-1] == '%' || n >= 2 && out[n-2] == '%' && isHex(out[n-1])
}

// canonical writes s in the canonical form of sem: RFC9309 and Koster1996
// decode escapes of unreserved characters (except a hex digit that would
// complete a broken escape), write every other escape with upper-case hex,
// and write bytes from 0x80 up as "%HH"; Google decodes nothing and only
// upper-cases escapes and escapes bytes from 0x80 up. wild says how '*' and
// '$' written as themselves are read: wildStar keeps '*' (a wildcard),
// dollarLast keeps a '$' that is the last byte (the end anchor), dollarAll
// keeps every '$' (Google's patterns: a '$' elsewhere is a literal byte to
// its matcher); those not kept are written "%2A" and "%24".
func canonical(s string, sem compile.Semantics, wild wildcards) string {
	decode := sem != compile.Google
	ps := split(s)
	var out []byte
	for i, p := range ps {
		last := i == len(ps)-1
		switch {
		case p.escape:
			if decode && isUnreserved(p.b) && !(isHex(p.b) && endsInBrokenEscape(out)) {
				out = append(out, p.b)
			} else {
				out = appendEscape(out, p.b)
			}
		case p.b >= 0x80:
			out = appendEscape(out, p.b)
		case p.b == '*' && !wild.star:
			out = appendEscape(out, p.b)
		case p.b == '$' && !(wild.dollarAll || wild.dollarLast && last):
			out = appendEscape(out, p.b)
		default:
			out = append(out, p.b)
		}
	}
	return string(out)
}

// wildcards says which '*' and '$' written as themselves canonical keeps.
type wildcards struct {
	star, dollarLast, dollarAll bool
}

// NormalizedPattern returns the rule value p (as written) in the form the
// reference matches for sem (docs/SEMANTICS.md sections 3.1, 3.2):
// RFC9309 keeps '*' and a last '$' as wildcards, escapes any other '$';
// Google keeps every '*' and '$'; Koster1996 has no wildcards and escapes
// both. Its length in bytes is the rule's length for the longest match.
func NormalizedPattern(p string, sem compile.Semantics) string {
	switch sem {
	case compile.Google:
		return canonical(p, sem, wildcards{star: true, dollarAll: true})
	case compile.Koster1996:
		return canonical(p, sem, wildcards{})
	}
	return canonical(p, sem, wildcards{star: true, dollarLast: true})
}

// NormalizedPath returns an extracted path in the form the reference
// compares patterns with: in RFC9309 and Koster1996 the canonical form
// with every '*' and '$' escaped (they are data in a URL); in Google the
// path exactly as given.
func NormalizedPath(path string, sem compile.Semantics) string {
	if sem == compile.Google {
		return path
	}
	return canonical(path, sem, wildcards{})
}

// ---- Deciding (docs/SEMANTICS.md section 4) ----

// indexHTM returns, for Google, the synthetic allow of an allow rule whose
// last "/"-segment starts with "/index.htm": the pattern up to and including
// that slash, then '$', on the same line (docs/SEMANTICS.md section 4.3).
func indexHTM(c candidate) (candidate, bool) {
	if c.kind != compile.Allow {
		return candidate{}, false
	}
	slash := strings.LastIndexByte(c.pattern, '/')
	if slash < 0 || !strings.HasPrefix(c.pattern[slash:], "/index.htm") {
		return candidate{}, false
	}
	return candidate{line: c.line, kind: compile.Allow, pattern: c.pattern[:slash+1] + "$", synthetic: true}, true
}

// longestMatch decides by the RFC9309/Google priority: among the matching
// candidates, the longest pattern in bytes wins; on equal length an allow
// beats a disallow; among equal (length, kind) the earliest line is
// reported. No match: allowed.
func longestMatch(cands []candidate, path string) Result {
	var best *candidate
	for i := range cands {
		c := &cands[i]
		if !Match(c.pattern, path) {
			continue
		}
		if best == nil || beats(c, best) {
			best = c
		}
	}
	if best == nil {
		return Result{Allowed: true, Reason: ReasonNoMatch}
	}
	return result(*best)
}

func result(c candidate) Result {
	reason := ReasonRule
	if c.synthetic {
		reason = ReasonIndexHTM
	}
	return Result{Allowed: c.kind == compile.Allow, Line: c.line, Kind: c.kind, Pattern: c.pattern, Reason: reason}
}

// beats reports whether c has a higher priority than best: longer pattern;
// then allow over disallow; then earlier line; then a real rule over a
// synthetic one.
func beats(c, best *candidate) bool {
	lc, lb := len(c.pattern), len(best.pattern)
	if lc != lb {
		return lc > lb
	}
	if c.kind != best.kind {
		return c.kind == compile.Allow
	}
	if c.line != best.line {
		return c.line < best.line
	}
	return !c.synthetic && best.synthetic
}

// firstMatch decides by the Koster1996 priority: the first rule in file
// order whose pattern is a prefix of the path decides ('*' and '$' were
// escaped on both sides: they are ordinary bytes there). No match: allowed.
func firstMatch(cands []candidate, path string) Result {
	for _, c := range cands {
		if strings.HasPrefix(path, c.pattern) {
			return result(c)
		}
	}
	return Result{Allowed: true, Reason: ReasonNoMatch}
}

// Match reports whether pattern matches path the way RFC9309 and Google read
// patterns: anchored at the start of path; '*' matches any run of bytes
// (also none, also '/'); a '$' that is the LAST byte of pattern anchors the
// end of path; any other '$' is an ordinary byte; without a final '$' the
// pattern only has to match a prefix of path. The empty pattern matches
// every path.
//
// The pattern is cut at its '*' into literal parts. The first must start
// path; each next one is looked for after the one before, and the first
// place it occurs is as good as any later one (whatever can follow a later
// occurrence can follow the first); the last must end path when anchored.
// So Match is a few strings.Index calls, linear in path for each part,
// whatever the input: no regexp, no backtracking. TestMatch_AgreesWithTable
// checks it against the plain dynamic programme over (pattern, path)
// positions on random inputs.
func Match(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		if anchored {
			return path == pattern
		}
		return strings.HasPrefix(path, pattern)
	}
	if !strings.HasPrefix(path, parts[0]) {
		return false
	}
	rest := path[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	if anchored {
		return strings.HasSuffix(rest, last)
	}
	return strings.Contains(rest, last)
}
