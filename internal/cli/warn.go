package cli

import (
	"bytes"
	"fmt"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// utf16Sample is how many bytes at the start of a file are looked at to
// tell UTF-16 text without a byte-order mark: a few lines' worth, enough
// for the pattern of NUL bytes in every other position to be plain.
const utf16Sample = 1024

// fileWarnings returns what a user should know about how the robots.txt
// name was read, one message each, when it was not read as a text file of
// rules would be: UTF-16 or other non-text input, an HTML page, a file cut
// at the size limit, a file with no group at all. Parsing never fails and
// the decisions stay those of the file as read; these only say so.
func fileWarnings(name string, body []byte, f *compile.File) []string {
	var out []string
	var readAs string
	switch len(f.Groups) {
	case 0:
		readAs = "no rule was read, so every URL is allowed"
	case 1:
		readAs = "1 group was read"
	default:
		readAs = fmt.Sprintf("%d groups were read", len(f.Groups))
	}
	text := true
	switch {
	case isUTF16(body):
		text = false
		out = append(out, fmt.Sprintf("%s is UTF-16 text, not UTF-8 as RFC 9309 requires, so it is not read as written: %s (convert it: iconv -f UTF-16 -t UTF-8)", name, readAs))
	case bytes.IndexByte(body, 0) >= 0:
		text = false
		out = append(out, fmt.Sprintf("%s is not a text file (it holds NUL bytes, and each line is read only up to its first one): %s", name, readAs))
	case notUTF8Lines(f)*2 > nonBlankLines(body):
		text = false
		out = append(out, fmt.Sprintf("%s is mostly not UTF-8 (%d of %d lines): is it binary, or in another encoding? %s", name, notUTF8Lines(f), nonBlankLines(body), readAs))
	default:
		if line, ok := htmlLine(body, f); ok {
			text = false
			out = append(out, fmt.Sprintf("%s looks like an HTML page (line %d), not a robots.txt: a server that answers /robots.txt with a web page usually has none; %s", name, line, readAs))
		}
	}
	if f.Truncated {
		out = append(out, fmt.Sprintf("%s is longer than %d bytes: only the first %d bytes (to line %d) were read, as RFC 9309 allows; the rules after them do not count", name, f.Size, f.Size, truncatedLine(f)))
	}
	if text && len(f.Groups) == 0 && hasDirective(body) {
		msg := fmt.Sprintf("%s has no user-agent line, so no rule applies to any crawler: every URL is allowed", name)
		if n := countDiag(f, compile.DiagRuleOutsideGroup); n > 0 {
			msg += fmt.Sprintf(" (its %d rules come before any user-agent line and are ignored)", n)
		}
		out = append(out, msg)
	}
	return out
}

// isUTF16 reports whether body is UTF-16 text: it starts with a UTF-16
// byte-order mark, or NUL bytes fill nearly every other position of its
// start (ASCII text in UTF-16 without a mark).
func isUTF16(body []byte) bool {
	if bytes.HasPrefix(body, []byte{0xFF, 0xFE}) || bytes.HasPrefix(body, []byte{0xFE, 0xFF}) {
		return true
	}
	s := body[:min(len(body), utf16Sample)]
	if len(s) < 4 {
		return false
	}
	var nul [2]int
	for i, c := range s {
		if c == 0 {
			nul[i&1]++
		}
	}
	half := len(s) / 2
	return (nul[0] >= half*3/4 && nul[1] <= half/8) || (nul[1] >= half*3/4 && nul[0] <= half/8)
}

// notUTF8Lines counts the lines reported as not UTF-8.
func notUTF8Lines(f *compile.File) int {
	n, last := 0, 0
	for _, d := range f.Diagnostics {
		if d.Kind == compile.DiagNotUTF8 && d.Line != last {
			n, last = n+1, d.Line
		}
	}
	return n
}

func countDiag(f *compile.File, kind compile.DiagKind) int {
	n := 0
	for _, d := range f.Diagnostics {
		if d.Kind == kind {
			n++
		}
	}
	return n
}

// lines calls fn with each line of body (without its end) and its number,
// until fn returns false.
func lines(body []byte, fn func(n int, line []byte) bool) {
	body = bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF"))
	for n := 1; len(body) > 0; n++ {
		i := bytes.IndexAny(body, "\r\n")
		line := body
		if i < 0 {
			body = nil
		} else {
			line = body[:i]
			if body[i] == '\r' && i+1 < len(body) && body[i+1] == '\n' {
				i++
			}
			body = body[i+1:]
		}
		if !fn(n, line) {
			return
		}
	}
}

// nonBlankLines counts the lines of body that hold more than white space.
func nonBlankLines(body []byte) int {
	n := 0
	lines(body, func(_ int, l []byte) bool {
		if len(bytes.TrimSpace(l)) > 0 {
			n++
		}
		return true
	})
	return n
}

// hasDirective reports whether body has a line that is neither blank nor a
// comment: an empty file, or one of comments, means "no rules" on purpose.
func hasDirective(body []byte) bool {
	found := false
	lines(body, func(_ int, l []byte) bool {
		l = bytes.TrimSpace(l)
		found = len(l) > 0 && l[0] != '#'
		return !found
	})
	return found
}

// htmlLine reports whether body is an HTML page rather than a robots.txt:
// its first line that is neither blank nor a comment starts with '<'
// (<!DOCTYPE html>, <html>, <?xml ...>), or no group was read and some line
// looks like HTML. It returns that line's number.
func htmlLine(body []byte, f *compile.File) (int, bool) {
	at := 0
	lines(body, func(n int, l []byte) bool {
		l = bytes.TrimSpace(l)
		if len(l) == 0 || l[0] == '#' {
			return true
		}
		if l[0] == '<' {
			at = n
		}
		return false
	})
	if at > 0 {
		return at, true
	}
	if len(f.Groups) == 0 {
		for _, d := range f.Diagnostics {
			if d.Kind == compile.DiagHTML {
				return d.Line, true
			}
		}
	}
	return 0, false
}

// truncatedLine is the line at which reading stopped.
func truncatedLine(f *compile.File) int {
	for _, d := range f.Diagnostics {
		if d.Kind == compile.DiagTruncated {
			return d.Line
		}
	}
	return f.Lines
}
