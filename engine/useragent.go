package engine

import (
	"strconv"
	"strings"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// MaxProductTokens is the most product tokens ProductTokens returns for one
// header. A real crawler's User-Agent names one crawler token, sometimes two
// (a product and a sub-product); eight leaves room for odd headers, and the
// bound keeps a hostile header (a thousand "xbot" words) from making a
// thousand-token Matcher key and selection.
const MaxProductTokens = 8

// genericTokens are the products and comment words of browser-like headers
// that name no crawler: a robots.txt group naming one of them is about no
// crawler in particular. They are compared ignoring case.
var genericTokens = [...]string{
	"Mozilla", "AppleWebKit", "KHTML", "Gecko", "like", "compatible",
	"Chrome", "Chromium", "CriOS", "Safari", "Version", "Mobile", "Firefox", "FxiOS",
	"Edg", "Edge", "EdgA", "EdgiOS", "OPR", "Opera", "Presto", "Trident", "MSIE",
	"SamsungBrowser", "YaBrowser", "UCBrowser", "Vivaldi",
	"Windows", "Linux", "Android", "Macintosh", "Intel", "Mac", "OS", "CPU",
	"iPhone", "iPad", "X", "U", "Build", "wv", "IEMobile",
	// The crawler words themselves, alone: "tracking bot", "web spider".
	"bot", "robot", "crawl", "crawler", "spider", "scraper", "fetcher",
}

// crawlerMarkers are the parts of a product name that say it is a crawler
// (compared ignoring case): Googlebot, bingbot, Baiduspider, YandexBot,
// Yahoo! Slurp, ia_archiver, Feedfetcher-Google.
var crawlerMarkers = [...]string{"bot", "crawl", "spider", "slurp", "scrap", "fetch", "archiv"}

// ProductTokens returns the robots.txt product tokens of a crawler's
// User-Agent header, in header order, without duplicates (ignoring case), at
// most MaxProductTokens:
//
//	Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)  -> [Googlebot]
//	Googlebot-Image/1.0                                                        -> [Googlebot-Image]
//	Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; ...) -> [bingbot]
//	facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php) -> [facebookexternalhit]
//	Mozilla/5.0 (Windows NT 10.0; Win64; x64) ... Chrome/120.0 Safari/537.36   -> []
//
// The header is read as RFC 9110 section 10.1.5 writes it: products
// ("name/version") and parenthesised comments, whose items are separated by
// ';' or ','. A word is a product when its name (the part before '/', after
// any leading '+') is made of RFC 9110 token characters; URLs
// ("+http://..."), e-mail addresses, bare version numbers and "www." host
// names are not. A product that is not generic is kept when:
//
//   - its name looks like a crawler: it contains bot, crawl, spider, slurp,
//     scrap, fetch or archiv (ignoring case) ("Googlebot", "Baiduspider",
//     "ia_archiver", "Yahoo! Slurp", "Feedfetcher-Google"); or
//   - it is the first product outside comments that gives a token
//     ("facebookexternalhit/1.1", "curl/8.4.0", "ChatGPT-User/1.0"); or
//   - it has a version and is inside a comment ("(Applebot/0.1; ...)",
//     "(compatible; Yeti/1.1; ...)"); or
//   - it is the first word of the comment item right after "compatible;",
//     the convention of "Mozilla/5.0 (compatible; NAME; ...)", unless that
//     item has a crawler-like product of its own: "(compatible;
//     Google-Read-Aloud; ...)" gives Google-Read-Aloud, "(compatible; Speedy
//     Spider; ...)" gives Speedy, "(compatible; Yahoo! Slurp; ...)" gives
//     only Slurp, as another word of that item is kept.
//
// Generic products are those of browsers and platforms (Mozilla,
// AppleWebKit, KHTML, Gecko, Chrome, Safari, Version, Mobile, compatible,
// like, Trident, MSIE, Build, ...) and the crawler words alone (bot, crawler,
// spider, ...: "Sogou web spider/4.0" gives Sogou). A product right after
// "like" is skipped ("like Gecko", "(like TwitterBot)": a client says it
// imitates that one, not that it is it).
//
// Each kept name is cut to its leading run of [A-Za-z_-], as the value of a
// user-agent line is cut, so that the token is the name the crawler's group
// has in a robots.txt: "MJ12bot/v1.4.8" gives "MJ" (and
// "User-agent: MJ12bot" names "MJ" too); a name that starts otherwise
// ("360Spider") gives nothing, as such a user-agent line names no crawler.
//
// ProductTokens runs in time linear in len(header); the tokens are
// substrings of header.
func ProductTokens(header string) []string {
	return AppendProductTokens(nil, header)
}

// AppendProductTokens appends the product tokens of header (see
// ProductTokens) to dst and returns the extended slice. Duplicates are
// checked among the tokens it appends, not those already in dst. It
// allocates nothing when dst has room for MaxProductTokens more.
func AppendProductTokens(dst []string, header string) []string {
	u := uaScanner{dst: dst, start: len(dst)}
	for i := 0; i < len(header) && !u.full(); {
		switch c := header[i]; c {
		case '(', ')', ';', ',':
			u.endItem()
			if c == '(' {
				u.depth++
			} else if c == ')' && u.depth > 0 {
				u.depth--
			}
			i++
			continue
		case ' ', '\t':
			if u.depth == 0 {
				u.endItem() // outside comments every word is an item of its own
			}
			i++
			continue
		}
		j := i
		for j < len(header) && !isUASep(header[j]) {
			j++
		}
		u.word(header[i:j])
		i = j
	}
	u.endItem()
	return u.dst
}

// uaScanner is AppendProductTokens's state. An item is a comment item, or a
// word outside comments.
type uaScanner struct {
	dst   []string
	start int // dst[start:] are the tokens found
	depth int // comment nesting

	firstTaken bool // the first non-generic product outside comments that gives a token was seen
	afterLike  bool // the previous word was "like"

	words      int    // words in the current item so far
	compatible bool   // the current item is the single word "compatible" so far
	compatItem bool   // the current item follows a "compatible" item
	pending    string // the first word of a compatItem, kept at its end unless another word of it was
	itemKept   bool   // a word of the current item was kept
}

func (u *uaScanner) full() bool { return len(u.dst)-u.start >= MaxProductTokens }

func (u *uaScanner) add(tok string) {
	if !u.full() && !containsFold(u.dst[u.start:], tok) {
		u.dst = append(u.dst, tok)
	}
}

func (u *uaScanner) endItem() {
	if u.words == 0 {
		return
	}
	if u.pending != "" && !u.itemKept {
		u.add(u.pending)
	}
	u.compatItem = u.depth > 0 && u.words == 1 && u.compatible
	u.words, u.compatible, u.pending, u.itemKept = 0, false, "", false
}

func (u *uaScanner) word(w string) {
	first := u.words == 0
	u.words++
	afterLike := u.afterLike
	u.afterLike = strings.EqualFold(w, "like")
	if first {
		u.compatible = strings.EqualFold(w, "compatible")
	}
	for len(w) > 0 && w[0] == '+' {
		w = w[1:]
	}
	name, version := w, false
	if s := strings.IndexByte(w, '/'); s >= 0 {
		name, version = w[:s], true
	}
	if !isTokenName(name) || isGeneric(name) || afterLike {
		return
	}
	if hasPrefixFold(name, "www.") {
		return // a host name, not a product
	}
	crawler := looksLikeCrawler(name)
	tok := compile.AgentName(name)
	if tok == "*" {
		tok = ""
	}
	if tok == "" {
		return
	}
	if u.depth == 0 && !u.firstTaken {
		u.firstTaken = true
		u.add(tok)
		return
	}
	switch {
	case crawler, u.depth > 0 && version:
		u.itemKept = true
		u.add(tok)
	case u.depth > 0 && first && u.compatItem:
		u.pending = tok
	}
}

// isUASep reports whether c ends a word of a User-Agent header.
func isUASep(c byte) bool {
	switch c {
	case ' ', '\t', '(', ')', ';', ',':
		return true
	}
	return false
}

// isTokenName reports whether s is an RFC 9110 token: tchar =
// "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" /
// "`" / "|" / "~" / DIGIT / ALPHA.
func isTokenName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c|0x20 && c|0x20 <= 'z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

func isGeneric(tok string) bool {
	for _, g := range genericTokens {
		if strings.EqualFold(tok, g) {
			return true
		}
	}
	return false
}

func looksLikeCrawler(name string) bool {
	for _, m := range crawlerMarkers {
		if indexFold(name, m) >= 0 {
			return true
		}
	}
	return false
}

// indexFold returns the index of the lower-case ASCII word sub in s,
// ignoring ASCII case, or -1. It does not allocate.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if equalFoldASCII(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// hasPrefixFold reports whether s starts with the lower-case ASCII prefix,
// ignoring ASCII case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && equalFoldASCII(s[:len(prefix)], prefix)
}

