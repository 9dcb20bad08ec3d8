package compile

import (
	"strings"

	"github.com/seed-275a9bd5/robotstxt/internal/bytesearch"
)

// This file brings rule values and URLs to the one canonical form that the
// matcher compares byte by byte (docs/SEMANTICS.md section 3.2).
//
// The canonical form is built one input unit at a time. A unit is one byte,
// or one valid escape "%xy" (three bytes, x and y hex digits). Each unit
// becomes one to three output bytes; which ones depends only on the unit, on
// at most two bytes before it and on whether it is the last byte of the input,
// so the same function serves the allocating forms (NormalizePattern,
// URLPath) and the streaming form (NormalizePathInto). The fast path is a
// scan with a [256]uint8 class table that returns the input itself when no
// unit changes.
//
// Idempotence needs one rule that the sources do not state. An invalid '%'
// (one not followed by two hex digits) is kept as it is; decoding an escape
// right after it could turn it into a valid escape ("%%41" would become
// "%A", and "%%414" would become "%A4", which a second pass would read as
// the escape %A4). So an escape of a hex digit ('0'-'9', 'A'-'F', 'a'-'f')
// is not decoded when it directly follows an invalid '%' or an invalid '%'
// and one hex digit; it keeps its '%' and gets uppercase hex like any other
// escape that is kept. Pattern and URL follow the same rule, so they still
// compare equal whenever they are written the same way.

// Byte classes of the table below. A byte with none of the bits that a mode
// asks about is copied unchanged.
const (
	clHigh       = 1 << iota // 0x80-0xFF: always becomes %HH
	clPercent                // '%': a unit whose form depends on what follows
	clStar                   // '*': %2A where it is not a wildcard
	clDollar                 // '$': %24 where it is not an end anchor
	clUnreserved             // A-Z a-z 0-9 - . _ ~: an escape of one is decoded
	clHex                    // 0-9 A-F a-f
	clLowerHex               // a-f: a hex digit that an escape must not keep
)

// class maps every byte to its class bits.
var class = func() (t [256]uint8) {
	for c := 0x80; c < 0x100; c++ {
		t[c] = clHigh
	}
	t['%'] = clPercent
	t['*'] = clStar
	t['$'] = clDollar
	for c := 'A'; c <= 'Z'; c++ {
		t[c] |= clUnreserved
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= clUnreserved
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= clUnreserved | clHex
	}
	for _, c := range "-._~" {
		t[c] |= clUnreserved
	}
	for c := 'A'; c <= 'F'; c++ {
		t[c] |= clHex
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] |= clHex | clLowerHex
	}
	return t
}()

const upperHex = "0123456789ABCDEF"

// mode is one of the three ways the unit function rewrites its input.
type mode uint8

const (
	// modeGoogle uppercases the hex of valid escapes and escapes bytes
	// >= 0x80; it decodes nothing, and '*' and '$' stay: Google's patterns.
	modeGoogle mode = iota
	// modePattern is modeGoogle plus decoding of unreserved escapes, and a
	// '$' that is not the last byte becomes %24: RFC9309 patterns.
	modePattern
	// modeLiteral is modePattern with every '*' and '$' escaped: RFC9309
	// and Koster1996 URL paths, and Koster1996 patterns (which have no
	// wildcards).
	modeLiteral
)

// rewriteMask returns the class bits that make a byte need a closer look in m.
func (m mode) rewriteMask() uint8 {
	switch m {
	case modePattern:
		return clHigh | clPercent | clDollar
	case modeLiteral:
		return clHigh | clPercent | clStar | clDollar
	}
	return clHigh | clPercent
}

func patternMode(sem Semantics) mode {
	switch sem {
	case Google:
		return modeGoogle
	case Koster1996:
		return modeLiteral
	}
	return modePattern
}

