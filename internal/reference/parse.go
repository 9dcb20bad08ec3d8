package reference

import (
	"strings"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// This file is the reference's own reading of a robots.txt into groups
// (docs/SEMANTICS.md sections 1 and 2.1), written again from the document
// without compile's scanner or builder: the lines, the comments, the byte
// order mark, the keys and their typos, the groups and Koster1996's
// records, and each group's content-usage lines (section 7).
// FuzzReferencePieces and TestParse_AgreesWithCompile compare its
// groups with compile.Parse's, so a bug in either shows as a difference.
// It is naive and allocates freely.

// File is a robots.txt as the reference reads it: its groups in file order.
type File struct {
	Semantics compile.Semantics
	Groups    []Group
}

// Group is one group: its user-agent lines, its rules (an empty rule
// value is no rule: it matches nothing, and only ends the user-agent lines)
// and its content-usage lines (docs/SEMANTICS.md section 7).
type Group struct {
	Agents []Agent
	Rules  []Rule
	Usages []UsageLine
	// Signals are its content-signal lines (docs/SEMANTICS.md section
	// 8), as UsageLines: number and value as written.
	Signals []UsageLine
}

// Agent is a user-agent line: its number and its value as written.
type Agent struct {
	Line  int
	Value string
}

// Rule is an allow or disallow line with a value.
type Rule struct {
	Line  int
	Kind  compile.RuleKind
	Value string
}

// UsageLine is a content-usage line: its number and its value as written
// (comment cut, spaces and tabs around it trimmed), path and statement
// together. An empty value is kept: it is a rule with no path whose
// statement is empty.
type UsageLine struct {
	Line  int
	Value string
}

// lineKind is what a line is, for grouping.
type lineKind int

const (
	lineBlank     lineKind = iota // only spaces and tabs
	lineNothing                   // a comment, a NUL-cut empty line, an unreadable line, a sitemap
	lineAgent                     // user-agent
	lineRule                      // allow or disallow
	lineExtension                 // any other key
	lineUsage                     // content-usage
)

// Parse reads body as docs/SEMANTICS.md sections 1 and 2.1 say, for sem.
func Parse(body []byte, sem compile.Semantics) *File {
	s := string(body)
	if len(s) > maxFile {
		s = s[:maxFile]
	}
	// A byte order mark, or the first one or two bytes of one, at the start.
	for _, b := range []string{"\xEF\xBB\xBF", "\xEF\xBB", "\xEF"} {
		if strings.HasPrefix(s, b) {
			s = s[len(b):]
			break
		}
	}
	f := &File{Semantics: sem}
	var cur *Group   // the open group, or nil
	sawRule := false // a rule line came after cur's last user-agent line
	hasOwn := false  // Koster1996: cur has a rule or extension line
	for n, line := range splitLines(s) {
		num := n + 1
		kind, key, value := readLine(line)
		switch kind {
		case lineBlank:
			if sem != compile.Koster1996 || cur == nil {
				continue
			}
			// A blank line ends the record; one without a rule or an
			// extension line yet is dropped.
			if !hasOwn {
				f.Groups = f.Groups[:len(f.Groups)-1]
			}
			cur = nil
		case lineAgent:
			if cur == nil || sawRule {
				f.Groups = append(f.Groups, Group{})
				cur = &f.Groups[len(f.Groups)-1]
				sawRule, hasOwn = false, false
			}
			cur.Agents = append(cur.Agents, Agent{Line: num, Value: value})
		case lineRule:
			if cur == nil {
				continue // outside every group: ignored
			}
			sawRule, hasOwn = true, true
			if value != "" {
				k := compile.Disallow
				if key == "allow" {
					k = compile.Allow
				}
				cur.Rules = append(cur.Rules, Rule{Line: num, Kind: k, Value: value})
			}
		case lineExtension:
			if cur != nil {
				hasOwn = true
				if strings.EqualFold(key, "content-signal") {
					cur.Signals = append(cur.Signals, UsageLine{Line: num, Value: value})
				}
			}
		case lineUsage:
			if cur == nil {
				continue // outside every group: ignored
			}
			// A record with a content-usage line is kept at a blank line,
			// as one with an extension line is. In RFC9309 the line is a
			// rule (draft-ietf-aipref-attach-05 section 3 extends RFC
			// 9309's rule): a user-agent line after it starts a new
			// group. In Google and Koster1996 it is a key that is no rule.
			hasOwn = true
			if sem == compile.RFC9309 {
				sawRule = true
			}
			cur.Usages = append(cur.Usages, UsageLine{Line: num, Value: value})
		}
	}
	return f
}

// splitLines splits s at LF, CR LF and lone CR; the last line counts
// without a line end, and there is no line after a final line end.
func splitLines(s string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			lines = append(lines, s[start:i])
			start = i + 1
		case '\r':
			lines = append(lines, s[start:i])
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	if start < len(s) {
		lines = append(lines, s[start:])
	}
	return lines
}

// keys are the key spellings of section 1.2, each with what it reads as: a
// key that begins with one of them, in any case, is that directive.
var keys = []struct{ spelling, as string }{
	{"user-agent", "user-agent"}, {"useragent", "user-agent"}, {"user agent", "user-agent"},
	{"allow", "allow"},
	{"disallow", "disallow"}, {"dissallow", "disallow"}, {"dissalow", "disallow"},
	{"disalow", "disallow"}, {"diasllow", "disallow"}, {"disallaw", "disallow"},
	{"sitemap", "sitemap"}, {"site-map", "sitemap"},
}

// readLine returns what line is, and for a directive its key (as read:
// "user-agent", "allow", "disallow", "sitemap" or the key as written) and
// its value.
func readLine(line string) (lineKind, string, string) {
	if len(line) > maxLine {
		line = line[:maxLine]
	}
	nul := false
	if i := strings.IndexByte(line, 0); i >= 0 {
		line, nul = line[:i], true
	}
	comment := false
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line, comment = line[:i], true
	}
	text := strings.Trim(line, " \t")
	if text == "" {
		if comment || nul {
			return lineNothing, "", ""
		}
		return lineBlank, "", ""
	}
	if text[0] == '<' { // HTML
		return lineNothing, "", ""
	}
	var key, value string
	if i := strings.IndexByte(text, ':'); i >= 0 {
		key, value = strings.TrimRight(text[:i], " \t"), strings.TrimLeft(text[i+1:], " \t")
		if key == "" {
			return lineNothing, "", ""
		}
	} else {
		// Without a colon: exactly two words.
		words := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\t' })
		if len(words) != 2 {
			return lineNothing, "", ""
		}
		key, value = words[0], words[1]
	}
	dir, typo := "", false
	for _, k := range keys {
		if len(key) >= len(k.spelling) && strings.EqualFold(key[:len(k.spelling)], k.spelling) {
			dir, typo = k.as, k.spelling != k.as || len(key) != len(k.spelling)
			break
		}
	}
	if (dir == "" || typo) && strings.ContainsAny(key, "<>") {
		return lineNothing, "", "" // HTML
	}
	switch dir {
	case "user-agent":
		return lineAgent, dir, value
	case "allow", "disallow":
		return lineRule, dir, value
	case "sitemap":
		return lineNothing, dir, value
	}
	if strings.EqualFold(key, "content-usage") { // the whole key, in any case
		return lineUsage, "content-usage", value
	}
	return lineExtension, key, value
}