func containsFold(list []string, s string) bool {
	for _, t := range list {
		if strings.EqualFold(t, s) {
			return true
		}
	}
	return false
}

// FallbackTokens returns the fallback chain of a product token: the token,
// then each shorter prefix that ends before a '-', longest first:
//
//	Googlebot-Image       -> [Googlebot-Image Googlebot]
//	AdsBot-Google-Mobile  -> [AdsBot-Google-Mobile AdsBot-Google AdsBot]
//	bingbot               -> [bingbot]
//
// token is first cut to its leading run of [A-Za-z_-], as the value of a
// user-agent line is; an empty result gives nil.
//
// The chain is a heuristic for crawlers named "family-variant", as Google's
// are. It is only as good as the naming: "Google-InspectionTool" gives
// [Google-InspectionTool Google], and Google documents that this crawler
// obeys Googlebot's group, which no hyphen chain finds. A crawler that
// documents its own fallbacks should pass those.
//
// There are two ways to use a chain, and they differ when the file has
// groups for more than one of its tokens:
//
//   - MatcherChain(chain...) picks the FIRST token that some group names and
//     obeys only the groups naming it: the most specific group wins, the
//     others are ignored. This is what Google documents for its crawlers
//     ("only one group is valid for a particular crawler"; Googlebot-Image
//     follows the googlebot group when there is no googlebot-image group).
//   - Matcher(chain...) applies every group naming ANY token, merged
//     (what Google's open-source library does when given several
//     tokens).
//
// With a file that has a group for only one token of the chain, both give
// the same matcher.
//
// The tokens are substrings of token.
func FallbackTokens(token string) []string {
	var dst []string
	t := compile.AgentName(token)
	if t == "*" {
		return dst
	}
	for t != "" {
		dst = append(dst, t)
		i := strings.LastIndexByte(t, '-')
		if i < 0 {
			break
		}
		t = strings.TrimRight(t[:i], "-")
	}
	return dst
}