// validEscape reports whether s[i] (a '%') starts a valid escape "%xy".
func validEscape(s string, i int) bool {
	return i+2 < len(s) && class[s[i+1]]&clHex != 0 && class[s[i+2]]&clHex != 0
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// decodes reports whether the valid escape at s[i] is decoded in a mode that
// decodes: it is the escape of an unreserved byte v, and (the idempotence rule
// in the file comment) not a hex digit right after an invalid '%' or an
// invalid '%' and one hex digit. A '%' right before s[i] or two bytes before
// it with a hex digit between is always an invalid '%': the byte after it is
// s[i], a '%', not a hex digit, and a '%' is never inside an escape.
func decodes(s string, i int, v byte) bool {
	c := class[v]
	if c&clUnreserved == 0 {
		return false
	}
	if c&clHex == 0 {
		return true
	}
	if i >= 1 && s[i-1] == '%' {
		return false
	}
	return !(i >= 2 && s[i-2] == '%' && class[s[i-1]]&clHex != 0)
}

// unitChanges reports whether the unit at s[i], a byte of class c with
// c&m.rewriteMask() != 0, is written differently in m.
func unitChanges(s string, i int, c uint8, m mode) bool {
	if c&clPercent == 0 {
		// clHigh and clStar always change in the modes whose mask has them;
		// a '$' stays only as the last byte of an RFC9309 pattern.
		return !(c&clDollar != 0 && m == modePattern && i == len(s)-1)
	}
	if !validEscape(s, i) {
		return false
	}
	if class[s[i+1]]&clLowerHex != 0 || class[s[i+2]]&clLowerHex != 0 {
		return true
	}
	return m != modeGoogle && decodes(s, i, unhex(s[i+1])<<4|unhex(s[i+2]))
}

// firstChange returns the index of the first unit of s that m writes
// differently, or -1 when m leaves s as it is. It does not allocate.
func firstChange(s string, m mode) int {
	mask := m.rewriteMask()
	for i := 0; i < len(s); i++ {
		c := class[s[i]]
		if c&mask != 0 && unitChanges(s, i, c, m) {
			return i
		}
	}
	return -1
}

// unit returns the canonical form of the unit at s[i] in m (out[:n]) and the
// number of input bytes it consumes (1, or 3 for a valid escape).
func unit(s string, i int, m mode) (out [3]byte, n, width int) {
	b := s[i]
	switch c := class[b]; {
	case c&m.rewriteMask() == 0:
		out[0] = b
		return out, 1, 1
	case c&clPercent != 0:
		if !validEscape(s, i) {
			out[0] = '%'
			return out, 1, 1
		}
		v := unhex(s[i+1])<<4 | unhex(s[i+2])
		if m != modeGoogle && decodes(s, i, v) {
			out[0] = v
			return out, 1, 3
		}
		b = v
	case c&clDollar != 0 && m == modePattern && i == len(s)-1:
		out[0] = b
		return out, 1, 1
	}
	out[0], out[1], out[2] = '%', upperHex[b>>4], upperHex[b&15]
	if class[s[i]]&clPercent != 0 {
		return out, 3, 3
	}
	return out, 3, 1
}

// normalize returns s in the canonical form of m: s itself (no allocation)
// when no unit changes, otherwise a new string.
// prefix, if non-empty, is written before the result (used to put the '/'
// in front of an extracted path in the same allocation).
func normalize(prefix, s string, m mode) string {
	first := firstChange(s, m)
	if first < 0 {
		if prefix == "" {
			return s
		}
		return prefix + s
	}
	size := len(prefix) + first
	for i := first; i < len(s); {
		_, n, w := unit(s, i, m)
		size += n
		i += w
	}
	b := append(make([]byte, 0, size), prefix...)
	b = appendCanonical(b, s, first, m)
	return string(b)
}

// appendCanonical appends s in the canonical form of m to dst, and returns
// the extended slice: s[:first] as it is (firstChange), then each unit as m
// writes it. It appends at most 3*(len(s)-first) bytes after s[:first].
func appendCanonical(dst []byte, s string, first int, m mode) []byte {
	dst = append(dst, s[:first]...)
	mask := m.rewriteMask()
	for i := first; i < len(s); {
		// Copy the run of bytes that need no look before the next unit.
		j := i
		for j < len(s) && class[s[j]]&mask == 0 {
			j++
		}
		dst = append(dst, s[i:j]...)
		if j == len(s) {
			break
		}
		out, n, w := unit(s, j, m)
		dst = append(dst, out[:n]...)
		i = j + w
	}
	return dst
}

// NormalizePattern returns the rule value p (comment already cut, white
// space trimmed) in the canonical form of sem that the matcher compares
// paths with (docs/SEMANTICS.md sections 3.1 and 3.2):
//
//   - RFC9309: a valid escape "%xy" of an unreserved byte (A-Z a-z 0-9 - .
//     _ ~) is decoded; every other valid escape keeps its '%' and gets
//     uppercase hex ("%2f" -> "%2F"); bytes >= 0x80 become "%HH"; '*' stays
//     (a wildcard); a '$' that is the last byte stays (the end anchor), any
//     other '$' becomes "%24"; an invalid '%' (not followed by two hex
//     digits) stays as it is.
//   - Google: valid escapes get uppercase hex and are never decoded, bytes
//     >= 0x80 become "%HH"; '*' and '$' stay (a '$' that is not last is a
//     literal byte to Google's matcher); an invalid '%' stays.
//   - Koster1996: as RFC9309, but every '*' becomes "%2A" and every '$'
//     becomes "%24": the 1996 draft has no wildcards, and a URL's '*' and '$'
//     are escaped the same way by URLPath.
//
// An escape of a hex digit is not decoded right after an invalid '%' (or an
// invalid '%' and one hex digit), so that decoding never makes a new escape:
// "%%41" stays "%%41". With that rule NormalizePattern is idempotent for
// every input and semantics.
//
// NormalizePattern returns p itself, without allocating, when p is already
// canonical; otherwise it allocates the result once. It runs in time linear
// in len(p).
func NormalizePattern(p string, sem Semantics) string {
	return normalize("", p, patternMode(sem))
}

// PathSpan returns the part of rawURL that rules are matched against, path +
// ";params" + "?query", without allocating: the path is "/"+path when slash
// is true, and path itself otherwise. slash is true exactly when path does
// not start with '/' (also when path is empty, which stands for "/").
// rawURL is read as it is: no white space is trimmed, nothing is decoded and
// nothing is validated.
//
// rawURL may be an absolute URL ("https://example.com/a?b"), a
// network-path reference ("//example.com/a") or a path that starts with '/'
// ("/a?b"). Any other text is not a URL whose path can be known; every
// semantics reads it as Google's library does, taking its first segment for
// a host (docs/SEMANTICS.md section 3.3): "www.example.com/private" gives
// "/private", "localhost:8080/x" gives "/x", "mailto:a@b" and "foo" give "/".
//
// RFC9309 and Koster1996 read a URL as RFC 3986 does:
//
//   - A reference that starts with '/' but not "//" is a bare path, used as it
//     is up to the first '#'.
//   - A scheme is ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) followed by
//     ':' at the very start (any case: "HTTP://" has one). When "//"
//     follows it, or when rawURL starts with "//", an authority follows,
//     which ends at the first '/', '?' or '#' and is skipped whole:
//     userinfo ("u:p@"), ports, IPv6 literals ("[::1]:8080") and IDN hosts
//     are all inside it, and so is a ';' ("http://a.com;x" gives "/").
//   - Anything else (no "//" after the scheme or no scheme: "mailto:a@b",
//     "localhost:8080/x", "a/b", "?x") is read as Google reads it (below).
//   - "#fragment" is dropped; an empty path is "/", so "http://a.com?x" is
//     "/?x" and "http://a.com#x/y" is "/".
//
// Google follows Google's robots.cc GetPathParamsQuery exactly: a leading
// "//" is skipped; there is a scheme only if "://" comes before any '/', '?'
// or ';'; the path starts at the first '/', '?' or ';' after the scheme (with
// no scheme the first segment is taken as the host: "a/b" gives "/b", but
// "/a" gives "/a" and "//a/b" gives "/b"); a '#' before that start gives "/";
// the path ends at '#'; a path that starts with '?' or ';' gets a '/' in
// front; no path gives "/".
//
// The two readings differ only inside an authority: Google ends it at ';'
// as well.
func PathSpan(rawURL string, sem Semantics) (slash bool, path string) {
	slash, path = pathSpanUncut(rawURL, sem)
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path = path[:i]
	}
	return slash, path
}

