package compile

import (
	"strconv"
	"strings"

	"github.com/seed-275a9bd5/robotstxt/internal/plural"
)

// WarningKind classifies a Warning.
type WarningKind uint8

const (
	// WarnUTF16: the file is UTF-16 text (a UTF-16 byte-order mark, or NUL
	// bytes in nearly every other place of its start). RFC 9309 wants
	// UTF-8; each line is read up to its first NUL, so nothing is read as
	// written.
	WarnUTF16 WarningKind = iota + 1
	// WarnBinary: the file holds NUL bytes and is not UTF-16: binary data,
	// not text. Each line is read up to its first NUL.
	WarnBinary
	// WarnNotUTF8: more than half of the lines that hold something are
	// not valid UTF-8: another encoding, or binary data.
	WarnNotUTF8
	// WarnHTML: the file looks like an HTML page (its first line that is
	// neither blank nor a comment starts with '<', or no group was read and
	// some line looks like HTML): a server that answers /robots.txt with a
	// web page usually has no robots.txt. Rules in it are read all the same
	// (Google: File format).
	WarnHTML
	// WarnJSON: no group was read and the first line that is neither blank
	// nor a comment starts with '{' or '[': the server sent a JSON document
	// (often an error of an API gateway), not a robots.txt.
	WarnJSON
	// WarnTruncated: the file is longer than the size limit; the rules after
	// it do not count (as the parser's DiagTruncated says at that line).
	WarnTruncated
	// WarnNoUserAgent: the file has directives but no user-agent line, so
	// no rule applies to any crawler and every URL is allowed; the message
	// counts the rules and other lines that came before any user-agent line
	// and were ignored. Not given for a file that is not text (WarnUTF16,
	// WarnBinary, WarnNotUTF8, WarnHTML, WarnJSON): that warning says it.
	WarnNoUserAgent
)

var warningNames = [...]string{
	WarnUTF16:       "utf16",
	WarnBinary:      "binary",
	WarnNotUTF8:     "mostly-not-utf8",
	WarnHTML:        "html-page",
	WarnJSON:        "json-document",
	WarnTruncated:   "truncated",
	WarnNoUserAgent: "no-user-agent",
}

// String returns the kind's short name, as the lint command prints it:
// "utf16", "binary", "mostly-not-utf8", "html-page", "json-document",
// "truncated" or "no-user-agent".
func (k WarningKind) String() string { return nameOf(warningNames[:], k, "WarningKind") }

// Warning says something about a whole file that its reader should know:
// that it was not read as a robots.txt of rules would be. Parsing never
// fails; a warning changes no decision, it says why the decisions may not
// be what the file's author (or the crawler) expects.
type Warning struct {
	Kind WarningKind
	// Line is the first line that shows it (the first HTML line, the line
	// at which reading stopped, the first ignored rule), 1 when it is about
	// the file as a whole.
	Line int
	// Message says what was found and what it means for the decisions, in
	// one sentence about "the file", with what to do when there is
	// something to do.
	Message string
}

// String returns "KIND: MESSAGE".
func (w Warning) String() string { return w.Kind.String() + ": " + w.Message }

// utf16Sample is how many bytes at the start of a file are looked at to
// tell UTF-16 text without a byte-order mark: a few lines' worth, enough
// for the pattern of NUL bytes in every other position to be plain.
const utf16Sample = 1024