// MatcherChain returns the matcher for the first of tokens that a group of
// the file names (ignoring case, as Select compares): that token's groups
// apply, merged, and the groups naming the later tokens do not. When no
// group names any of them it returns Matcher(tokens...), which applies the
// "*" groups (or nothing). A string that is not a product token is read as
// AgentTokens says: in RFC9309 and Koster1996 its product tokens take its
// place in the chain, in order.
//
// This is the fallback chain of Google's documentation: pass the crawler's
// tokens most specific first, for example FallbackTokens("Googlebot-Image").
// Matcher(tokens...) differs only in merging the groups of every token; see
// FallbackTokens. Like Matcher, it is safe for concurrent use and, once the
// matcher is cached, allocates nothing when every string is a token.
func (r *Robots) MatcherChain(tokens ...string) *Matcher {
	sem := r.file.Semantics
	for _, t := range tokens {
		if readsAsItself(sem, t) {
			if r.names(t) {
				return r.Matcher(t)
			}
			continue
		}
		var buf [MaxProductTokens]string
		for _, p := range AppendProductTokens(buf[:0], t) {
			if r.names(p) {
				return r.Matcher(p)
			}
		}
	}
	return r.Matcher(tokens...)
}

// names reports whether some group of r's file names tok (compile's
// Group.Names, as File.Select asks).
func (r *Robots) names(tok string) bool {
	for i := range r.file.Groups {
		if r.file.Groups[i].Names(tok) {
			return true
		}
	}
	return false
}