// pathSpanUncut is PathSpan without the cut at '#': path runs on to the end
// of rawURL, fragment included, for a caller that stops at the first '#'
// itself (a scan that often ends before it need not look for it). Cutting
// path at its first '#' gives PathSpan's; slash is the same.
func pathSpanUncut(rawURL string, sem Semantics) (slash bool, path string) {
	if sem == Google {
		path = googlePathUncut(rawURL)
	} else {
		path = uriPathUncut(rawURL)
	}
	return path == "" || path[0] != '/', path
}

// uriPathUncut is pathSpanUncut's path for RFC9309 and Koster1996: RFC 3986
// for a bare path and for a URL with an authority, Google's reading for any
// other text.
func uriPathUncut(u string) string {
	switch {
	case len(u) > 0 && u[0] == '/' && (len(u) == 1 || u[1] != '/'):
		return u // a bare path
	case strings.HasPrefix(u, "//"):
		return skipAuthority(u[2:])
	}
	if n := schemeLen(u); n > 0 && strings.HasPrefix(u[n+1:], "//") {
		return skipAuthority(u[n+3:])
	}
	return googlePathUncut(u)
}

// IsURL reports whether s is a URL whose path can be known
// (docs/SEMANTICS.md section 3.3): an absolute URL with an authority (an RFC
// 3986 scheme followed by "://"), a network-path reference ("//host/a"), a
// path that starts with '/', or "" (the empty URL, whose path is "/"). Any
// other text ("www.example.com/a", "page/x", "mailto:a@b") is read, in every
// semantics, as Google's library reads it, which is seldom what was meant.
// It does not allocate.
func IsURL(s string) bool {
	if s == "" || s[0] == '/' {
		return true
	}
	n := schemeLen(s)
	return n > 0 && strings.HasPrefix(s[n+1:], "//")
}