// fileWarnings returns the warnings of the file f parsed from s (the bytes
// read); hasNUL says whether s has a NUL byte (the scanner looked), and seen
// what else the parse noticed. It reads s only where the file needs it: the
// lines up to the first directive, in the usual file.
func fileWarnings(s string, hasNUL bool, f *File, seen *seen) []Warning {
	notUTF8 := seen.notUTF8
	var out []Warning
	add := func(kind WarningKind, line int, msg string) {
		out = append(out, Warning{Kind: kind, Line: line, Message: msg})
	}
	readAs := "no rule was read, so every URL is allowed"
	if n := len(f.Groups); n > 0 {
		readAs = strconv.Itoa(n) + plural.Of(n, " group was read", " groups were read")
	}
	text := true
	first, firstLine := firstDirective(s)
	switch {
	case strings.HasPrefix(s, "\xFF\xFE") || strings.HasPrefix(s, "\xFE\xFF") || hasNUL && isUTF16(s):
		text = false
		add(WarnUTF16, 1, "the file is UTF-16 text, not UTF-8 as RFC 9309 requires, so it is not read as written: "+readAs+" (convert it: iconv -f UTF-16 -t UTF-8)")
	case hasNUL:
		text = false
		add(WarnBinary, seen.firstNUL, "the file is not a text file (it holds NUL bytes, and each line is read only up to its first one): "+readAs)
	default:
		if notUTF8 > 0 {
			if all := nonBlankLines(s); notUTF8*2 > all {
				text = false
				add(WarnNotUTF8, seen.firstNotUTF8, "the file is mostly not UTF-8 ("+strconv.Itoa(notUTF8)+" of "+strconv.Itoa(all)+" lines): is it binary, or in another encoding? "+readAs)
				break
			}
		}
		htmlLine := 0 // an HTML page: its first directive, or with no group its first HTML line
		if strings.HasPrefix(first, "<") {
			htmlLine = firstLine
		} else if len(f.Groups) == 0 {
			htmlLine = seen.firstHTML
		}
		switch {
		case htmlLine > 0:
			text = false
			add(WarnHTML, htmlLine, "the file looks like an HTML page (line "+strconv.Itoa(htmlLine)+"), not a robots.txt: a server that answers /robots.txt with a web page usually has none; "+readAs)
		case len(f.Groups) == 0 && (strings.HasPrefix(first, "{") || strings.HasPrefix(first, "[")):
			text = false
			add(WarnJSON, firstLine, "the file looks like a JSON document (line "+strconv.Itoa(firstLine)+"), not a robots.txt: a server that answers /robots.txt with one (an error of an API, say) usually has none; "+readAs)
		}
	}
	if f.Truncated {
		n := strconv.Itoa(f.Size)
		line := seen.truncatedAt
		add(WarnTruncated, line, "the file is longer than "+n+" bytes: only the first "+n+" bytes (to line "+strconv.Itoa(line)+") were read, as RFC 9309 allows; the rules after them do not count")
	}
	if text && len(f.Groups) == 0 && first != "" {
		msg := "the file has no user-agent line, so no rule applies to any crawler: every URL is allowed"
		line := firstLine
		if seen.outsideRules+seen.outsideExts > 0 {
			line = seen.firstOutside
			var parts []string
			if seen.outsideRules > 0 {
				parts = append(parts, strconv.Itoa(seen.outsideRules)+plural.Of(seen.outsideRules, " rule", " rules"))
			}
			if seen.outsideExts > 0 {
				parts = append(parts, strconv.Itoa(seen.outsideExts)+plural.Of(seen.outsideExts, " other line", " other lines"))
			}
			msg += " (its " + strings.Join(parts, " and ") + " before any user-agent line " + plural.Of(seen.outsideRules+seen.outsideExts, "is", "are") + " ignored)"
		}
		add(WarnNoUserAgent, line, msg)
	}
	return out
}

// isUTF16 reports whether the start of s is UTF-16 text without a
// byte-order mark: NUL bytes fill nearly every other position (ASCII text
// in UTF-16).
func isUTF16(s string) bool {
	s = s[:min(len(s), utf16Sample)]
	if len(s) < 4 {
		return false
	}
	var nul [2]int
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			nul[i&1]++
		}
	}
	half := len(s) / 2
	return (nul[0] >= half*3/4 && nul[1] <= half/8) || (nul[1] >= half*3/4 && nul[0] <= half/8)
}

// eachLine calls fn with each line of s (without its end, after a leading
// byte-order mark) and its number, until fn returns false.
func eachLine(s string, fn func(n int, line string) bool) {
	s = s[bomLen(s):]
	for n := 1; len(s) > 0; n++ {
		i := strings.IndexAny(s, "\r\n")
		line := s
		if i < 0 {
			s = ""
		} else {
			line = s[:i]
			if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			s = s[i+1:]
		}
		if !fn(n, line) {
			return
		}
	}
}

// nonBlankLines counts the lines of s that hold more than white space.
func nonBlankLines(s string) int {
	n := 0
	eachLine(s, func(_ int, l string) bool {
		if strings.TrimSpace(l) != "" {
			n++
		}
		return true
	})
	return n
}

// firstDirective returns the first line of s that is neither blank nor a
// comment, trimmed, and its number; "" and 0 when there is none (an empty
// file, or one of comments, means "no rules" on purpose).
func firstDirective(s string) (string, int) {
	line, at := "", 0
	eachLine(s, func(n int, l string) bool {
		l = strings.TrimSpace(l)
		if l == "" || l[0] == '#' {
			return true
		}
		line, at = l, n
		return false
	})
	return line, at
}