// AgentTokens returns the product tokens that agent, a string a caller
// passes to Robots.Matcher, MatcherChain, Allowed or Explain, stands for in
// semantics sem:
//
//   - A product token (letters, '-' and '_') stands for itself, and so do ""
//     and "*", which name no group (the "*" groups apply).
//   - In RFC9309 and Koster1996 any other string is read as a User-Agent
//     header, with ProductTokens: "Googlebot/2.1" and "Mozilla/5.0
//     (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" both
//     stand for Googlebot, "MJ12bot" for MJ (as "User-agent: MJ12bot" names
//     MJ), and a browser's header for no token at all.
//   - In Google it stands for itself, and so names no group, as in Google's
//     library: "Foo Bar" matches no "Foo" group (its tests say so), and
//     "Googlebot/2.1" no Googlebot group.
//
// The returned slice is agent itself in a slice for a token, "", "*" and in
// Google; it is nil for a header with no product token.
func AgentTokens(sem Semantics, agent string) []string {
	if readsAsItself(sem, agent) {
		return []string{agent}
	}
	return ProductTokens(agent)
}

// readsAsItself reports whether agent stands for itself in sem (see
// AgentTokens).
func readsAsItself(sem Semantics, agent string) bool {
	return sem == Google || agent == "" || agent == "*" || compile.ValidToken(agent)
}

// readAgents returns the tokens that agents stand for in sem (AgentTokens
// of each, in order): agents itself, without allocating, when each stands
// for itself.
func readAgents(sem Semantics, agents []string) []string {
	i := 0
	for i < len(agents) && readsAsItself(sem, agents[i]) {
		i++
	}
	if i == len(agents) {
		return agents
	}
	out := append([]string(nil), agents[:i]...)
	for _, a := range agents[i:] {
		if readsAsItself(sem, a) {
			out = append(out, a)
		} else {
			out = AppendProductTokens(out, a)
		}
	}
	return out
}

// AgentError is the error of an API that a crawler configures once
// (fetch.Client, fetch.Transport) given an agent that is not a product
// token: refused, in every semantics, rather than read one way or another
// (as AgentTokens reads it for a Matcher): a crawler that passes its header
// there should be told at once.
type AgentError struct {
	// Agent is the string given.
	Agent string
	// Tokens are its product tokens, read as a User-Agent header
	// (ProductTokens); none when it holds none.
	Tokens []string
}

// Error says what was given and what to pass instead.
func (e *AgentError) Error() string {
	var b strings.Builder
	b.WriteString("agent ")
	b.WriteString(strconv.Quote(cutAgent(e.Agent)))
	b.WriteString(" is not a product token (letters, '-' and '_'), which a robots.txt names crawlers by: ")
	switch len(e.Tokens) {
	case 0:
		b.WriteString("it holds none; pass the crawler's token, such as ExampleBot")
	case 1:
		b.WriteString("pass its product token " + e.Tokens[0])
	default:
		b.WriteString("pass its product tokens " + strings.Join(e.Tokens, ", "))
	}
	if strings.ContainsAny(e.Agent, " /;(") {
		b.WriteString(", and send the whole string as the User-Agent header")
	}
	return b.String()
}

// maxAgentQuoted bounds how much of an agent an AgentError quotes: a
// User-Agent header is a few hundred bytes, a hostile one megabytes.
const maxAgentQuoted = 256

func cutAgent(a string) string {
	if len(a) > maxAgentQuoted {
		return a[:maxAgentQuoted] + "..."
	}
	return a
}

// CheckAgent returns nil when agent is a product token, "" or "*" (which
// ask for the "*" groups), and otherwise an *AgentError naming the tokens
// the string holds. APIs that a crawler configures once call it, so that a
// User-Agent header or a version ("FooBot/1.0") passed where a token belongs
// fails at once instead of obeying the wrong groups.
func CheckAgent(agent string) error {
	if readsAsItself(RFC9309, agent) {
		return nil
	}
	return &AgentError{Agent: agent, Tokens: ProductTokens(agent)}
}

// agentNote says, for Explanation.String, how agent, which is not a product
// token, was read in sem.
func agentNote(sem Semantics, agent string) string {
	q := strconv.Quote(cutAgent(agent))
	toks := ProductTokens(agent)
	if sem == Google {
		s := q + " is not a product token: Google semantics compares it as given, as Google's library does, so it names no group"
		if len(toks) > 0 {
			s += " (pass " + strings.Join(toks, ", ") + ")"
		}
		return s
	}
	if len(toks) == 0 {
		return q + " is not a product token and, read as a User-Agent header, holds none: it names no group"
	}
	return q + " is not a product token: read as a User-Agent header, it stands for " + strings.Join(toks, ", ")
}