// schemeLen returns the length of the RFC 3986 scheme at the start of u (the
// ':' that ends it is at u[n]), or 0 when u does not start with one.
func schemeLen(u string) int {
	if len(u) == 0 || !isAlpha(u[0]) {
		return 0
	}
	for i := 1; i < len(u); i++ {
		switch c := u[i]; {
		case c == ':':
			return i
		case isAlpha(c) || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.':
		default:
			return 0
		}
	}
	return 0
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// skipAuthority returns s (the text after "//") from the end of the
// authority: the first '/', '?' or '#', or "" when there is none.
func skipAuthority(s string) string {
	if i := bytesearch.IndexAny4(s, 0, '/', '?', '#', '#'); i >= 0 {
		return s[i:]
	}
	return ""
}

// googlePathUncut is pathSpanUncut's path for Google: Google's
// GetPathParamsQuery without the '/' it puts in front of a path that starts
// with '?' or ';', and without its cut at '#'.
func googlePathUncut(u string) string {
	start := 0
	switch {
	case len(u) >= 8 && u[:8] == "https://":
		// The common schemes, lower case: the first '/', '?', ';' or '#'
		// is the '/' of "://" (the general case below finds the same).
		return pathAt(u, indexPathStart(u, 8))
	case len(u) >= 7 && u[:7] == "http://":
		return pathAt(u, indexPathStart(u, 7))
	case len(u) >= 2 && u[0] == '/' && u[1] == '/':
		start = 2
	}
	// One pass: the first '/', '?', ';' or '#'. Google takes "://" as the
	// end of a scheme only when it comes before any '/', '?' or ';', that
	// is when the first of them is the '/' of "://".
	i := indexPathStart(u, start)
	if i >= 0 && u[i] == '/' && i > start && u[i-1] == ':' && i+1 < len(u) && u[i+1] == '/' {
		i = indexPathStart(u, i+2)
	}
	return pathAt(u, i)
}

// pathAt is googlePathUncut's result when the path starts at u[i] (i < 0:
// nowhere): none when there is no path or a fragment comes first.
func pathAt(u string, i int) string {
	if i < 0 || u[i] == '#' {
		return ""
	}
	return u[i:]
}

// indexPathStart returns the index of the first '/', '?', ';' or '#' in u at
// or after from, or -1. It runs over a host eight bytes a step.
func indexPathStart(u string, from int) int {
	return bytesearch.IndexAny4(u, from, '/', '?', ';', '#')
}

// ExtractPath returns the path + ";params" + "?query" of rawURL as sem reads
// URLs (see PathSpan for every rule): always a string that starts with '/'.
// It allocates only when a '/' must be put in front of a non-empty path;
// for an empty path it returns the constant "/".
func ExtractPath(rawURL string, sem Semantics) string {
	slash, p := PathSpan(rawURL, sem)
	switch {
	case !slash:
		return p
	case p == "":
		return "/"
	}
	return "/" + p
}

// NormalizePathInto is the streaming form of URLPath for a path that was
// already extracted (see ExtractPath), for callers that must not allocate.
// It writes the canonical form of path[from:] into dst, unit by unit (a unit
// is one byte, or one three-byte escape "%xy"), stops before the first unit
// whose output does not fit, and returns the number of bytes written and the
// index in path where it stopped (len(path) when it is done). Writing chunks from from = 0, then from = next, until next ==
// len(path), and concatenating them gives the canonical form of path.
//
// from must be 0 or a next returned by an earlier call on the same path: the
// whole path is passed because a unit's form can depend on the two bytes
// before it. len(dst) must be at least 3, the longest output of one unit;
// with a shorter dst a call may make no progress. It does not allocate.
func NormalizePathInto(dst []byte, path string, from int, sem Semantics) (n, next int) {
	if sem == Google {
		n = copy(dst, path[from:])
		return n, from + n
	}
	const m = modeLiteral
	mask := m.rewriteMask()
	i := from
	for i < len(path) {
		c := class[path[i]]
		if c&mask == 0 {
			if n == len(dst) {
				break
			}
			dst[n] = path[i]
			n++
			i++
			continue
		}
		out, k, w := unit(path, i, m)
		if n+k > len(dst) {
			break
		}
		copy(dst[n:], out[:k])
		n += k
		i += w
	}
	return n, i
}

// AppendPath appends the canonical form of an extracted path (see
// NormalizePathInto) to dst and returns the extended slice. It allocates
// only when dst has less room than three bytes per byte of path (Google's
// form: one), the longest a canonical form can be.
func AppendPath(dst []byte, path string, sem Semantics) []byte {
	need := len(path)
	if sem != Google {
		need *= 3
	}
	if cap(dst)-len(dst) < need {
		dst = append(make([]byte, 0, len(dst)+need), dst...)
	}
	n, _ := NormalizePathInto(dst[len(dst):len(dst)+need], path, 0, sem)
	return dst[:len(dst)+n]
}

// IsCanonicalPath reports whether path, an extracted path, is in the
// canonical form of sem as it is (URLPath would not rewrite it). It does
// not allocate.
func IsCanonicalPath(path string, sem Semantics) bool {
	return sem == Google || firstChange(path, modeLiteral) < 0
}

// URLPath returns the path of rawURL (ExtractPath) in the canonical form of
// sem that NormalizePattern's patterns are compared with:
//
//   - RFC9309 and Koster1996: the percent rules of patterns (an escape of an
//     unreserved byte is decoded, other valid escapes get uppercase hex,
//     bytes >= 0x80 become "%HH", an invalid '%' stays), and every literal
//     '*' becomes "%2A" and every '$' "%24", so that "Disallow: /a-%2A"
//     matches "/a-*". "/%7Ejoe" and "/~joe" give the same path, "/a%2Fb"
//     and "/a/b" do not. Reserved bytes written literally (":" or "/" in a
//     query) stay literal: which of them are data cannot be known.
//   - Google: the path is returned exactly as extracted.
//
// The canonical form is idempotent. URLPath allocates at most once, and not
// at all when the extracted path starts with '/' and is already canonical.
func URLPath(rawURL string, sem Semantics) string {
	slash, p := PathSpan(rawURL, sem)
	if slash && p == "" {
		return "/"
	}
	prefix := ""
	if slash {
		prefix = "/"
	}
	if sem == Google {
		return prefix + p
	}
	// The '/' in front cannot change how p's units are written: a unit
	// looks back only at bytes of p that precede it.
	return normalize(prefix, p, modeLiteral)
}
